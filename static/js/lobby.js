/* Klub: the lobby — the propose form follows the chosen game (its settings, its number of
   seats); the lists refresh by themselves. */
"use strict";
(function () {
  const form = document.getElementById("propose-form");
  if (form) {
    const sync = () => {
      const choice = form.querySelector("input[name=game]:checked");
      let others = Number(choice.dataset.seats) - 1;
      // A game's settings; a setting that belongs to a value of another (house-rule
      // options to their variant) only with that value; a choice's hint for its value.
      const valueOf = (name) => {
        const el = form.elements[name];
        return el && !el.disabled ? el.value : null;
      };
      for (const field of form.querySelectorAll(".game-setting[data-game]")) {
        let off = field.dataset.game !== choice.value;
        if (!off && field.dataset.when) off = valueOf(field.dataset.when) !== field.dataset.whenValue;
        field.hidden = off;
        for (const input of field.querySelectorAll("select, input")) input.disabled = off;
        const select = field.querySelector("select");
        for (const hint of field.querySelectorAll(".choice-hint")) hint.hidden = !select || hint.dataset.value !== select.value;
      }
      // A setting that is the number of seats (Libyan Lora's igraca), when it applies.
      for (const field of form.querySelectorAll(".game-setting[data-seats-field]")) {
        const select = field.querySelector("select");
        if (!field.hidden && select && select.value) others = Number(select.value) - 1;
      }
      const exhibition = form.querySelector("input[name=exhibition]").checked;
      for (const line of form.querySelectorAll(".seat-line[data-seat]")) {
        line.hidden = Number(line.dataset.seat) > others;
        const kind = exhibition ? "bot" : line.querySelector(".seat-kind").value;
        line.classList.remove("kind-bot", "kind-member", "kind-open");
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
  async function refresh() {
    if (busy || document.hidden) return;
    busy = true;
    try {
      const r = await fetch(live.dataset.src, { headers: { Accept: "text/html" } });
      if (r.status === 401) { location.href = "/login?next=/lobby"; return; }
      if (r.ok) {
        const html = await r.text();
        if (html !== live.dataset.last) {
          live.dataset.last = html;
          const focused = document.activeElement && live.contains(document.activeElement);
          if (!focused) live.innerHTML = html;
        }
      }
    } catch (e) { /* offline for a moment: try again later */ }
    finally { busy = false; }
  }
  setInterval(refresh, 3000);
})();
