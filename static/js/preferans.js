/* Klub: the preferans table — licitacija, talon and škart, the contract, praćenje,
   kontra, play, ponuda, odlazak u bulu, otpis; the papir beside the table. */
"use strict";
(function () {
  const K = window.Klub;
  K.games = K.games || {};
  const C = () => K.cards;
  const SUITS = "SDHC";
  const CARD_RE = /^[789TJQKA][SDHC]$/;
  const SIDE_WORDS = ["otpis", "preuzimam pad", "vracam pad"];
  const ANSWERS = ["prihvatam", "odbijam"];
  const OFFERS = ["nosim sve", "nemam pad", "nudim 2", "nudim 3", "nudim 4"];
  // contracts in the order of their values (pik 2 ... sans 7), then the other words
  const WORD_ORDER = ["2", "3", "4", "5", "6", "7", "moje", "igra", "pik", "karo", "herc", "tref", "betl", "sans",
    "slabija", "pratim", "sam", "zovem", "kontra", "rekontra", "moze", "ne pratim", "dalje"];
  const SUIT_OF = { pik: "S", karo: "D", herc: "H", tref: "C" };
  const PASSIVE = new Set(["dalje", "ne pratim", "moze", "slabija"]);
  let sheetKey = "";
  let lastDealKey = null;

  const wordText = (w) => {
    if (/^\d$/.test(w)) return w;
    if (w.startsWith("nudim ")) return `${K.T("word:nudim")} ${w.slice(6)}`;
    if (w === "skart") return K.T("word:skart");
    return K.T("word:" + w);
  };
  const trumpLetter = (contract) => (contract && contract.trump !== null && contract.trump !== undefined ? SUITS[contract.trump] : null);

  function contractText(c) {
    if (!c) return "";
    const name = K.T("word:" + c.name);
    return (c.declared ? K.T("word:igra") + " " : "") + name;
  }

  function contractLabel(c) {
    const box = K.el("span.contract-name");
    const t = trumpLetter(c);
    if (t) box.append(C().suitSpan(t), " ");
    box.append(contractText(c));
    return box;
  }

  /* How many cards a seat holds now (for the face-down fans of the others). */
  function handSize(h, s) {
    let n = 10;
    if (h.declarer === s && (h.phase === "talon")) n = 12;
    for (const t of h.tricks || []) for (const [seat] of t.cards) if (seat === s) n--;
    for (const [seat] of h.trick || []) if (seat === s) n--;
    return n;
  }

  function lastWord(h, s) {
    let w = null;
    for (const [seat, word] of h.words || []) if (seat === s && !CARD_RE.test(word)) w = word;
    return w;
  }

  /* What each word of the bidding box means (issue 39): its button's title and the legend
     under the box, the descriptor's "hint:<word>" texts (app/games/preferans/texts.py). */
  function wordHint(w) {
    const id = "hint:" + w;
    return K.T(id) === id ? null : K.T(id);
  }
  /* The legend of the words on the buttons: each with what it means. */
  function wordLegend(words) {
    const list = K.el("dl.bid-legend-list");
    for (const w of words) {
      const hint = wordHint(w);
      if (hint) list.append(K.el("dt", { dataset: { word: w } }, SUIT_OF[w] ? C().suitSpan(SUIT_OF[w]) : null, wordText(w)), K.el("dd", { text: hint }));
    }
    return list.childNodes.length ? K.el("details.bid-legend", null, K.el("summary", { text: K.T("What the words mean") }), list) : null;
  }

  function wordButton(ctl, w, cls) {
    return K.el("button.word" + (PASSIVE.has(w) ? ".pass" : "") + (cls ? "." + cls : ""),
      { type: "button", dataset: { word: w }, title: wordHint(w), disabled: ctl.canAct() ? null : true, onclick: () => ctl.act(w) },
      SUIT_OF[w] ? C().suitSpan(SUIT_OF[w]) : null, wordText(w));
  }

  /* 5: how a seat takes part in the hand once the follow round is over (section 8), shown
     at his seat for the rest of the hand. */
  function followRole(h, s, names) {
    const f = h.follow;
    if (!f || !f.outcome) return null;
    if (s === h.declarer) return f.rekontra ? { role: "rekontra", text: K.T("rekontra") } : null;
    if (f.kontra_by === s) return { role: "kontra", text: K.T("kontra"), title: K.T("Gave kontra: carries the responsibility") };
    if (f.caller === s) return { role: "caller", text: K.T("calls {name}", { name: names[f.called] }) };
    if (f.called === s) return { role: "called", text: K.T("{name} called him: he must play", { name: names[f.caller] }) };
    if (f.single === s) return { role: "single", text: K.T("plays alone") };
    const out = h.in_play ? !h.in_play.includes(s) : (f.words.find(([seat]) => seat === s) || [])[1] === "ne pratim";
    return out ? { role: "out", text: K.T("does not follow") } : { role: "follows", text: K.T("follows") };
  }

  /* A hand's papir line: why the hand ended, and each of its numbers named. */
  function endReason(line) {
    switch (line.end) {
      case "all pass": return K.T("All passed: a refe for everyone");
      case "prolaz": return K.T("Nobody followed: the declarer passes as if he took all 10 tricks");
      case "not played": return K.T("Pik with the talon without a kontra is not played");
      case "ponuda": return K.T("Offer accepted: {word}", { word: wordText(line.ponuda) });
      case "played":
        if (/betl/.test(line.contract)) return line.passed ? K.T("The declarer took no trick") : K.T("The declarer took a trick");
        return line.passed ? K.T("All 10 tricks were played") : K.T("The followers reached 5 tricks");
      default: return "";
    }
  }

  function lineText(ctl, line) {
    if (!line) return "";
    if (line.kind === "otpis") return K.sheets.otpisTitle(line);
    const why = endReason(line);
    if (line.declarer === undefined || line.declarer === null) return why || `${K.T("All passed")}: ${K.T("refe")}`;
    const d = line.declarer;
    const parts = [why, `${ctl.name(d)}: ${line.contract} ${line.passed ? "✓" : "✗"}`];
    if (line.tricks) {
      const inPlay = line.in_play || [0, 1, 2];
      const counts = [`${ctl.name(d)} (${K.T("declarer")}) ${line.tricks[d]}`];
      [1, 2].map((k) => (d + k) % 3).forEach((s) => counts.push(inPlay.includes(s)
        ? `${ctl.name(s)} ${line.tricks[s]}` : `${ctl.name(s)}: ${K.T("did not follow")}`));
      parts.push(`${K.T("tricks")}: ${counts.join(" · ")}`);
    }
    (line.falls || []).forEach((s) => parts.push(K.T("{name} fell", { name: ctl.name(s) })));
    return parts.filter(Boolean).join(". ");
  }

  const myCards = (h) => h.cards || h.hand || [];

  /* The previous hand face up: fetched once per ended hand (the view names only its index). */
  function drawLastDeal(ctl, ui, v) {
    const k = v.last_deal_index;
    if (k === null || k === undefined) { ui.lastDeal.hidden = true; return; }
    if (lastDealKey === k) return;
    lastDealKey = k;
    fetch(`/ui/api/parties/${ctl.partie}/shown/${k}`).then((r) => (r.ok ? r.json() : null)).then((ld) => {
      if (ld && lastDealKey === k) { ctl.shownDeal = ld; paintLastDeal(ctl, ui, v, ld); }
    }).catch(() => { lastDealKey = null; });
  }

  function paintLastDeal(ctl, ui, v, ld) {
    K.clear(ui.lastDeal);
    ui.lastDeal.hidden = false;
    const lines = (v.papir && v.papir.lines) || [];
    const line = [...lines].reverse().find((l) => l.deal === ld.deal_index);
    ui.lastDeal.append(K.el("h3", { text: `${K.T("The previous hand")} (${K.T("Hand {n}", { n: ld.deal_index + 1 })})` }));
    if (line) ui.lastDeal.append(K.el("p.ld-line", { text: lineText(ctl, line) }));
    ld.hands.forEach((cards, s) => {
      const row = K.el("div.ld-row", { dataset: { seat: String(s) } }, K.el("span.ld-name", { text: ctl.name(s) }));
      const cs = K.el("span.ld-cards");
      C().sortHand(cards).forEach((c) => cs.append(C().card(c, { small: true })));
      row.append(cs);
      ui.lastDeal.append(row);
    });
    const tal = K.el("span.ld-cards");
    ld.talon.forEach((c) => tal.append(C().card(c, { small: true })));
    const row = K.el("div.ld-row", null, K.el("span.ld-name", { text: K.T("Talon") }), tal);
    if (ld.skart && ld.skart.length) {
      const sk = K.el("span.ld-cards");
      ld.skart.forEach((c) => sk.append(C().card(c, { small: true })));
      row.append(K.el("span.ld-name", { text: K.T("Škart") }), sk);
    }
    ui.lastDeal.append(row);
  }

  const num = (x) => (x < 0 ? `−${-x}` : String(x));
  const signed = (x) => (x > 0 ? `+${x}` : num(x));

  /* What accepting an otpis or a fall offer writes on the papir (the view's
     offer.if_accepted, computed by the engine): each seat's bule, the supe moved, the
     results after it, and the places when it ends the partie. */
  function ifAccepted(ctl, o, names) {
    const c = o.if_accepted;
    if (!c) return null;
    const mine = ctl.seat !== null && o.responders.includes(ctl.seat) && !o.accepted.includes(ctl.seat);
    const box = K.el("div.if-accepted", { dataset: { word: o.word } },
      K.el("p.ia-title", null, K.el("b", { text: mine ? K.T("If you accept:") : K.T("If it is accepted:") })));
    const list = K.el("ul.ia-list");
    [0, 1, 2].forEach((s) => {
      if (!c.bule[s]) return;
      list.append(K.el("li.ia-bule", { dataset: { seat: String(s) }, text: K.T("{name}: bule {before} → {after} ({change})",
        { name: names[s], before: num(c.bule_after[s] - c.bule[s]), after: num(c.bule_after[s]), change: signed(c.bule[s]) }) }));
    });
    c.supe.forEach((row, i) => row.forEach((x, j) => {
      if (x) list.append(K.el("li.ia-supe", { dataset: { seat: String(i) }, text: K.T("{name} → {other}: supe {change}",
        { name: names[i], other: names[j], change: signed(x) }) }));
    }));
    box.append(list);
    const res = [0, 1, 2].map((s) => `${names[s]} ${num(c.results[s])}`).join(" · ");
    if (c.ends && c.places) {
      const order = [0, 1, 2].sort((a, b) => c.places[a] - c.places[b]);
      box.append(K.el("p.ia-places", { text: K.T("The partie ends. Places: {list}",
        { list: order.map((s) => `${c.places[s]}. ${names[s]} (${num(c.results[s])})`).join(", ") }) }));
    } else box.append(K.el("p.ia-results", { text: K.T("Results after it: {list}", { list: res }) }));
    return box;
  }

  function offerDialog(ctl, title, word, extraCards, consequence) {
    const box = K.el("div.offer-dialog", { role: "dialog", "aria-label": title }, K.el("p", null, K.el("b", { text: title })));
    if (extraCards && extraCards.length) {
      box.append(K.el("p.small", { text: K.T("The declarer's cards") }));
      const row = K.el("div.cards-row");
      C().sortHand(extraCards).forEach((c) => row.append(C().card(c, { small: true })));
      box.append(row);
    }
    if (consequence) box.append(consequence);
    const answers = ctl.legal.filter((w) => ANSWERS.includes(w));
    if (answers.length) {
      const btns = K.el("div.bid-box");
      answers.forEach((w) => btns.append(wordButton(ctl, w, w === "prihvatam" ? "strong" : null)));
      box.append(btns);
    } else box.append(K.el("p.small.muted", { text: K.T("waiting") }));
    return box;
  }

  K.games.preferans = {
    nSeats: 3,
    /* A word as the table's notes name it (the škart stays face down: "Škart"). */
    wordText: (w) => (w.startsWith("skart") ? K.T("Škart") : wordText(w)),
    /* A word as the screen reader says it: as said, the škart face down. */
    announced: (w) => (w.startsWith("skart") ? K.T("Škart") : w),

    /* The archive: the papir, and what the replay draws of a step besides the trick. */
    finalSheet: (players, v) => K.sheets.tabs("final", [
      { key: "papir", label: K.T("Papir"), body: K.sheets.papir(players, v.papir, v.result, null, { reckoning: true }) },
      { key: "hands", label: K.T("Hands"), body: K.sheets.hands(players, v.papir) }]),
    replay: {
      title: (rec, t, players) => `${K.T("Hand {n}", { n: rec.deal + 1 })}` + (t.contract ? ` · ${t.contract.label} (${players[t.declarer]})` : ""),
      middle: () => null,
      /* The replay's log: the škart with its cards (every hand is face up there). */
      word: (w) => (w.startsWith("skart ") ? `${K.T("Škart")}: ${w.slice(6)}` : null),
      extra(t) {
        if (!t.talon) return [];
        const tal = K.el("span.layout-cards", { title: K.T("Talon") });
        t.talon.forEach((c) => tal.append(C().card(c, { small: true })));
        return [K.el("span", null, K.T("Talon") + ": "), tal];
      },
    },

    lastTrick(v) {
      const t = v && v.hand && v.hand.tricks;
      return t && t.length ? { plays: t[t.length - 1].cards, winner: t[t.length - 1].winner } : null;
    },

    transition(prev, ev, ctl) {
      const a = ev.action;
      const ph = prev && prev.hand;
      const nh = ev.view && ev.view.hand;
      if (!a || !ph) return null;
      const handChanged = nh && nh.deal_index !== ph.deal_index;
      if (CARD_RE.test(a.word) && ph.phase === "igra" && ph.in_play && ph.trick.length === ph.in_play.length - 1) {
        const plays = ph.trick.concat([[a.seat, a.word]]);
        return { plays, winner: C().trickWinner(plays, trumpLetter(ph.contract)), dealEnded: handChanged, factor: handChanged ? 1.6 : 1 };
      }
      if (handChanged) return { dealEnded: true, factor: 1.4 };
      return null;
    },

    seatExtras(ctl, s) {
      const h = ctl.view && ctl.view.hand;
      if (!h || ctl.view.finished) return null;  // a hand dealt ahead of an otpis is never played
      const box = K.el("div.seat-extra");
      if (h.dealer === s) box.append(K.el("span.chip.dealer", { title: K.T("dealer"), text: "D" }));
      if (h.declarer === s && h.phase !== "licitacija") box.append(K.el("span.chip.leads", { text: K.T("declarer") }));
      const role = followRole(h, s, ctl.names());
      if (role) box.append(K.el("span.chip.role.role-" + role.role, { dataset: { role: role.role }, title: role.title || null, text: role.text }));
      // what he said: until the follow round is over, then only offers and their answers
      const w = lastWord(h, s);
      const settled = h.follow && h.follow.outcome;
      if (w && (!settled || OFFERS.includes(w) || ANSWERS.includes(w) || SIDE_WORDS.includes(w))) {
        box.append(K.el("span.speech", { dataset: { word: w }, text: w.startsWith("skart") ? K.T("Škart") : wordText(w) }));
      }
      if (s !== ctl.seat) {
        const showHand = h.ponuda && h.ponuda.declarer_hand && h.declarer === s;
        if (showHand) {
          const row = K.el("span.penalty");
          C().sortHand(h.ponuda.declarer_hand).forEach((c) => row.append(C().card(c, { small: true })));
          box.append(row);
        } else if (h.phase !== "kraj") box.append(C().backs(handSize(h, s)));
      }
      if (h.trick_counts && h.in_play && h.in_play.includes(s)) {
        box.append(K.el("span.tricks-count", { title: K.T("tricks") }, `${K.T("tricks")}: ${h.trick_counts[s]}`));
      }
      return box;
    },

    render(ctl, ui) {
      const v = ctl.view;
      const h = v.hand;
      const names = ctl.names();
      const p = ctl.pausing;
      // info line: hand, dealer, contract and trump always visible (put in only where it changed)
      const info = [];
      K.sheets.linkRules(h && h.contract ? h.contract.label : null);
      if (h && !v.finished) {
        // a tournament round (P13) counts its hands, and says when its time is up
        const no = v.round ? K.T("Hand {n} of {m}", { n: h.deal_index + 1, m: v.round.deljenja }) : K.T("Hand {n}", { n: h.deal_index + 1 });
        info.push(K.el("span.deal-no", { text: no }),
          K.el("span.dealer-line", { text: `${K.T("dealer")}: ${names[h.dealer]}` }));
        if (h.contract) {
          info.push(contractLabel(h.contract), K.sheets.hint(h.contract.label),
            K.el("span.declarer-line", { text: `${K.T("declarer")}: ${names[h.declarer]}` }));
          const f = h.follow;
          if (f && f.kontra_by !== null && f.kontra_by !== undefined) {
            info.push(K.el("span.kontra-line", { text: `${K.T(f.rekontra ? "rekontra" : "kontra")} (${names[f.kontra_by]})` }));
          }
        } else if (h.phase === "licitacija") {
          info.push(K.el("span.contract-name", { text: K.T("Bidding") }));
          if (h.bid) info.push(K.el("span.bid-line", { text: `${h.bid} · ${names[h.bid_holder]}` }));
        } else if (h.bid) {
          info.push(K.el("span.bid-line", { text: `${K.T("Bidding")}: ${h.bid} · ${names[h.declarer]}` }));
        }
      }
      if (v.round && v.round.deadline && !v.finished) {
        info.push(K.el("span.deadline-line", { text: K.T("Time is up: the partie ends after this hand") }));
      }
      if (v.settings) info.push(K.el("small.settings-line", { text: `${K.T("bule")} ${v.settings.bule} · ${K.T("refe")} ${v.settings.refe}` }));
      K.replaceIfChanged(ui.info, info);
      // the middle: drawn aside, put in only where it changed (its word buttons' listeners
      // depend on their word alone)
      const center = ui.center.cloneNode(false);
      const legal = ctl.canAct() ? ctl.legal : [];
      const mySkart = ctl.seat !== null && h && h.phase === "talon" && h.declarer === ctl.seat;
      if (v.finished && !p) {
        const res = v.result;
        const list = K.el("ul.final-places");
        [0, 1, 2].sort((a, b) => res.places[a] - res.places[b]).forEach((s) =>
          list.append(K.el("li", null, `${res.places[s]}. ${names[s]} `, K.el("b", { text: String(res.results[s]) }))));
        const why = K.sheets.endedBy(res);
        center.append(K.el("div.partie-over", null, K.el("h2", { text: K.T("The partie is over") }),
          why ? K.el("p.ended-by", { text: why }) : null, list,
          K.sheets.reckoning(names, res), K.el("a.btn", { href: `/archive/${ctl.partie}`, text: K.T("Papir") })));
      } else if (p && p.plays) {
        center.append(ctl.trickArea(p.plays, p.winner));
      } else if (h && (h.phase === "talon" || h.phase === "kontrakt") && h.talon) {
        const area = K.el("div.talon-area", null, K.el("p", { text: `${K.T("Talon")}: ${names[h.declarer]}` }));
        const row = K.el("div.talon-cards");
        h.talon.forEach((c) => row.append(C().card(c)));
        area.append(row);
        center.append(area);
      } else if (h && h.phase === "pracenje" && h.contract) {
        center.append(K.el("div.announce", null,
          K.el("p", { text: names[h.declarer] }), K.el("p.big", null, contractLabel(h.contract)),
          h.talon ? K.el("p.small", { text: `${K.T("Talon")}: ` }, ...h.talon.map((c) => C().card(c, { small: true }))) : null));
      } else if (h && h.phase === "igra") {
        center.append(ctl.trickOnTable(h.trick));
      } else if (h && h.phase === "licitacija") {
        const log = K.el("ol.bid-log", { "aria-label": K.T("Bidding") });
        (h.words || []).forEach(([s, w]) => log.append(K.el("li", null, K.el("b", { text: names[s] + ": " }), wordText(w))));
        center.append(K.el("div.announce", null, K.el("p.big", { text: K.T("Bidding") }), log));
      }
      if (h && h.skart && h.skart.length && h.phase !== "kraj" && !p) {
        // the declarer knows his own škart (the others see it when the hand is over)
        center.append(K.el("p.my-skart", null, K.T("Škart") + ": ",
          ...C().sortHand(h.skart).map((c) => C().card(c, { small: true }))));
      }
      if (p && p.dealEnded) {
        const after = p.after || v; // the ended hand is drawn until its end has been seen
        const lines = (after.papir && after.papir.lines) || [];
        center.append(K.el("p.deal-over", null, K.el("b", { text: K.T("The deal is over") }), " ", lineText(ctl, lines[lines.length - 1])));
      }
      // offers: ponuda of the declarer, and otpis / fall offers between hands
      if (h && h.ponuda && !p) {
        center.append(offerDialog(ctl, K.T("{name} offers: {word}", { name: names[h.declarer], word: wordText(h.ponuda.word) }),
          h.ponuda.word, h.ponuda.declarer_hand));
      }
      if (v.offer && !p) {
        const o = v.offer;
        const title = o.word === "otpis" ? K.T("{name} proposes an otpis", { name: names[o.by] })
          : o.word === "preuzimam pad" ? K.T("{name} takes over the fall", { name: names[o.by] })
          : K.T("{name} returns the fall", { name: names[o.by] });
        center.append(offerDialog(ctl, title, o.word, null, ifAccepted(ctl, o, names)));
      }
      K.replaceIfChanged(ui.center, [...center.childNodes]);
      // controls: the bidding box with only the legal words of the moment
      K.clear(ui.controls);
      const words = legal.filter((w) => !CARD_RE.test(w) && !w.startsWith("skart") && !ANSWERS.includes(w));
      const main = words.filter((w) => !OFFERS.includes(w) && !SIDE_WORDS.includes(w))
        .sort((a, b) => WORD_ORDER.indexOf(a) - WORD_ORDER.indexOf(b));
      if (main.length && !p) {
        const title = h.phase === "kontrakt" ? K.T("Announce the contract") : h.phase === "licitacija" ? K.T("Bidding") : "";
        const box = K.el("div.bid-box", { role: "group", "aria-label": title || K.T("Bidding") }, title ? K.el("h3", { text: title }) : null);
        main.forEach((w) => box.append(wordButton(ctl, w, /^\d$/.test(w) || w === "moje" ? "strong" : null)));
        ui.controls.append(box);
      }
      const offers = words.filter((w) => OFFERS.includes(w));
      if (offers.length && !p) {
        const box = K.el("div.bid-box.offers", { role: "group", "aria-label": K.T("Offers of the declarer") }, K.el("h3", { text: K.T("Offers of the declarer") }));
        offers.forEach((w) => box.append(wordButton(ctl, w)));
        ui.controls.append(box);
      }
      if (!p) {
        const legend = wordLegend([...main, ...offers]);
        if (legend) {
          legend.open = !!ctl.legendOpen; // kept across redraws; in the box's corner, taking no line
          legend.addEventListener("toggle", () => { ctl.legendOpen = legend.open; });
          ui.controls.querySelector(".bid-box").append(legend);
        }
      }
      const side = words.filter((w) => SIDE_WORDS.includes(w));
      if (side.length && !p) {
        const box = K.el("div.bid-box.side-words", { role: "group" });
        side.forEach((w) => box.append(K.el("button.word", { type: "button", dataset: { word: w }, onclick: () => ctl.act(w) },
          w === "otpis" ? K.T("Propose an otpis") : w === "preuzimam pad" ? `${K.T("Odlazak u bulu")}: ${K.T("Take over the fall")}` : K.T("Return the fall"))));
        ui.controls.append(box);
      }
      // my hand (with the škart chosen by clicking two cards)
      if (ctl.seat !== null && h) {
        if (mySkart && ctl.canAct()) {
          const all = new Set(myCards(h));
          ctl.drawHand(myCards(h), all, (card) => {
            if (ctl.selected.has(card)) ctl.selected.delete(card);
            else if (ctl.selected.size < 2) ctl.selected.add(card);
            ctl.render();
          }, { selected: ctl.selected });
          const [a, b] = [...ctl.selected];
          const word = ctl.selected.size === 2 ? ctl.legal.find((w) => w === `skart ${a} ${b}` || w === `skart ${b} ${a}`) : null;
          ui.controls.prepend(K.el("div.bid-box.skart-box", null, K.el("h3", { text: K.T("Choose two cards for the škart") }),
            K.el("button.word.strong", { type: "button", id: "skart-button", disabled: word ? null : true,
              onclick: () => { if (word) { ctl.selected.clear(); ctl.act(word); } } }, K.T("Discard"))));
        } else {
          if (!mySkart) ctl.selected.clear();
          const cards = new Set(legal.filter((w) => CARD_RE.test(w)));
          ctl.drawHand(h.phase === "kraj" || v.finished ? [] : myCards(h), p ? new Set() : cards, (card) => ctl.act(card));
        }
      } else K.clear(ui.hand);
      // the papir, and the previous hand face up
      const key = JSON.stringify([v.papir, v.result, names]);
      if (key !== sheetKey) {
        sheetKey = key;
        K.sheets.side(ui, K.T("Papir"), [
          { key: "papir", label: K.T("Papir"), body: K.sheets.papir(names, v.papir, v.result, ctl.seat) },
          { key: "hands", label: K.T("Hands"), body: K.sheets.hands(names, v.papir) }]);
      }
      drawLastDeal(ctl, ui, v);
    },
  };
})();
