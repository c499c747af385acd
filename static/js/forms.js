/* Klub: a form with every game's settings (the lobby's proposal, the tournament's
   announcement) shows the chosen game's (Klub.syncGameSettings); loaded before lobby.js
   and tournament.js on their pages only. */
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
})();
