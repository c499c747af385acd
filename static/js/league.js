/* Klub: leagues — the organizer's form shows the chosen game's fields (as the tournaments'
   form); a league's page counts down to its next evening, a second at a time, from the
   seconds the server gave (its clock, not the browser's). Times in the reader's own zone:
   forms.js, loaded before. */
"use strict";
(function () {
  const K = window.Klub;
  // the days' unit comes translated with the page (data-days: "{n} d")
  const form = document.getElementById("league-form");
  if (form) {
    const sync = () => {
      const on = [...form.querySelectorAll("input[name=game]:checked, input[name=format]:checked")].map((x) => x.value);
      if (on.length) K.syncGameSettings(form, on[0]);
      for (const el of form.querySelectorAll("[data-for]")) {
        el.hidden = !el.dataset.for.split(" ").some((v) => on.includes(v));
        for (const input of el.querySelectorAll("input")) input.disabled = el.hidden;
      }
    };
    form.addEventListener("change", sync);
    sync();
  }

  const clocks = [...document.querySelectorAll(".league-countdown[data-seconds]")];
  if (!clocks.length) return;
  const started = Date.now();
  const pad = (n) => String(n).padStart(2, "0");
  function show() {
    const gone = Math.floor((Date.now() - started) / 1000);
    for (const el of clocks) {
      const left = Math.max(0, Number(el.dataset.seconds) - gone);
      const d = Math.floor(left / 86400);
      const hms = `${pad(Math.floor((left % 86400) / 3600))}:${pad(Math.floor((left % 3600) / 60))}:${pad(left % 60)}`;
      el.textContent = (d ? (el.dataset.days || "{n} d").replace("{n}", String(d)) + " " : "") + hms;
      el.dataset.left = String(left);
    }
  }
  show();
  setInterval(show, 1000);
})();
