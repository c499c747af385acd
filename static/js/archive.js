/* Klub: the archive — the hand-by-hand replay (all hands face up) and, beside it, the
   score sheet (or papir) as it stood after the replayed deal. The deal and step shown are
   kept in the URL (#deal=n&step=s, n from 1) and in the tab's sessionStorage, so a reload or a
   return to the page comes back to them; otherwise a finished partie opens on its final
   reckoning (the sheet as it ended, with the places; the replay at the end of its last deal,
   and a button to replay it from the first deal), an unfinished one on its first deal.
   A partie of a game with an analysis also has, below, the analysis of the replayed deal
   (asked for with its button, or at once when the URL says #...&analysis=1, as the table's
   link to an ended deal does): a finished partie for everyone, a running one for its
   players (its replay never shows the deal in play). */
"use strict";
(function () {
  const K = window.Klub;
  const C = K.cards;
  const data = JSON.parse(document.getElementById("sheet-data").textContent);
  const sheet = document.getElementById("final-sheet");
  const CARD_RE = /^[789TJQKA][SDHC]$/;
  const players = data.players;
  for (const [shown, name] of Object.entries(data.computers || {})) K.computers.set(shown, name);

  const G = K.games[data.game];
  const box = document.getElementById("replay");
  const partie = box.dataset.partie;
  const st = { deal: null, step: 0, rec: null };
  const KEY = `klub-replay-${partie}`;

  /* The sheet as it stands now: before the replay has a deal to show (or could not load). */
  function currentSheet() {
    if (data.view && !sheet.firstChild) sheet.append(G.finalSheet(players, data.view));
  }

  /* The sheet after the replayed deal: the replay's result (and papir) of the partie
     replayed up to the end of that deal, drawn as the game draws a view's sheet. */
  function sheetAfter(rec) {
    const now = data.view || {};
    const upTo = (list) => list && list.slice(0, rec.deal + 1); // the deals replayed so far (void ones too)
    const after = { result: rec.result, papir: rec.papir, finished: rec.finished, schedule: now.schedule,
      slots: upTo(now.slots), bets: upTo(now.bets),
      highest_wins: now.highest_wins, deal: { index: rec.deal, settings: now.deal && now.deal.settings } };
    const final = rec.finished && rec.deal === rec.deals - 1;
    const drawn = G.finalSheet(players, after);
    K.clear(sheet).append(final ? K.el("h2.sheet-after.sheet-final", { text: K.T("Final reckoning") })
      : K.el("p.sheet-after", { text: K.T("The sheet after deal {n}", { n: rec.deal + 1 }) }), drawn);
    // the final reckoning (a papir's, under its long columns) first, the sheet under it
    const reckoning = final && drawn.querySelector(".reckoning-box");
    if (reckoning) sheet.insertBefore(reckoning, drawn);
  }

  function remembered() {
    let where = location.hash.slice(1);
    if (!where) try { where = sessionStorage.getItem(KEY) || ""; } catch (e) { where = ""; }
    const m = /^deal=([1-9]\d*)(?:&step=(\d+))?(&analysis=1)?$/.exec(where);
    if (m) return { deal: Number(m[1]) - 1, step: Number(m[2] || 0), analysis: !!m[3] };
    // nothing remembered: a finished partie's final reckoning (its last deal, at the end)
    return data.status === "finished" ? { deal: null, step: "end" } : { deal: 0, step: 0 };
  }

  function remember() {
    const where = `deal=${st.deal + 1}&step=${st.step}`;
    history.replaceState(null, "", `#${where}`);
    try { sessionStorage.setItem(KEY, where); } catch (e) { /* no storage: the URL keeps it */ }
  }

  async function load(deal, step) {
    // deal null: the last deal
    const r = await fetch(`/ui/api/parties/${partie}/replay` + (deal === null ? "" : `?deal=${deal}`));
    if (!r.ok) {
      if (deal !== 0) return load(0, 0);  // a deal this partie does not have (an old link)
      currentSheet();
      K.clear(box).append(K.el("p.muted", { text: K.T("Error") }));
      return;
    }
    st.rec = await r.json();
    st.deal = st.rec.deal;
    const last = st.rec.steps.length - 1;
    st.step = step === "end" ? Math.max(0, last) : Math.max(0, Math.min(step || 0, last));
    if (st.deal === null) currentSheet();
    else sheetAfter(st.rec);
    draw();
    if (st.deal !== an.deal) analysisIdle();
    if (analyseDeal !== null && st.deal === analyseDeal && panel) { analyseDeal = null; askAnalysis(); }
  }

  function word(w) {
    if (CARD_RE.test(w)) return C.label(w);
    return (G.replay.word && G.replay.word(w)) || w;  // a game's own words (preferans' škart)
  }

  function button(step, label, disabled) {
    return K.el("button.btn.small", { type: "button", dataset: { step }, disabled: disabled ? true : null,
      onclick: () => go(step) }, label);
  }

  /* Any deal of the partie at once (the last one: the final sheet). */
  function dealPicker(rec) {
    const pick = K.el("select.deal-pick", { onchange: () => load(Number(pick.value), 0).then(() => refocus("select.deal-pick")) });
    for (let k = 0; k < rec.deals; k++) pick.append(K.el("option", { value: String(k), selected: k === rec.deal ? true : null }, String(k + 1)));
    return K.el("label.deal-pick-label", null, `${K.game.deal_noun || K.T("Deal")} `, pick, ` / ${rec.deals}`);
  }

  function go(step) {
    const n = st.rec.steps.length;
    if (step === "start") st.step = 0;
    else if (step === "prev") st.step = Math.max(0, st.step - 1);
    else if (step === "next") st.step = Math.min(n - 1, st.step + 1);
    else if (step === "end") st.step = n - 1;
    else if (step === "prev-deal" && st.deal > 0) return load(st.deal - 1, 0).then(() => refocus(`button[data-step="${step}"]`));
    else if (step === "next-deal" && st.deal < st.rec.deals - 1) return load(st.deal + 1, 0).then(() => refocus(`button[data-step="${step}"]`));
    else if (step === "first-deal") return load(0, 0).then(() => refocus('button[data-step="start"]'));
    draw();
    refocus(`button[data-step="${step}"]`);
  }

  /* The control just used keeps the focus after the replay is drawn again. */
  function refocus(selector) {
    const again = box.querySelector(selector);
    if (again && !again.disabled) again.focus();
  }

  function draw() {
    const rec = st.rec;
    K.clear(box);
    if (!rec || rec.deal === null) { box.append(K.el("p", { text: K.T("No deals yet.") })); return; }
    remember();
    const steps = rec.steps;
    const cur = steps[st.step];
    const t = cur.table;
    const R = G.replay;
    const title = R.title(rec, t, players);
    box.append(K.el("h3.replay-title", { text: title }));
    if (st.deal > 0) {  // from the final reckoning (or any deal): the whole partie again
      box.append(K.el("p.replay-from", null, K.el("button.btn.small.replay-first", { type: "button",
        dataset: { step: "first-deal" }, onclick: () => go("first-deal") }, K.T("Replay from the first deal"))));
    }
    const bar = K.el("div.replay-bar", { role: "toolbar", "aria-label": K.T("Step") },
      button("prev-deal", "◀◀ " + (K.game.deal_previous || K.T("Previous deal")), st.deal === 0),
      button("start", K.T("Start"), st.step === 0),
      button("prev", "◀ " + K.T("Back"), st.step === 0),
      K.el("span.step-no", { "aria-live": "polite", text: `${K.T("Step")} ${st.step} / ${steps.length - 1}` }),
      button("next", K.T("Forward") + " ▶", st.step === steps.length - 1),
      button("end", K.T("End"), st.step === steps.length - 1),
      button("next-deal", (K.game.deal_next || K.T("Next deal")) + " ▶▶", st.deal >= rec.deals - 1),
      dealPicker(rec));
    box.append(bar);
    const acting = cur.action ? cur.action[0] : null;
    box.append(K.el("p.replay-log", { text: cur.action ? `${players[cur.action[0]]}: ${word(cur.action[1])}` : K.T("Start") }));
    // the middle: the trick (or the layout, or the talon)
    const mid = K.el("div.replay-mid");
    let trick = t.trick || [];
    if (!trick.length && cur.action && CARD_RE.test(cur.action[1]) && st.step > 0) {
      const before = steps[st.step - 1].table.trick || [];
      if (before.length) trick = before.concat([cur.action]);
    }
    const laid = R.layout && R.layout(t, cur.action);
    const drawn = laid ? [laid] : R.middle(t, cur.action);
    if (drawn) mid.append(...drawn);
    else {
      trick.forEach(([s, c]) => mid.append(K.el("span.rt", null, C.card(c, { small: true, cls: s === acting ? "just" : null }), K.el("small", { text: " " + players[s] }))));
    }
    if (R.extra) mid.append(...R.extra(t, players));
    box.append(mid);
    const hands = K.el("div.replay-hands");
    cur.hands.forEach((cards, s) => {
      const row = K.el("div.replay-hand" + (s === acting ? ".acting" : ""), { dataset: { seat: String(s) } },
        K.el("span.rh-name", { title: players[s] }, K.playerNode(players[s])));
      const cs = K.el("span.rh-cards");
      C.sortHand(cards).forEach((c) => cs.append(C.card(c, { small: true })));
      row.append(cs);
      if (t.trick_counts) row.append(K.el("small", { text: `${K.T("tricks")}: ${t.trick_counts[s]}` }));
      if (R.pointsAtEnd && t.points && st.step === steps.length - 1) row.append(K.el("b", { text: ` ${t.points[s] > 0 ? "+" : ""}${t.points[s]}` }));
      hands.append(row);
    });
    box.append(hands);
    // the end of the deal: why it ended as it did, as the table said it
    if (rec.deal_end && R.dealEnd && st.step === steps.length - 1) {
      box.append(K.el("div.replay-end", null, R.dealEnd(rec.deal_end, players, rec.settings)));
    }
    markStep();
  }

  /* The analysis of the replayed deal: asked for with the button, computed by the server in
     a worker (202 "pending" meanwhile: asked again every second), then one row per decision
     with a choice: the word said, the best one with every hand open and the points it would
     have saved; the biggest mistakes are marked. A row's click shows its step. */
  const panel = document.getElementById("analysis");
  const an = { deal: null, asking: 0 };
  // What a card lost is counted in: Lora's points, Lórum's chips, preferans' tricks (the
  // game's analysis_unit): the column, the deal's sum, the note.
  const UNITS = {
    points: ["Points lost", "Points lost in this deal",
      "The analysis sees every hand. Points lost: what the best card would have saved the player (lower is better); the biggest mistakes are marked."],
    chips: ["Chips lost", "Chips lost in this deal",
      "The analysis sees every hand. Chips lost: what the best card would have saved the player (lower is better); the biggest mistakes are marked."],
    tricks: ["Tricks lost", "Tricks lost in this deal",
      "The analysis sees every hand. Tricks lost: the declarer's tricks the best card would have won (or, defending, kept from him); the biggest mistakes are marked."],
  };
  const [LOST, LOST_IN_DEAL, NOTE] = UNITS[(panel && panel.dataset.unit) || "points"] || UNITS.points;
  // Decisions a game values in another unit than its cards' (preferans' bids and choices:
  // points of the result): per unit, the texts of their sum, their column and how they
  // are valued (its descriptor's analysis_other_units).
  const OTHER_UNITS = K.game.analysis_other_units || {};
  const ASK_AGAIN_MS = 1000;

  function analysisHeading(deal) {
    return K.el("h2.analysis-title", { text: `${K.T("Analysis")} · ${K.game.deal_noun || K.T("Deal")} ${deal + 1}` });
  }

  function analysisIdle() {
    if (!panel) return;
    an.deal = st.deal;
    an.asking++;  // an answer still coming for another deal is dropped
    if (st.deal === null) { K.clear(panel); return; }
    K.clear(panel).append(analysisHeading(st.deal),
      K.el("button.btn.analysis-go", { type: "button", onclick: askAnalysis }, K.T("Analysis")),
      K.el("p.muted.analysis-note", { text: K.T(NOTE) }));
  }

  async function askAnalysis() {
    const ticket = ++an.asking;
    const deal = st.deal;
    const status = K.el("p.analysis-status", { role: "status", "aria-live": "polite", text: K.T("Computing…") });
    K.clear(panel).append(analysisHeading(deal), status);
    for (;;) {
      let r = null;
      try { r = await fetch(`/api/parties/${partie}/deals/${deal}/analysis`); } catch (e) { r = null; }
      if (ticket !== an.asking) return;
      if (r && r.status === 202) {
        await K.sleep(ASK_AGAIN_MS);
        if (ticket !== an.asking) return;
        continue;
      }
      const data = r && r.ok ? await r.json() : null;
      if (ticket !== an.asking) return;
      if (!data) {
        status.textContent = K.T("Error");
        panel.append(K.el("button.btn.small.analysis-go", { type: "button", onclick: askAnalysis }, K.T("Try again")));
        return;
      }
      drawAnalysis(deal, data);
      return;
    }
  }

  /* A word with its cards as rank and suit ("kitty 7H": kitty 7♥). */
  function wordCells(w) {
    return w.split(" ").map((t, i) => [i ? " " : "", CARD_RE.test(t)
      ? K.el(`span.suit.s-${t[1]}`, { title: C.label(t), dataset: { card: t } }, C.rankLabel(t) + C.SYMBOL[t[1]])
      : K.T(`word:${t}`)]).flat();
  }

  const points = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(1));

  function drawAnalysis(deal, data) {
    K.clear(panel).append(analysisHeading(deal));
    if (!data.rows.length) {
      panel.append(K.el("p.muted", { text: K.T("No decision with a choice in this deal.") }));
      return;
    }
    const show = (step) => { st.step = step; draw(); box.scrollIntoView({ block: "nearest" }); };
    // A column per unit the rows are valued in, named by what it holds (issue 39): the
    // game's own (its descriptor's analysis_unit: points, chips, tricks) and, where a row
    // is valued otherwise (preferans' bids: points of the result), that unit's own column.
    const others = Object.keys(OTHER_UNITS).filter((u) => data.rows.some((r) => r.unit === u));
    const columns = [null, ...others];
    const head = K.el("tr", null, ...["Step", "Player", "Played", "Best", LOST, ...others.map((u) => OTHER_UNITS[u][1])]
      .map((t, i) => K.el("th", { scope: "col", dataset: i >= 4 ? { unit: columns[i - 4] || panel.dataset.unit || "points" } : null, text: K.T(t) })));
    const body = K.el("tbody");
    data.rows.forEach((row) => {
      const mine = row.unit && OTHER_UNITS[row.unit] ? row.unit : null;
      const unit = mine ? K.el("small.an-unit", { text: ` ${K.T("pts.")}`, title: K.T("points of the result") }) : null;
      const saved = columns.map((u) => (u !== mine ? K.el("td.an-none") : row.saved === null ? K.el("td.an-saved.muted", { text: "–" })
        : K.el("td.an-saved", null, points(row.saved), unit, row.mistake ? K.el("b.mistake-mark", { title: K.T("Big mistake"), "aria-label": K.T("Big mistake") }, " !") : null)));
      body.append(K.el("tr" + (row.mistake ? ".mistake" : "") + (row.saved ? ".lost" : ""), {
        tabindex: "0", dataset: { step: String(row.step), seat: String(row.seat), unit: row.unit || "" },
        onclick: () => show(row.step), onkeydown: (ev) => { if (ev.key === "Enter") show(row.step); },
      }, K.el("td.an-step", { text: String(row.step) }), K.el("td.an-player", null, K.playerNode(players[row.seat])),
      K.el("td.an-word", null, wordCells(row.word)),
      row.best === null ? K.el("td.an-best.muted", { text: K.T("not analysed") }) : K.el("td.an-best", null, wordCells(row.best)),
      saved));
    });
    const lost = K.el("p.analysis-lost", null, K.el("b", { text: `${K.T(LOST_IN_DEAL)}: ` }),
      data.lost.map((x, s) => K.el("span.an-lost", { dataset: { seat: String(s) } }, `${players[s]} ${points(x)}`))
        .flatMap((e, i) => (i ? [" · ", e] : [e])));
    panel.append(K.el("div.analysis-scroll", null, K.el("table.analysis-table", null, K.el("thead", null, head), body)), lost);
    others.forEach((u) => {
      const sums = (data.lost_other && data.lost_other[u]) || data.lost.map(() => 0);
      panel.append(K.el("p.analysis-lost.analysis-lost-other", { dataset: { unit: u } }, K.el("b", { text: `${K.T(OTHER_UNITS[u][0])}: ` }),
        sums.map((x, s) => K.el("span.an-lost", { dataset: { seat: String(s) } }, `${players[s]} ${points(x)}`))
          .flatMap((e, i) => (i ? [" · ", e] : [e]))));
    });
    panel.append(K.el("p.muted.analysis-note", { text: K.T(NOTE) }),
      ...others.map((u) => K.el("p.muted.analysis-note.analysis-method", { dataset: { unit: u }, text: K.T(OTHER_UNITS[u][2]) })));
    markStep();
  }

  /* The analysis row of the step the replay shows. */
  function markStep() {
    if (!panel) return;
    panel.querySelectorAll("tr[data-step]").forEach((tr) => tr.classList.toggle("current", Number(tr.dataset.step) === st.step));
  }

  box.addEventListener("keydown", (ev) => {
    if (!st.rec || ev.target.tagName === "SELECT") return;
    if (ev.key === "ArrowRight") { ev.preventDefault(); go("next"); }
    else if (ev.key === "ArrowLeft") { ev.preventDefault(); go("prev"); }
  });
  box.tabIndex = 0;
  const start = remembered();
  let analyseDeal = start.analysis ? start.deal : null;  // the table's link: this deal's analysis at once
  load(start.deal, start.step);
})();
