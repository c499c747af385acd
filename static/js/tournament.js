/* Klub: tournaments — the organizer's form shows the chosen game's and format's fields; a
   tournament's page reads its live part again when the tournament changes (a notice on
   /ws/notices?tournament=ID: a round began or ended, a player came or went). Times in the
   reader's own zone: forms.js, loaded before. */
"use strict";
(function () {
  const K = window.Klub;
  const form = document.getElementById("tournament-form");
  if (form) K.organizerForm(form);

  const live = document.getElementById("tournament-live");
  if (!live) return;
  let busy = false;
  let again = false;
  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    again = false;
    try {
      const r = await fetch(live.dataset.src, { credentials: "same-origin" });
      if (r.ok) {
        live.innerHTML = await r.text();
        K.localTimes(live);
      }
    } catch (e) { /* offline for a moment: the notices' reconnect reads it again */ }
    finally {
      busy = false;
      live.dataset.refreshed = String(Number(live.dataset.refreshed || 0) + 1);
      if (again) refresh();
    }
  }
  document.addEventListener("klub:tournament", refresh);
  document.addEventListener("klub:notice", (e) => { if (e.detail && e.detail.kind === "round") refresh(); });
  // The time to the next round counts down by itself; at zero the server starts it (and tells).
  setInterval(() => {
    for (const el of live.querySelectorAll(".countdown[data-seconds]")) {
      const left = Math.max(0, Number(el.dataset.seconds) - 30);
      el.dataset.seconds = String(left);
      el.textContent = "(" + K.T("in {n} min", { n: Math.ceil(left / 60) }) + ")";
    }
  }, 30000);
})();
