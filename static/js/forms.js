/* Klub: a form with every game's settings (the lobby's proposal, the tournament's
   announcement) shows the chosen game's (Klub.syncGameSettings); times in the member's own
   zone (app/zones.py). Loaded on the pages with such forms or times, before their script. */
"use strict";
(function () {
  const K = window.Klub;
  // A form with every game's settings (templates/_game_settings.html): the chosen game's
  // are shown; a setting that belongs to a value of another (house-rule options to their
  // variant) only with that value; a choice's hint for its value.
  K.syncGameSettings = function (form, game) {
    const valueOf = (name) => {
      const el = form.elements[name];
      return el && !el.disabled ? el.value : null;
    };
    for (const field of form.querySelectorAll(".game-setting[data-game]")) {
      let off = field.dataset.game !== game;
      if (!off && field.dataset.when) off = valueOf(field.dataset.when) !== field.dataset.whenValue;
      field.hidden = off;
      for (const input of field.querySelectorAll("select, input")) input.disabled = off;
      const select = field.querySelector("select");
      for (const hint of field.querySelectorAll(".choice-hint")) hint.hidden = !select || hint.dataset.value !== select.value;
    }
  };
  // An organizer's form (a tournament's, a league's): the chosen game's settings, and the
  // fields of some games or of a format (data-for: their codes; hands per round, place points).
  K.organizerForm = function (form) {
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
  };
  // Times in the browser's zone: a form's "tz" field carries it and .tz-name names it; an
  // input[data-at] gets its instant as local wall time; <time class="local-time"> shows its instant.
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const wall = (d) => new Date(d - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
  K.localTimes = (root) => {
    for (const el of root.querySelectorAll("time.local-time")) {
      const when = new Date(el.getAttribute("datetime"));
      if (!isNaN(when)) el.textContent = when.toLocaleString(K.lang === "en" ? "en-GB" : "sr-Latn-RS",
        { dateStyle: "medium", timeStyle: "short" });
    }
  };
  if (zone) {
    for (const el of document.querySelectorAll("input[name=tz]")) el.value = zone;
    for (const el of document.querySelectorAll(".tz-name")) el.textContent = zone;
    for (const el of document.querySelectorAll("input[data-at]")) el.value = wall(new Date(el.dataset.at));
  }
  K.localTimes(document);
})();
