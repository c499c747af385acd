/* Klub: the Lora table — trick contracts, the layout of contract 7, the score sheet. */
"use strict";
(function () {
  const K = window.Klub;
  K.games = K.games || {};
  const C = () => K.cards;
  const PENALTY_CONTRACTS = new Set([3, 4, 5, 6]);
  const LAYOUT_SUITS = ["S", "H", "C", "D"];
  let daljeFor = -1;
  let sheetKey = "";

  function trickArea(ctl, plays, winner) {
    const area = K.el("div.trick", { role: "group", "aria-label": K.T("tricks") });
    for (const [seat, card] of plays) {
      const e = C().card(card, { cls: `pos-${ctl.rel(seat)}` + (seat === winner ? " winner" : "") });
      area.append(e);
    }
    if (winner !== undefined && winner !== null) {
      area.append(K.el("p.trick-note", { text: K.T("The trick goes to {name}", { name: ctl.name(winner) }) }));
    }
    return area;
  }

  function layout(ctl, deal) {
    const box = K.el("div.layout", { role: "group", "aria-label": K.T("Layout") });
    const start = deal.start_rank;
    box.append(K.el("p.layout-start", null, K.T("Start card") + ": ",
      K.el("b", { text: start ? (start === "T" ? "10" : start) : "—" })));
    const bySuit = {};
    for (const row of deal.rows) if (row.length) bySuit[row[0][1]] = row;
    for (const s of LAYOUT_SUITS) {
      const row = bySuit[s] || [];
      const line = K.el("div.layout-row", { dataset: { suit: s } }, C().suitSpan(s));
      const cards = K.el("span.layout-cards");
      row.forEach((c) => cards.append(C().card(c, { small: true })));
      line.append(cards);
      box.append(line);
    }
    return box;
  }

  K.games.lora = {
    nSeats: 4,

    transition(prev, ev, ctl) {
      const a = ev.action;
      const pd = prev && prev.deal;
      if (!a || !pd || a.word === "dalje") return null;
      const dealChanged = ev.view.deal && ev.view.deal.index !== pd.index;
      if (pd.contract !== 7 && pd.trick && pd.trick.length === 3) {
        const plays = pd.trick.concat([[a.seat, a.word]]);
        return { plays, winner: C().trickWinner(plays, null), dealEnded: dealChanged, factor: dealChanged ? 1.6 : 1 };
      }
      if (dealChanged) return { dealEnded: true, factor: 1.6, layoutOf: pd, lastCard: a };
      return null;
    },

    seatExtras(ctl, s) {
      const deal = ctl.view && ctl.view.deal;
      if (!deal) return null;
      const box = K.el("div.seat-extra");
      if (deal.dealer === s) box.append(K.el("span.chip.dealer", { title: K.T("dealer"), text: "D" }));
      // who leads the trick on the table (or the next one)
      const leader = deal.trick && deal.trick.length ? deal.trick[0][0] : deal.turn;
      if (leader === s && deal.contract !== 7 && !deal.ended) box.append(K.el("span.chip.leads", { text: K.T("leads") }));
      if (s !== ctl.seat) box.append(C().backs(deal.hand_sizes[s], `${deal.hand_sizes[s]}`));
      if (deal.trick_counts) {
        box.append(K.el("span.tricks-count", { title: K.T("tricks") }, `${K.T("tricks")}: ${deal.trick_counts[s]}`));
      }
      if (deal.penalty_cards && PENALTY_CONTRACTS.has(deal.contract) && deal.penalty_cards[s].length) {
        const pen = K.el("span.penalty", { "aria-label": K.T("Penalty cards") });
        deal.penalty_cards[s].forEach((c) => pen.append(C().card(c, { small: true, cls: "mini" })));
        box.append(pen);
      }
      return box;
    },

    render(ctl, ui) {
      const v = ctl.view;
      const deal = v.deal;
      const names = ctl.names();
      // info: contract, deal number, dealer
      K.clear(ui.info);
      if (deal) {
        ui.info.append(
          K.el("span.contract-name", { text: K.sheets.loraContract(deal.index) }),
          K.el("span.deal-no", { text: K.T("Deal {n} of 28", { n: deal.index + 1 }) }),
          K.el("span.dealer-line", { text: `${K.T("dealer")}: ${names[deal.dealer]}` }));
      }
      // the middle of the table
      K.clear(ui.center);
      const p = ctl.pausing;
      if (v.finished && !p) {
        const res = v.score;
        const list = K.el("ul.final-places");
        const order = [0, 1, 2, 3].sort((a, b) => res.places[a] - res.places[b] || a - b);
        order.forEach((s) => list.append(K.el("li", null, `${res.places[s]}. ${names[s]} `, K.el("b", { text: String(res.totals[s]) }))));
        ui.center.append(K.el("div.partie-over", null, K.el("h2", { text: K.T("The partie is over") }), list,
          K.el("a.btn", { href: `/archive/${ctl.partie}`, text: K.T("Score sheet") })));
      } else if (p && p.plays) {
        ui.center.append(trickArea(ctl, p.plays, p.winner));
      } else if (p && p.layoutOf) {
        const d = JSON.parse(JSON.stringify(p.layoutOf));
        const s = ["S", "D", "H", "C"].indexOf(p.lastCard.word[1]);
        if (!d.start_rank) d.start_rank = p.lastCard.word[0];
        d.rows[s] = d.rows[s].concat([p.lastCard.word]);
        ui.center.append(layout(ctl, d));
      } else if (deal && deal.contract === 7) {
        ui.center.append(layout(ctl, deal));
      } else if (deal) {
        ui.center.append(trickArea(ctl, deal.trick || [], null));
      }
      if (p && p.dealEnded) {
        const last = v.score.deals[v.score.deals.length - 1];
        if (last) {
          const pts = last.points.map((x, s) => `${names[s]} ${x > 0 ? "+" : ""}${x}`).join(" · ");
          ui.center.append(K.el("p.deal-over", null, K.el("b", { text: K.T("The deal is over") }), " ", pts));
        }
      }
      // my hand
      K.clear(ui.controls);
      if (ctl.seat !== null && deal && !v.finished) {
        const legal = ctl.canAct() ? new Set(ctl.legal.filter((w) => w !== "dalje")) : new Set();
        ctl.drawHand(deal.hand || [], legal, (card) => ctl.act(card));
        if (ctl.legal.length === 1 && ctl.legal[0] === "dalje" && !p) {
          ui.controls.append(K.el("p.dalje-note", { text: K.T("You have no card to play: dalje") }));
          if (daljeFor !== ctl.version && ctl.canAct()) {
            daljeFor = ctl.version;
            const at = ctl.version;
            setTimeout(() => { if (ctl.version === at) ctl.act("dalje"); }, ctl.daljeDelay);
          }
        }
      } else K.clear(ui.hand);
      // the score sheet beside the table
      const key = JSON.stringify([v.score.totals, v.score.deals.length, deal && deal.index, v.finished, names]);
      if (key !== sheetKey) {
        sheetKey = key;
        K.clear(ui.sheet).append(K.sheets.lora(names, v.score, v.finished ? null : deal && deal.index, ctl.seat));
        const cur = ui.sheet.querySelector("tr.current");
        if (cur && cur.scrollIntoView && ui.sheet.scrollHeight > ui.sheet.clientHeight) {
          ui.sheet.scrollTop = Math.max(0, cur.offsetTop - ui.sheet.clientHeight / 2);
        }
      }
    },
  };
})();
