/* Klub: the lobby — the propose form follows the chosen game (its settings, its number of
   seats); the lists are read again when a live notice (notices.js) says they changed. */
"use strict";
(function () {
  const K = window.Klub;
  const form = document.getElementById("propose-form");
  if (form) {
    const sync = () => {
      const choice = form.querySelector("input[name=game]:checked");
      let others = Number(choice.dataset.seats) - 1;
      K.syncGameSettings(form, choice.value);
      // A setting that is the number of seats (Libyan Lora's igraca), when it applies.
      for (const field of form.querySelectorAll(".game-setting[data-seats-field]")) {
        const select = field.querySelector("select");
        if (!field.hidden && select && select.value) others = Number(select.value) - 1;
      }
      // A slow timer's bank and weekends (app/parties/slow.py): shown with a slow timer only.
      const timer = form.querySelector("select[name=timer]");
      const slowOptions = form.querySelector("#slow-options");
      if (slowOptions) slowOptions.hidden = !(timer && timer.selectedOptions[0] && "slow" in timer.selectedOptions[0].dataset);
      const exhibition = form.querySelector("input[name=exhibition]").checked;
      for (const line of form.querySelectorAll(".seat-line[data-seat]")) {
        line.hidden = Number(line.dataset.seat) > others;
        const kind = exhibition ? "bot" : line.querySelector(".seat-kind").value;
        line.classList.remove("kind-bot", "kind-member", "kind-open", "kind-bot_open");
        line.classList.add("kind-" + kind);
        line.querySelector(".seat-kind").disabled = exhibition;
      }
    };
    form.addEventListener("change", sync);
    sync();
  }
  const live = document.getElementById("lobby-live");
  if (!live) return;
  let busy = false;
  let again = false; // a notice came while reading, or while the page was hidden
  let held = false; // an update waits for the focus to leave the lists
  async function refresh() {
    if (busy || document.hidden) { again = true; return; }
    busy = true;
    again = false;
    try {
      const r = await fetch(live.dataset.src, { headers: { Accept: "text/html" } });
      if (r.status === 401) { location.href = "/login?next=/lobby"; return; }
      if (r.ok) {
        const html = await r.text();
        if (html !== live.dataset.last) {
          const focused = document.activeElement && live.contains(document.activeElement);
          if (focused) held = true; // not under the member's hands: when the focus leaves
          else {
            live.dataset.last = html;
            live.innerHTML = html;
          }
        }
      }
    } catch (e) { /* offline for a moment: the notices' reconnect reads it again */ }
    finally {
      busy = false;
      live.dataset.refreshed = String(Number(live.dataset.refreshed || 0) + 1);
      if (again && !document.hidden) refresh();
    }
  }
  // No polling: a notice of the lobby (proposals, tables) or of mine reads the lists again;
  // the members online are read again now and then, and when the page is shown again.
  document.addEventListener("klub:lobby", refresh);
  document.addEventListener("klub:notice", refresh);
  document.addEventListener("klub:unread", refresh);
  document.addEventListener("visibilitychange", () => { if (!document.hidden && again) refresh(); });
  live.addEventListener("focusout", () => { if (held) { held = false; setTimeout(refresh, 0); } });
  setInterval(refresh, 60000);
})();
