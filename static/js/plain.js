/* Klub: the plain table — what draws a game that has no table script of its own (its
   descriptor names none): the cards of my hand (``view.hand``), the trick on the table
   (``view.trick``, [[seat, card], ...]), every other legal word as a button, and the
   generic score sheet of the result (``deals[].points``, ``totals``, ``places``) unless the
   game's sheet script draws its own (``Klub.sheets.sheet``). A game
   whose views have that shape plays at the Club before it draws its own table. */
"use strict";
(function () {
  const K = window.Klub;
  K.games = K.games || {};
  const code = K.game && K.game.code;
  if (!code || K.games[code]) return;
  const C = () => K.cards;
  const CARD_RE = /^[789TJQKA][SDHC]$/;
  let sheetKey = "";
  // The game's own sheet (its descriptor's "sheet" script sets K.sheets.sheet), else the generic one.
  const sheet = (...args) => (K.sheets.sheet || K.sheets.totals)(...args);

  const dealTitle = (k, total) => `${K.game.deal_noun || K.T("Deal")} ${k + 1}` + (total ? ` / ${total}` : "");

  K.games[code] = {
    nSeats: K.game.seats,

    /* The last card of a trick: the whole trick stays a moment before the next one. */
    transition(prev, ev, ctl) {
      const a = ev.action;
      const trick = prev && prev.trick;
      if (!a || !CARD_RE.test(a.word) || !trick || trick.length !== ctl.n - 1) return null;
      const dealChanged = ev.view.deal_index !== prev.deal_index;
      return { plays: trick.concat([[a.seat, a.word]]), winner: null, dealEnded: dealChanged, factor: dealChanged ? 1.6 : 1 };
    },

    seatExtras(ctl, s) {
      const sizes = ctl.view && ctl.view.hand_sizes;
      if (!sizes || s === ctl.seat || !sizes[s]) return null;
      return K.el("div.seat-extra", null, C().backs(sizes[s], String(sizes[s])));
    },

    render(ctl, ui) {
      const v = ctl.view;
      const names = ctl.names();
      K.replaceIfChanged(ui.info, [K.el("span.deal-no", { text: dealTitle(v.deal_index) })]);
      const center = ui.center.cloneNode(false);
      const p = ctl.pausing;
      const res = v.result || {};
      if (v.finished && !p) {
        const list = K.el("ul.final-places");
        const places = res.places || [];
        const order = names.map((_, s) => s).sort((a, b) => (places[a] || 0) - (places[b] || 0) || a - b);
        order.forEach((s) => list.append(K.el("li", null, `${places[s] || "–"}. ${names[s]} `,
          K.el("b", { text: String((res.totals || [])[s] ?? "") }))));
        center.append(K.el("div.partie-over", null, K.el("h2", { text: K.T("The partie is over") }), list,
          K.el("a.btn", { href: `/archive/${ctl.partie}`, text: K.T("Score sheet") })));
      } else if (p && p.plays) center.append(ctl.trickArea(p.plays, p.winner));
      else center.append(ctl.trickOnTable(v.trick || []));
      K.replaceIfChanged(ui.center, [...center.childNodes]);
      K.clear(ui.controls);
      if (ctl.seat !== null && !v.finished) {
        const legal = ctl.canAct() ? ctl.legal : [];
        ctl.drawHand(v.hand || [], new Set(legal.filter((w) => CARD_RE.test(w))), (card) => ctl.act(card));
        const words = legal.filter((w) => !CARD_RE.test(w));
        if (words.length) {
          ui.controls.append(K.el("div.words", null, ...words.map((w) => K.el("button.btn.word",
            { type: "button", dataset: { word: w }, onclick: () => ctl.act(w) }, ctl.wordText(w)))));
        }
      } else K.clear(ui.hand);
      const key = JSON.stringify([res.totals, (res.deals || []).length, v.finished, names]);
      if (key !== sheetKey) {
        sheetKey = key;
        K.sheets.side(ui, K.T("Score sheet"), [
          { key: "sheet", label: K.T("Score sheet"), body: sheet(names, res, v.finished ? null : v.deal_index, ctl.seat) }]);
      }
    },

    finalSheet: (players, v) => sheet(players, v.result, null, null),
    replay: {
      title: (rec) => dealTitle(rec.deal, rec.deals),
      middle: () => null,
    },
  };
})();
