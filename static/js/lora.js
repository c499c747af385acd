/* Klub: the Lora table — trick contracts, the layout of contract 7, the score sheet.
   Lórum shares it: its trick contracts and its Domino are Lora's, plus Kvart's
   chain, the Fast train and the bank. */
"use strict";
(function () {
  const K = window.Klub;
  K.games = K.games || {};
  const C = () => K.cards;
  const LAYOUT_SUITS = ["S", "H", "C", "D"];
  let daljeFor = -1;
  let sheetKey = "";

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

  /* Played cards, each with its player (Kvart, the Fast train). */
  function playedRow(ctl, plays, cls) {
    const row = K.el("span.layout-cards.played-row" + (cls ? "." + cls : ""));
    plays.forEach(([s, c]) => row.append(C().card(c, { small: true, cls: `by-${ctl.rel(s)}` })));
    return row;
  }

  /* Lórum's Kvart: the closed chains, the open one and the card it needs. */
  function kvart(ctl, deal) {
    const box = K.el("div.layout.kvart", { role: "group", "aria-label": "Kvart" });
    (deal.chains || []).slice(-3).forEach((ch) => box.append(K.el("div.layout-row.closed", null, playedRow(ctl, ch, "done"))));
    const open = K.el("div.layout-row.open-chain", null, K.el("span.row-label", { text: K.T("Chain") + ": " }),
      playedRow(ctl, deal.chain || []));
    box.append(open);
    const need = deal.next_card ? K.T("The chain needs {card}", { card: C().label(deal.next_card) }) : K.T("A new chain: any card");
    if (!deal.ended) box.append(K.el("p.layout-start.needs", { dataset: { needs: deal.next_card || "" }, text: need }));
    return box;
  }

  /* Lórum's 101: the total, the pile's last cards, the stock left. */
  function pile(ctl, deal) {
    const box = K.el("div.layout.pile", { role: "group", "aria-label": "101" });
    box.append(K.el("p.layout-start.total", null, K.T("Total") + ": ", K.el("b", { id: "pile-total", text: String(deal.total) }), " / 101"));
    const row = playedRow(ctl, deal.pile.slice(-8));
    if (deal.ended && row.lastChild) row.lastChild.classList.add("just"); // the card that reached 101
    box.append(K.el("div.layout-row", null, row));
    box.append(K.el("p.muted", { text: `${K.T("Stock")}: ${deal.stock_size}` }));
    return box;
  }

  /* Lórum's Fast train: the cards so far and the rank it needs next. */
  function train(ctl, deal) {
    const box = K.el("div.layout.train", { role: "group", "aria-label": K.T("Train") });
    const cars = deal.train || [];
    box.append(K.el("div.layout-row", null, K.el("span.row-label", { text: K.T("Train") + ": " }), playedRow(ctl, cars.slice(-10))));
    const rank = deal.next_rank;
    const need = rank ? K.T("The train needs a {rank} of any suit", { rank: rank === "T" ? "10" : rank }) : K.T("Any card starts the train");
    if (!deal.ended) box.append(K.el("p.layout-start.needs", { dataset: { needs: rank || "" }, text: need }));
    return box;
  }

  /* A bet as the table shows it: "kladim 2", kontra and rekontra. */
  function betText(bet, names) {
    if (!bet || !bet.word) return null;
    let text = bet.word === "ne kladim" ? K.T("no bet") : `${K.T("Bet")}: ${bet.word.slice(7)}`;
    if (bet.kontra_by !== null && bet.kontra_by !== undefined) text += ` · kontra (${names[bet.kontra_by]})`;
    if (bet.rekontra) text += " · rekontra";
    return text;
  }

  /* The bet prompt's unit and stakes (the view's bet_terms). */
  const BET_ASKS = {
    hearts: "How many hearts will you take? Exactly: {win}, otherwise {lose}; kontra doubles, rekontra doubles again",
    queens: "How many queens will you take? Exactly: {win}, otherwise {lose}; kontra doubles, rekontra doubles again",
    tricks: "How many tricks will you take? Exactly: {win}, otherwise {lose}; kontra doubles, rekontra doubles again",
    dalje: "How many times will you say dalje? Exactly: {win}, otherwise {lose}; kontra doubles, rekontra doubles again",
    trick: "Will you take trick {n}? Right: {win}, wrong: {lose}; kontra doubles, rekontra doubles again",
  };
  function betTerms(deal) {
    const t = deal.bet_terms;
    if (!t || !BET_ASKS[t.unit]) return null;
    return K.el("p.bet-terms", { text: K.T(BET_ASKS[t.unit], { win: `−${t.stake}`, lose: `+${t.stake}`, n: t.trick }) });
  }

  /* House rules' words: the contract its first player chooses (ugovor), a prediction
     (prognoza 0-8), in a blind deal the top card, turned without being seen; Libyan bets
     and their answers, and the dealer's card for the kitty. */
  function houseWords(ctl, ui, deal) {
    if (!deal.settings || !ctl.canAct()) return;
    const button = (w, label) => K.el("button.btn.word", { type: "button", dataset: { word: w }, onclick: () => ctl.act(w) }, label);
    const choose = ctl.legal.filter((w) => w.startsWith("ugovor "));
    const predict = ctl.legal.filter((w) => w.startsWith("prognoza "));
    const bets = ctl.legal.filter((w) => w.startsWith("kladim ") || w === "ne kladim");
    const answers = ctl.legal.filter((w) => ["kontra", "rekontra", "moze"].includes(w));
    const kitty = ctl.legal.filter((w) => w.startsWith("kitty "));
    const blind = deal.blind && ctl.legal.length === 1 && /^[789TJQKA][SDHC]$/.test(ctl.legal[0]) ? ctl.legal[0] : null;
    if (bets.length) {
      ui.controls.append(K.el("p.house-ask", { text: K.T("Your bet on this deal") }), betTerms(deal),
        K.el("div.words.house-words.bet-words", null, ...bets.map((w) => button(w, w === "ne kladim" ? K.T("no bet") : w.slice(7)))));
    } else if (answers.length) {
      const open = (deal.bets || []).map((b, s) => [b, s]).filter(([b]) => b && b.word && b.word !== "ne kladim");
      ui.controls.append(K.el("p.house-ask", { text: K.T("Answer the bet") }),
        K.el("div.words.house-words.bet-answers", null, ...answers.map((w) => button(w, K.T("word:" + w)))));
      if (open.length) ui.controls.append(K.el("p.bet-list", { text: open.map(([b, s]) => `${ctl.name(s)}: ${betText(b, ctl.names())}`).join(" · ") }));
    } else if (kitty.length) {
      ui.controls.append(K.el("p.house-ask", { text: K.T("Play for the kitty") }),
        K.el("div.words.house-words.kitty-words", null, ...kitty.map((w) => button(w, w === "kitty dalje" ? "dalje" : C().label(w.slice(6))))));
    } else if (choose.length) {
      ui.controls.append(K.el("p.house-ask", { text: K.T("Choose the contract of this deal") }),
        K.el("div.words.house-words", null, ...choose.map((w) => button(w, K.sheets.named(w.slice(7), deal.settings)))));
    } else if (predict.length) {
      ui.controls.append(K.el("p.house-ask", { text: K.T("How many tricks will you take?") }),
        K.el("div.words.house-words", null, ...predict.map((w) => button(w, w.slice(9)))));
    } else if (blind) {
      ui.controls.append(K.el("div.words.house-words", null, button(blind, K.T("Turn your top card"))));
    }
  }

  /* The kitty of a three-player table: face down (its size) until turned. */
  function kittyBox(deal) {
    const box = K.el("div.kitty", { role: "group", "aria-label": K.T("Kitty") }, K.el("span.row-label", { text: K.T("Kitty") + ": " }));
    if (deal.kitty) deal.kitty.forEach((c) => box.append(C().card(c, { small: true })));
    else box.append(C().backs(deal.kitty_size, String(deal.kitty_size)));
    return box;
  }

  /* The predictions said so far (prognoza), at each seat. */
  function prediction(deal, s) {
    const said = deal.predictions && deal.predictions[s];
    return said === null || said === undefined ? null : K.el("span.chip.prediction", { title: K.T("Prediction") }, `${K.T("Prediction")}: ${said}`);
  }

  /* -- why a deal ended: the view's deal_ends -- */

  const short = (c) => `${C().rankLabel(c)}${C().SYMBOL[c[1]]}`;
  const signed = (x) => (x > 0 ? `+${x}` : x < 0 ? `−${-x}` : "0");

  /* One reason as a sentence of the page's language. */
  function reasonText(r, names) {
    const name = (s) => names[s] || `#${s + 1}`;
    const amount = r.amount !== undefined && r.amount !== null ? ` (${signed(r.amount)})` : "";
    switch (r.code) {
      case "makk_king": case "king_of_hearts":
        return K.T("{name} took {card}", { name: name(r.seat), card: short(r.card) }) + amount;
      case "makk_last_trick":
        return K.T("{name} took the last trick", { name: name(r.seat) }) + amount;
      case "makk_opposite_jack":
        return K.T("{name} sits opposite {taker}, who took {card}", { name: name(r.seat), taker: name(r.taker), card: short(r.card) }) + amount;
      case "sto_jedan":
        return K.T("{name}'s {card} brought the pile to {total}", { name: name(r.seat), card: short(r.card), total: r.total }) + amount;
      case "out_first":
        return K.T("{name} was the first out of cards", { name: name(r.seat) });
      case "collected_all":
        return K.T("{name} took them all: each of the others pays him", { name: name(r.seat) });
      case "clean":
        return K.T("Clean, sharing the pot: {names}", { names: r.seats.map(name).join(", ") });
      case "nobody_clean":
        return K.T("Nobody stayed clean: the pot goes to the bank");
      case "void_kitty":
        return K.T("Void: {card} lay in the kitty; the deal is dealt again", { card: short(r.card) });
      case "void_no_pair":
        return K.T("Void: no two players took {n} tricks each; the deal is dealt again", { n: r.tricks });
      case "third_void":
        return K.T("The third void deal in a row: the dealer {name} gets {amount}", { name: name(r.seat), amount: signed(r.amount) });
      case "doubled":
        return K.T("{card} ended the deal with the first card's rank: everything is doubled", { card: short(r.card) });
      case "bet": {
        const said = r.word.slice(7);
        const got = said === "da" || said === "ne" ? (r.count ? K.T("won the trick") : K.T("did not win the trick")) : String(r.count);
        let text = K.T(r.came_true ? "{name} bet {bet}, got {count}: came true" : "{name} bet {bet}, got {count}: did not come true",
          { name: name(r.seat), bet: said, count: got }) + amount;
        if (r.kontra_by !== null && r.kontra_by !== undefined) {
          text += ` · ${K.T("kontra")} ${name(r.kontra_by)} (${signed(-r.amount)})`;
          if (r.rekontra) text += ` · ${K.T("rekontra")}`;
        }
        return text;
      }
      default:
        return r.code;
    }
  }

  /* An ended deal: number, contract, reasons, 101's pile, what each got. */
  function dealEndBox(ctl, end, names, heading) {
    const no = (end.slot ?? end.index) + 1;
    const title = typeof end.contract === "string" ? K.sheets.named(end.contract, (ctl && ctl.settings) || {})
      : K.sheets.contract(end.contract - 1);
    const box = K.el("div.deal-end", { dataset: { deal: String(end.index), contract: String(end.contract), void: end.void ? "1" : "" } });
    box.append(K.el(heading ? "h3" : "p.de-title", { text: `${heading ? heading + ": " : ""}${K.T("Deal {n}", { n: no })} · ${title}${end.void ? ` (${K.T("void")})` : ""}` }));
    if (end.pile) {
      const row = K.el("div.layout-row.de-pile");
      end.pile.slice(-8).forEach(([s, c], i, all) => row.append(C().card(c, { small: true, cls: i === all.length - 1 ? "just" : null })));
      box.append(row, K.el("p.de-total", null, K.T("Total") + ": ", K.el("b", { text: String(end.total) }), " / 101"));
    }
    if (end.reasons.length) {
      const list = K.el("ul.de-reasons");
      end.reasons.forEach((r) => list.append(K.el("li", { dataset: { code: r.code, seat: r.seat !== undefined ? String(r.seat) : null } }, reasonText(r, names))));
      box.append(list);
    }
    let pts = (end.transfers || end.points).map((x, s) => `${names[s]} ${signed(x)}`).join(" · ");
    if (end.bank) pts += ` · ${K.T("Bank")} ${signed(end.bank)}`;
    box.append(K.el("p.de-points", { text: pts }));
    return box;
  }

  /* The side panel: the last deal's end (and a void one's before it). */
  let lastEndKey = "";
  function paintDealEnds(ctl, ui, v, names) {
    const ends = v.deal_ends || [];
    const key = JSON.stringify([ends.map((e) => e.index), names]);
    if (key === lastEndKey) return;
    lastEndKey = key;
    K.clear(ui.lastDeal);
    ui.lastDeal.classList.add("deal-ends");
    ui.lastDeal.hidden = !ends.length;
    ends.forEach((e, i) => ui.lastDeal.append(dealEndBox(ctl, e, names, i === 0 ? K.T("The previous deal") : null)));
  }

  /* The game's own parts: Lora's are the defaults. */
  const LORA = {
    // The Club's contracts are numbers (7: the layout); house rules name them by code.
    isTrick: (contract) => contract !== 7 && contract !== "lora",
    isLayout: (contract) => contract === 7 || contract === "lora",
    penalty: new Set([3, 4, 5, 6, "dame", "herc", "zandar", "kralj", "babe", "kralj_zadnji"]),
    title: (deal) => (deal.settings ? K.sheets.named(deal.contract, deal.settings) : K.sheets.contract(deal.index)),
    sheet: (names, result, current, seat, view) => K.sheets.points(names, result, current, seat, K.sheets.plan(view)),
    dealPoints: (d) => d.points,
    signedGood: false,
  };
  const LORUM = {
    isTrick: (contract) => [1, 2, 3, 6, "hearts", "obers", "no_tricks", "hairy_monkey", "makk"].includes(contract),
    isLayout: (contract) => contract === 7 || contract === "domino",
    penalty: new Set([1, 2, 6, "hearts", "obers", "hairy_monkey", "makk"]),
    title: (deal) => (typeof deal.contract === "string" ? K.sheets.named(deal.contract, null) : deal.contract_title),
    sheet: (names, result, current, seat, view) => K.sheets.chips(names, result, current, seat, view),
    dealPoints: (d) => d.transfers,
    signedGood: true,
    bank: true,
  };

  function makeGame(G) {
  return {
    nSeats: 4,

    lastTrick(v) {
      const t = v && v.deal && v.deal.tricks;
      return t && t.length ? { plays: t[t.length - 1].cards, winner: t[t.length - 1].winner } : null;
    },

    transition(prev, ev, ctl) {
      const a = ev.action;
      const pd = prev && prev.deal;
      if (!a || !pd || a.word === "dalje") return null;
      const dealChanged = ev.view.deal && ev.view.deal.index !== pd.index;
      if (G.isTrick(pd.contract) && pd.trick && pd.trick.length === ctl.n - 1) {
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
      const leader = deal.trick && deal.trick.length ? deal.trick[0][0]
        : deal.tricks && deal.tricks.length ? deal.turn : deal.first; // before the first card: bets, predictions
      if (leader === s && G.isTrick(deal.contract) && !deal.ended) box.append(K.el("span.chip.leads", { text: K.T("leads") }));
      if (s !== ctl.seat || deal.blind) box.append(C().backs(deal.hand_sizes[s], `${deal.hand_sizes[s]}`));
      if (deal.trick_counts) {
        box.append(K.el("span.tricks-count", { title: K.T("tricks") }, `${K.T("tricks")}: ${deal.trick_counts[s]}`));
      }
      const said = prediction(deal, s);
      if (said) box.append(said);
      const bet = betText(deal.bets && deal.bets[s], ctl.names());
      if (bet) box.append(K.el("span.chip.bet", { title: K.T("Bet"), text: bet }));
      if (deal.passes && deal.passes[s]) box.append(K.el("span.tricks-count.passes", { text: `dalje: ${deal.passes[s]}` }));
      if (deal.penalty_cards && G.penalty.has(deal.contract) && deal.penalty_cards[s].length) {
        const pen = K.el("span.penalty", { role: "group", "aria-label": K.T("Penalty cards") });
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
      const info = [];
      if (deal) {
        info.push(
          K.el("span.contract-name", { text: G.title(deal) }), K.sheets.hint(deal.contract),
          // a void deal dealt again keeps its number (Libyan Lora): the schedule's slot
          K.el("span.deal-no", { text: K.T("Deal {n} of {m}", { n: (deal.slot ?? deal.index) + 1, m: v.deals_total || 28 }) }),
          K.el("span.dealer-line", { text: `${K.T("dealer")}: ${names[deal.dealer]}` }));
      }
      K.sheets.linkRules(deal ? deal.contract : null);
      if (G.bank) {
        const bank = deal && !v.finished ? deal.bank : v.result.bank;
        info.push(K.el("span.bank", { id: "bank", title: K.T("Bank") }, `${K.T("Bank")}: `, K.el("b", { text: String(bank) })));
      }
      K.replaceIfChanged(ui.info, info);
      // the middle of the table (no listeners)
      const center = ui.center.cloneNode(false);
      const p = ctl.pausing;
      if (v.finished && !p) {
        const res = v.result;
        const list = K.el("ul.final-places");
        const order = Array.from({ length: ctl.n }, (_, s) => s).sort((a, b) => res.places[a] - res.places[b] || a - b);
        order.forEach((s) => list.append(K.el("li", null, `${res.places[s]}. ${names[s]} `, K.el("b", { text: String(res.totals[s]) }))));
        center.append(K.el("div.partie-over", null, K.el("h2", { text: K.T("The partie is over") }), list,
          K.el("a.btn", { href: `/archive/${ctl.partie}`, text: K.T("Score sheet") })));
      } else if (p && p.plays) {
        center.append(ctl.trickArea(p.plays, p.winner));
      } else if (p && p.layoutOf) {
        const d = JSON.parse(JSON.stringify(p.layoutOf));
        const last = [p.lastCard.seat, p.lastCard.word];
        d.ended = true;
        if (G.isLayout(d.contract)) {
          const s = ["S", "D", "H", "C"].indexOf(p.lastCard.word[1]);
          if (!d.start_rank) d.start_rank = p.lastCard.word[0];
          d.rows[s] = d.rows[s].concat([p.lastCard.word]);
          center.append(layout(ctl, d));
        } else if (d.train) {
          d.train = d.train.concat([last]);
          center.append(train(ctl, d));
        } else if (d.chain) {
          d.chain = d.chain.concat([last]);
          center.append(kvart(ctl, d));
        } else if (d.pile) { // 101: the pile stays in view with the card that reached 101
          d.pile = d.pile.concat([last]);
          const end = ((p.after || v).deal_ends || []).find((e) => e.index === d.index);
          if (end) d.total = end.total;
          center.append(pile(ctl, d));
        }
      } else if (deal && G.isLayout(deal.contract)) {
        center.append(layout(ctl, deal));
      } else if (deal && deal.train) {
        center.append(train(ctl, deal));
      } else if (deal && deal.chain) {
        center.append(kvart(ctl, deal));
      } else if (deal && deal.pile) {
        center.append(pile(ctl, deal));
      } else if (deal) {
        center.append(ctl.trickOnTable(deal.trick));
      }
      if (deal && deal.kitty_size !== undefined && !v.finished && !(deal.kitty && !deal.kitty.length)) center.append(kittyBox(deal));
      if (p && p.dealEnded) {
        // the ended deal is drawn until its end has been seen; each deal that ended with
        // this move (a void one dealt again at once too) says why, under its own name
        const ends = (p.after || v).deal_ends || [];
        if (ends.length) {
          center.append(K.el("div.deal-over", null, K.el("b", { text: K.T("The deal is over") }),
            ...ends.map((e) => dealEndBox(ctl, e, names, null))));
        }
      }
      K.replaceIfChanged(ui.center, [...center.childNodes]);
      paintDealEnds(ctl, ui, v, names);
      // my hand
      K.clear(ui.controls);
      if (ctl.seat !== null && deal && !v.finished) {
        const legal = ctl.canAct() ? new Set(ctl.legal.filter((w) => w !== "dalje")) : new Set();
        ctl.drawHand(deal.hand || [], legal, (card) => ctl.act(card));
        houseWords(ctl, ui, deal);
        const only = ctl.legal.length === 1 ? ctl.legal[0] : null;
        if ((only === "dalje" || only === "kitty dalje") && !p) {
          ui.controls.append(K.el("p.dalje-note", { text: K.T(only === "dalje" ? "You have no card to play: dalje" : "The kitty has no card to play: dalje") }));
          if (daljeFor !== ctl.version && ctl.canAct()) {
            daljeFor = ctl.version;
            const at = ctl.version;
            setTimeout(() => { if (ctl.version === at) ctl.act(only); }, K.game.timings.dalje_delay);
          }
        }
      } else K.clear(ui.hand);
      // the score sheet beside the table
      const key = JSON.stringify([v.game, v.result.totals, v.result.deals.length, deal && deal.index, v.finished, names]);
      if (key !== sheetKey) {
        sheetKey = key;
        // the 28-row sheet, and beside it the deals played so far, the last first
        K.sheets.side(ui, K.T("Score sheet"), [
          { key: "sheet", label: K.T("Score sheet"), body: G.sheet(names, v.result, v.finished ? null : deal && deal.index, ctl.seat, v) },
          { key: "deals", label: K.T("Deals"), body: K.sheets.deals(names, v.result, G.dealPoints, K.sheets.plan(v)) }]);
        const cur = ui.sheet.querySelector("tr.current");
        if (cur && cur.scrollIntoView && ui.sheet.scrollHeight > ui.sheet.clientHeight) {
          ui.sheet.scrollTop = Math.max(0, cur.offsetTop - ui.sheet.clientHeight / 2);
        }
      }
    },

    /* The archive: the final sheet, and what the replay draws of a step. */
    finalSheet: (players, v) => G.sheet(players, v.result, v.finished ? null : v.deal && v.deal.index, null, v),
    replay: {
      title: (rec, t) => (rec.settings && Object.keys(rec.settings).length
        ? `${K.T("Deal {n}", { n: rec.deal + 1 })} · ${K.sheets.named(t.contract, rec.settings)}`
        : `${K.T("Deal {n} of {m}", { n: rec.deal + 1, m: 28 })} · ${K.sheets.contract(rec.deal)}`),
      pointsAtEnd: true,
      /* The replayed deal's end (the replay's deal_end): the table's own deal-end box. */
      dealEnd: (end, players, settings) => dealEndBox({ settings: settings || {} }, end, players, null),
      /* Libyan Lora: the kitty (face down until turned) and the bets said. */
      extra(t, players) {
        const out = [];
        if (t.kitty_size !== undefined && t.kitty_size !== null) out.push(kittyBox(t));
        const said = (t.bets || []).map((b, s) => [betText(b, players), s]).filter(([text]) => text);
        if (said.length) out.push(K.el("p.bet-list", { text: said.map(([text, s]) => `${players[s]}: ${text}`).join(" · ") }));
        return out;
      },
      /* Lórum's chains and train (with the card just played); null: a trick. */
      middle(t, action) {
        if (!t.chain && !t.train) return null;
        const rows = t.train ? [t.train] : (t.chains || []).concat(t.chain.length ? [t.chain] : []);
        const out = rows.map((row) => {
          const r = K.el("span.layout-cards");
          row.forEach(([s, c]) => r.append(C().card(c, { small: true, cls: action && s === action[0] && c === action[1] ? "just" : null })));
          return r;
        });
        if (t.bank !== undefined && t.bank !== null) out.push(K.el("span.bank", { text: ` ${K.T("Bank")}: ${t.bank}` }));
        return out;
      },
      /* Lora's layout, Lórum's Domino: the four suit rows as the table draws them, the card
         just played marked; null for the other contracts. */
      layout(t, action) {
        if (t.contract !== 7 && t.contract !== "lora" && t.contract !== "domino") return null;
        const box = layout(null, t);
        const just = action && box.querySelector(`.card[data-card="${action[1]}"]`);
        if (just) just.classList.add("just");
        return box;
      },
    },
  };
  }

  K.games.lora = makeGame(LORA);
  K.games.lorum = makeGame(LORUM);
})();
