/* Klub: leagues — the organizer's form shows the chosen game's fields (as the tournaments'
   form); a league's page counts down to its next evening, a second at a time, from the
   seconds the server gave (its clock, not the browser's). Times in the reader's own zone:
   forms.js, loaded before. */
"use strict";
(function () {
  const K = window.Klub;
  const form = document.getElementById("league-form");
  if (form) K.organizerForm(form);

  // the days' unit comes translated with the page (data-days: "{n} d")
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
