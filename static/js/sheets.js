/* Klub: the paper — the sheets of deal-by-deal games (points or chips, 28 rows) and the
   papir of bule, supe and refe. Contract names come from the game's descriptor. */
"use strict";
(function () {
  const K = window.Klub;
  const S = (K.sheets = {});
  /* The link to the analysis of ended deal k (from 0), or null: the table sets it for its
     players (app/analysis: while a partie runs only they may open it). */
  S.analysisLink = null;
  function analysisCell(td, k) {
    const href = S.analysisLink && S.analysisLink(k);
    if (href) {  // the deal's number becomes the link
      const label = K.T("Analysis of deal {n}", { n: k + 1 });
      K.clear(td).append(K.el("a.deal-analysis", { href, title: label, "aria-label": label, dataset: { deal: String(k) } }, String(k + 1)));
    }
    return td;
  }
  /* A preferans otpis line's title: agreed (P11), or a tournament round's end (P13). */
  S.otpisTitle = (line) => line.reason === "deljenja" ? K.T("Otpis after the round's last hand")
    : line.reason === "rok" ? K.T("Otpis at the round's deadline") : K.T("Otpis");
  /* Why a preferans partie ended, when a tournament round ended it (P13); else null. */
  S.endedBy = (result) => !result ? null
    : result.ended_by === "deljenja" ? K.T("The round's last hand was played: the partie ended by otpis")
    : result.ended_by === "rok" ? K.T("The round's time ran out: the partie ended by otpis") : null;
  S.contract = (k) => {
    const names = K.game.contracts || [];
    return names.length ? names[k % names.length] : "";
  };
  /* A contract by its code (house rules; as GameDescriptor.contract_name); "?" while chosen. */
  S.named = (code, settings) => {
    if (code === null || code === undefined) return "?";
    const names = K.game.contract_names || {};
    const key = code === "kralj" && settings && settings.kralj_sesti ? "kralj_sesti"
      : code === "sesti" && settings && settings.igraca === 3 ? "sesti3" : code;
    return names[key] || String(code);
  };
  /* A contract's one-line scoring hint and its section of the rules page, as the views name
     it (a number or a code; the descriptor's contract_help for this partie's settings). */
  S.help = (key) => (key === null || key === undefined ? null : (K.game.contract_help || {})[String(key)] || null);
  /* The hint under the contract's name (null: none). */
  S.hint = (key) => {
    const h = S.help(key);
    return h ? K.el("span.contract-hint", { text: h.hint }) : null;
  };
  /* The table's rules link opens the current contract's section, in the page's language. */
  S.linkRules = (key) => {
    const a = document.querySelector(".table-links a[href^='/rules/']");
    if (!a || !K.game.rules_url) return;
    const h = S.help(key);
    const href = `${K.game.rules_url}?lang=${encodeURIComponent(K.lang)}${h ? "#" + h.anchor : ""}`;
    if (a.getAttribute("href") !== href) a.href = href;
  };
  /* The rows of a deal-by-deal sheet: [dealer, contract name] per deal. The Club's Lora: 28
     deals, seven per dealer; house rules: the view's schedule, played deals by their code. */
  S.plan = (view) => {
    const result = (view && view.result) || {};
    if (!view || !view.schedule) {
      return { rows: Array.from({ length: 28 }, (_, k) => [Math.floor(k / 7), S.contract(k)]), highestWins: false };
    }
    const settings = view.deal && view.deal.settings;
    const played = result.deals || [];
    // A void deal (Libyan Lora) is a row of its own; the deal dealt again shares its slot.
    const slots = view.slots || view.schedule.map((_, k) => k);
    const row = (slot, k) => {
      const [dealer, code] = view.schedule[slot];
      const d = played[k];
      return [dealer, S.named(d ? d.contract : code, settings) + (d && d.void ? ` (${K.T("void")})` : "")];
    };
    const rows = slots.map(row);
    const after = slots.length ? slots[slots.length - 1] + 1 : 0;
    for (let slot = after; slot < view.schedule.length; slot++) rows.push(row(slot, rows.length));
    return { rows, highestWins: !!view.highest_wins, bets: view.bets || null };
  };

  function signed(n) { return n > 0 ? "+" + n : String(n); }

  /* Points (Lora): players[4], result {deals, totals, places}, current deal index or null;
     plan: S.plan(view) (the rows and which way the points count). */
  S.points = function (players, result, current, mySeat, plan) {
    plan = plan || S.plan(null);
    const deals = (result && result.deals) || [];
    const table = K.el("table.lora-sheet", { "aria-label": K.T("Score sheet") });
    const head = K.el("tr", null, K.el("th", { scope: "col", text: "#" }), K.el("th", { scope: "col", text: K.T("Contract") }));
    players.forEach((p, i) => head.append(K.el("th" + (i === mySeat ? ".me" : ""), { scope: "col", text: p })));
    table.append(K.el("thead", null, head));
    const body = K.el("tbody");
    const running = players.map(() => 0);
    const [good, bad] = plan.highestWins ? [".bad", ".good"] : [".good", ".bad"];
    plan.rows.forEach(([dealer, name], k) => {
      const starts = k === 0 || plan.rows[k - 1][0] !== dealer;
      const row = K.el("tr" + (starts ? ".dealer-start" : "") + (k === current ? ".current" : ""),
        { dataset: { deal: String(k) }, "aria-current": k === current ? "true" : null });
      row.append(K.el("td.num", { text: String(k + 1) }));
      row.append(K.el("td.contract", { title: `${name} · ${K.T("dealer")}: ${players[dealer]}` }, name));
      const d = deals[k];
      for (let s = 0; s < players.length; s++) {
        if (d) {
          running[s] += d.points[s];
          const cell = K.el("td.pts" + (s === dealer ? ".dealer-col" : "") + (d.points[s] > 0 ? bad : d.points[s] < 0 ? good : ""),
            { title: signed(d.points[s]) },
            K.el("span.run", { text: String(running[s]) }),
            d.points[s] ? K.el("small.delta", { text: signed(d.points[s]) }) : null);
          row.append(cell);
        } else row.append(K.el("td.pts.empty" + (s === dealer ? ".dealer-col" : "")));
      }
      body.append(row);
    });
    table.append(body);
    const totals = (result && result.totals) || running;
    const places = (result && result.places) || [];
    const foot = K.el("tfoot");
    const tr = K.el("tr.totals", null, K.el("th", { scope: "row", colspan: "2", text: K.T("Total") }));
    totals.forEach((t) => tr.append(K.el("td", { text: String(t) })));
    foot.append(tr);
    if (places.length && deals.length) {
      const pr = K.el("tr.places", null, K.el("th", { scope: "row", colspan: "2", text: K.T("Place") }));
      places.forEach((p) => pr.append(K.el("td" + (p === 1 ? ".first" : ""), { text: p + "." })));
      foot.append(pr);
    }
    table.append(foot);
    return K.el("div.paper.lora-paper", null, K.el("h2.paper-title", { text: K.T("Score sheet") }), table);
  };

  /* The generic sheet (a game without a sheet of its own, static/js/plain.js): a row per
     deal played with each player's points (result.deals[k].points), the totals, the places. */
  S.totals = function (players, result, current, mySeat) {
    const deals = (result && result.deals) || [];
    const table = K.el("table.plain-sheet", { "aria-label": K.T("Score sheet") });
    const head = K.el("tr", null, K.el("th", { scope: "col", text: "#" }));
    players.forEach((p, i) => head.append(K.el("th" + (i === mySeat ? ".me" : ""), { scope: "col", text: p })));
    table.append(K.el("thead", null, head));
    const body = K.el("tbody");
    const running = players.map(() => 0);
    deals.forEach((d, k) => {
      const row = K.el("tr" + (k === current ? ".current" : ""), { dataset: { deal: String(k) } },
        analysisCell(K.el("td.num", { text: String(k + 1) }), k));
      players.forEach((_, s) => {
        const x = (d.points || [])[s] || 0;
        running[s] += x;
        row.append(K.el("td.pts", { title: signed(x) }, K.el("span.run", { text: String(running[s]) }),
          x ? K.el("small.delta", { text: signed(x) }) : null));
      });
      body.append(row);
    });
    table.append(body);
    const foot = K.el("tfoot");
    const tr = K.el("tr.totals", null, K.el("th", { scope: "row", text: K.T("Total") }));
    ((result && result.totals) || running).forEach((t) => tr.append(K.el("td", { text: String(t) })));
    foot.append(tr);
    const places = (result && result.places) || [];
    if (places.length && deals.length) {
      const pr = K.el("tr.places", null, K.el("th", { scope: "row", text: K.T("Place") }));
      places.forEach((p) => pr.append(K.el("td" + (p === 1 ? ".first" : ""), { text: p + "." })));
      foot.append(pr);
    }
    table.append(foot);
    return K.el("div.paper", null, K.el("h2.paper-title", { text: K.T("Score sheet") }), table);
  };

  /* Chips (Lórum): players[4], result {deals: [{contract, transfers, bank}], bank, totals, places}.
     Chips: + won, − paid; the bank column is the bank after each deal. */
  S.chips = function (players, result, current, mySeat, view) {
    // With the extra contracts (101, makk) the view's schedule names each deal's contract.
    const schedule = view && view.schedule;
    const rows = schedule ? schedule.map(([dealer, code]) => [dealer, S.named(code, null)])
      : Array.from({ length: 28 }, (_, k) => [Math.floor(k / 7), S.contract(k)]);
    const deals = (result && result.deals) || [];
    const table = K.el("table.lora-sheet.lorum-sheet", { "aria-label": K.T("Score sheet") });
    const head = K.el("tr", null, K.el("th", { scope: "col", text: "#" }), K.el("th", { scope: "col", text: K.T("Contract") }));
    players.forEach((p, i) => head.append(K.el("th" + (i === mySeat ? ".me" : ""), { scope: "col", text: p })));
    head.append(K.el("th.bank-col", { scope: "col", title: K.T("Bank after the deal"), text: K.T("Bank") }));
    table.append(K.el("thead", null, head));
    const body = K.el("tbody");
    const running = players.map(() => 0);
    let bank = 0;
    for (let k = 0; k < rows.length; k++) {
      const [dealer, title] = rows[k];
      const starts = k === 0 || rows[k - 1][0] !== dealer;
      const row = K.el("tr" + (starts ? ".dealer-start" : "") + (k === current ? ".current" : ""),
        { dataset: { deal: String(k) }, "aria-current": k === current ? "true" : null });
      row.append(K.el("td.num", { text: String(k + 1) }));
      row.append(K.el("td.contract", { title: `${title} · ${K.T("dealer")}: ${players[dealer]}` }, title));
      const d = deals[k];
      for (let s = 0; s < 4; s++) {
        if (d) {
          const x = d.transfers[s];
          running[s] += x;
          row.append(K.el("td.pts" + (s === dealer ? ".dealer-col" : "") + (x > 0 ? ".good" : x < 0 ? ".bad" : ""),
            { title: signed(x) },
            K.el("span.run", { text: String(running[s]) }),
            x ? K.el("small.delta", { text: signed(x) }) : null));
        } else row.append(K.el("td.pts.empty" + (s === dealer ? ".dealer-col" : "")));
      }
      if (d) {
        bank += d.bank;
        row.append(K.el("td.bank-col", { title: signed(d.bank) }, K.el("span.run", { text: String(bank) }),
          d.bank ? K.el("small.delta", { text: signed(d.bank) }) : null));
      } else row.append(K.el("td.bank-col.empty"));
      body.append(row);
    }
    table.append(body);
    const totals = (result && result.totals) || running;
    const places = (result && result.places) || [];
    const foot = K.el("tfoot");
    const tr = K.el("tr.totals", null, K.el("th", { scope: "row", colspan: "2", text: K.T("Total") }));
    totals.forEach((t) => tr.append(K.el("td", { text: String(t) })));
    tr.append(K.el("td.bank-col", { title: K.T("Bank"), text: String(result && "bank" in result ? result.bank : bank) }));
    foot.append(tr);
    if (places.length && deals.length) {
      const pr = K.el("tr.places", null, K.el("th", { scope: "row", colspan: "2", text: K.T("Place") }));
      places.forEach((p) => pr.append(K.el("td" + (p === 1 ? ".first" : ""), { text: p + "." })));
      pr.append(K.el("td.bank-col"));
      foot.append(pr);
    }
    table.append(foot);
    return K.el("div.paper.lora-paper.lorum-paper", null, K.el("h2.paper-title", { text: K.T("Score sheet") }), table);
  };

  function column(values, cls, label) {
    const col = K.el("div.p-col." + cls, { "aria-label": label });
    values.forEach((v, i) => {
      col.append(K.el("span.p-val" + (i < values.length - 1 ? ".crossed" : ".last"), { text: String(v) }));
    });
    return col;
  }

  function refeMarks(refe) {
    const box = K.el("div.p-refe", { "aria-label": `${K.T("refe")}: ${refe.open} ${K.T("open")}, ${refe.played} ${K.T("played")}` });
    for (let i = 0; i < refe.played; i++) box.append(K.el("span.triangle.crossed", { "aria-hidden": "true", title: K.T("played") }));
    for (let i = 0; i < refe.open; i++) box.append(K.el("span.triangle", { "aria-hidden": "true", title: K.T("open") }));
    return box;
  }

  /* How the result is made (section 15), under the papir and the reckoning. */
  const explainResult = () => K.el("p.p-explain",
    { text: K.T("Result = 10 × bule + supe written against the player − supe he wrote. Lower is better; below 0 is good.") });

  /* Section 15 for one player: supe written to him, supe he wrote, 10 x bule, the result. */
  function reckon(result, s) {
    const supe = result.supe || [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
    const others = [0, 1, 2].filter((j) => j !== s);
    const against = others.reduce((n, j) => n + supe[j][s], 0);
    const wrote = others.reduce((n, j) => n + supe[s][j], 0);
    return { others, against, wrote, bule: result.bule ? result.bule[s] : null };
  }

  /* Preferans: players[3], papir {players: [...], lines}, result {results, places, finished};
     opts.reckoning: the final reckoning under it once the partie is over (the archive). */
  S.papir = function (players, papir, result, mySeat, opts) {
    const wrap = K.el("div.paper.papir", { "aria-label": K.T("Papir") });
    wrap.append(K.el("h2.paper-title", { text: K.T("Papir") }));
    const grid = K.el("div.papir-grid");
    (papir.players || []).forEach((p, s) => {
      const sec = K.el("section.p-player" + (s === mySeat ? ".me" : "") + (p.kapa ? ".has-kapa" : ""), { dataset: { seat: String(s) } });
      sec.append(K.el("h3.p-name", { text: players[s] }));
      const cols = K.el("div.p-cols");
      const leftName = players[p.left.against];
      const rightName = players[p.right.against];
      cols.append(K.el("div.p-head.left", { text: "← " + leftName }));
      cols.append(K.el("div.p-head.mid", { text: K.T("bule") }));
      cols.append(K.el("div.p-head.right", { text: rightName + " →" }));
      cols.append(column(p.left.supe, "left", `${K.T("supe")} ${leftName}`));
      const mid = K.el("div.p-mid");
      mid.append(refeMarks(p.refe || { open: 0, played: 0 }));
      mid.append(column(p.bule, "bule", K.T("bule")));
      if (p.kapa) mid.append(K.el("span.kapa", { role: "img", "aria-label": K.T("kapa"), title: K.T("kapa") }));
      cols.append(mid);
      cols.append(column(p.right.supe, "right", `${K.T("supe")} ${rightName}`));
      sec.append(cols);
      if (result && result.results) {
        const place = result.places ? result.places[s] : null;
        const r = reckon(result, s);
        // how the number is made (section 15): 10 x bule + supe written to him - supe he wrote
        const calc = r.bule === null ? null : `= 10 × ${r.bule} + ${r.against} − ${r.wrote}`;
        sec.append(K.el("p.p-result", null, K.T("result") + ": ",
          K.el("b", { text: String(result.results[s]) }),
          calc ? K.el("small.p-calc", { text: " " + calc }) : null,
          result.finished && place ? K.el("span.p-place" + (place === 1 ? ".first" : ""), { text: ` · ${place}. ${K.T("Place").toLowerCase()}` }) : null));
      }
      grid.append(sec);
    });
    wrap.append(grid);
    if (opts && opts.reckoning && result && result.finished) {
      const why = S.endedBy(result);
      if (why) wrap.append(K.el("p.ended-by", { text: why }));
      wrap.append(S.reckoning(players, result));
    }
    else if (result && result.results) wrap.append(explainResult());
    return wrap;
  };

  /* The final reckoning of a preferans partie in the familiar form: per player 10 x bule,
     the supe written to him (+) and by him (-) with each opponent, the total and the place. */
  S.reckoning = function (players, result) {
    const table = K.el("table.reckoning", { "aria-label": K.T("Final reckoning") },
      K.el("caption", { text: K.T("Final reckoning") }));
    const head = K.el("tr", null, K.el("th", { scope: "col" }));
    players.forEach((p) => head.append(K.el("th", { scope: "col", text: p })));
    table.append(K.el("thead", null, head));
    const body = K.el("tbody");
    const rows = [
      ["bule", K.T("Bule × 10"), (r) => [`${r.bule} × 10 = `, K.el("b", { text: String(10 * r.bule) })]],
      ["against", K.T("Supe against him (+)"),
        (r, s) => [K.el("b", { text: r.against ? "+" + r.against : "0" }), ...r.others.map((j) => K.el("small", { text: `${players[j]} ${result.supe[j][s]}` }))]],
      ["for", K.T("His supe (−)"),
        (r, s) => [K.el("b", { text: r.wrote ? "−" + r.wrote : "0" }), ...r.others.map((j) => K.el("small", { text: `${players[j]} ${result.supe[s][j]}` }))]],
    ];
    rows.forEach(([key, label, cell]) => {
      const tr = K.el("tr", { dataset: { row: key } }, K.el("th", { scope: "row", text: label }));
      players.forEach((_, s) => tr.append(K.el("td", null, ...cell(reckon(result, s), s))));
      body.append(tr);
    });
    const total = K.el("tr.total", { dataset: { row: "result" } }, K.el("th", { scope: "row", text: K.T("result") }));
    result.results.forEach((x) => total.append(K.el("td", null, K.el("b", { text: String(x) }))));
    const places = K.el("tr.places", { dataset: { row: "place" } }, K.el("th", { scope: "row", text: K.T("Place") }));
    result.places.forEach((x) => places.append(K.el("td" + (x === 1 ? ".first" : ""), { text: x + "." })));
    body.append(total, places);
    table.append(body);
    return K.el("div.reckoning-box", null, table, explainResult());
  };

  const SUIT_OF_CONTRACT = { pik: "S", karo: "D", herc: "H", tref: "C" };

  /* The hand-by-hand list of a preferans partie: one row per line of the papir (contract,
     declarer, who followed how, tricks, passed or fell, v). */
  S.hands = function (players, papir) {
    const lines = (papir && papir.lines) || [];
    if (!lines.length) return K.el("p.muted.hand-list-empty", { text: K.T("No hands yet.") });
    const table = K.el("table.hand-list", { "aria-label": K.T("Hands") });
    table.append(K.el("thead", null, K.el("tr", null, K.el("th", { scope: "col", text: "#" }),
      ...[K.T("declarer"), K.T("Contract"), K.T("tricks"), K.T("Outcome")].map((h) => K.el("th.cap", { scope: "col", text: h })),
      K.el("th", { scope: "col", text: "v" }))));
    const body = K.el("tbody");
    const name = (s) => players[s];
    lines.forEach((l) => {
      const no = l.dealer !== undefined ? String(l.deal + 1) : "";  // a hand's line (not one between hands)
      const tr = K.el("tr.hl-" + (l.kind || "line").replace(/\s+/g, "-"), { dataset: { deal: String(l.deal !== undefined ? l.deal : "") } },
        no ? analysisCell(K.el("td.num", { text: no }), l.deal) : K.el("td.num", { text: no }));
      if (l.declarer === undefined || l.declarer === null) {
        // between hands: all passed (refe), odlazak u bulu, a fall returned, the otpis
        let text = l.kind;
        if (l.kind === "refe") text = `${K.T("All passed")}: ${K.T("refe")}` + (l.refe_to && l.refe_to.length ? ` (${l.refe_to.map(name).join(", ")})` : "");
        else if (l.kind === "odlazak u bulu") text = `${K.T("Odlazak u bulu")}: ${K.T("{name} takes over the fall", { name: name(l.by) })} (${name(l.fallen)}, ${l.v})`;
        else if (l.kind === "vracen pad") text = K.T("{name} returns the fall", { name: name(l.by) }) + ` (${l.v})`;
        else if (l.kind === "otpis") text = `${S.otpisTitle(l)}: ` + l.shares.map((x, s) => `${name(s)} −${x}`).join(", ");
        tr.append(K.el("td.hl-note", { colspan: "5", text }));
        body.append(tr);
        return;
      }
      const suit = SUIT_OF_CONTRACT[l.contract.replace(/^igra-/, "")];
      const contract = K.el("td.hl-contract", null, suit ? K.cards.suitSpan(suit) : null, suit ? " " : null, l.contract);
      // who followed how, and what doubled the hand
      const how = [];
      if (l.kontra_by !== null && l.kontra_by !== undefined) how.push(`${K.T("kontra")}: ${name(l.kontra_by)}` + (l.kontra === 4 ? `, ${K.T("rekontra")}` : ""));
      if (l.refe_factor > 1) how.push(`${K.T("refe")} ×2`);
      if (l.caller !== null && l.caller !== undefined) how.push(K.T("{caller} calls {called}", { caller: name(l.caller), called: name(l.called) }));
      if (l.single !== null && l.single !== undefined) how.push(`${K.T("plays alone")}: ${name(l.single)}`);
      if (how.length) contract.append(K.el("small.hl-how", { text: how.join(" · ") }));
      let tricks = "—";
      let detail = null;
      if (l.tricks) {
        const opp = (l.in_play || [0, 1, 2]).filter((s) => s !== l.declarer);
        tricks = `${l.tricks[l.declarer]} : ${opp.reduce((n, s) => n + l.tricks[s], 0)}`;
        detail = opp.map((s) => `${name(s)} ${l.tricks[s]}`).join(", ");
      } else if (l.kind === "prolaz") detail = l.end === "not played" ? K.T("Not played") : K.T("Nobody followed");
      let outcome;
      if (l.kind === "refe") outcome = `${K.T("Not played")}: ${K.T("refe")}`;
      else outcome = l.passed ? `✓ ${K.T("passed")}` : `✗ ${K.T("fell")}`;
      const out = K.el("td.hl-outcome" + (l.passed ? ".passed" : l.kind === "refe" ? "" : ".fell"), { text: outcome });
      if (l.falls && l.falls.length) out.append(K.el("small", { text: " · " + l.falls.map((s) => K.T("{name} fell", { name: name(s) })).join(", ") }));
      if (l.ponuda) out.append(K.el("small", { text: ` · ${K.T("word:" + l.ponuda.replace(/ \d$/, ""))}${/\d$/.test(l.ponuda) ? " " + l.ponuda.slice(-1) : ""}` }));
      tr.append(K.el("td.hl-declarer", { text: name(l.declarer) }), contract,
        K.el("td.hl-tricks", null, tricks, detail ? K.el("small", { text: detail }) : null), out,
        K.el("td.hl-v", { text: String(l.v) }));
      body.append(tr);
    });
    table.append(body);
    return K.el("div.hand-list-box", null, table);
  };

  /* A deal's bets (Libyan Lora), one line: "Ana 2 (kontra Boki, rekontra)". */
  function betsLine(players, bets) {
    const said = (bets || []).map((b, s) => [b, s]).filter(([b]) => b.word && b.word !== "ne kladim");
    if (!said.length) return null;
    const text = said.map(([b, s]) => {
      let t = `${players[s]} ${b.word.slice(7)}`;
      if (b.kontra_by !== null) t += ` (kontra ${players[b.kontra_by]}${b.rekontra ? ", rekontra" : ""})`;
      return t;
    }).join(" · ");
    return K.el("small.deal-bets", { text: `${K.T("Bet")}: ${text}` });
  }

  /* The deals of Lora or Lórum played so far, the last first: contract, dealer, what each
     player got in that deal (and the bank's change). */
  S.deals = function (players, result, pointsOf, plan) {
    plan = plan || S.plan(null);
    const deals = (result && result.deals) || [];
    if (!deals.length) return K.el("p.muted.hand-list-empty", { text: K.T("No deals yet.") });
    const table = K.el("table.hand-list.deal-list", { "aria-label": K.T("Deals played") });
    const head = K.el("tr", null, K.el("th", { scope: "col", text: "#" }), K.el("th", { scope: "col", text: K.T("Contract") }));
    players.forEach((p) => head.append(K.el("th", { scope: "col", text: p })));
    const bank = deals.some((d) => "bank" in d);
    if (bank) head.append(K.el("th", { scope: "col", text: K.T("Bank") }));
    table.append(K.el("caption", { text: K.T("Deals played, the last first") }), K.el("thead", null, head));
    const body = K.el("tbody");
    deals.map((d, k) => [d, k]).reverse().forEach(([d, k]) => {
      const [dealer, name] = plan.rows[k] || [Math.floor(k / 7), S.contract(k)];
      const tr = K.el("tr", { dataset: { deal: String(k) } }, analysisCell(K.el("td.num", { text: String(k + 1) }), k),
        K.el("td.hl-contract", null, name, K.el("small", { text: `${K.T("dealer")}: ${players[dealer]}` }),
          betsLine(players, plan.bets && plan.bets[k])));
      pointsOf(d).forEach((x) => tr.append(K.el("td.dl-pts", { text: x ? signed(x) : "0" })));
      if (bank) tr.append(K.el("td.dl-pts", { text: d.bank ? signed(d.bank) : "0" }));
      body.append(tr);
    });
    table.append(body);
    return K.el("div.hand-list-box", null, table);
  };

  /* Tabs (the sheet and the hand-by-hand list): tabs [{key, label, body}]; the choice is
     kept per name while the page lives. */
  const chosen = {};
  S.tabs = function (name, tabs) {
    const key = tabs.some((t) => t.key === chosen[name]) ? chosen[name] : tabs[0].key;
    const hadFocus = document.activeElement && document.activeElement.closest && document.activeElement.closest(`[data-tabs="${name}"]`);
    const list = K.el("div.sheet-tabs", { role: "tablist", dataset: { tabs: name } });
    const box = K.el("div.tabs-box", null, list);
    const buttons = tabs.map((t) => K.el("button.tab-button", {
      type: "button", role: "tab", id: `tab-${name}-${t.key}`, dataset: { tab: t.key },
      "aria-selected": t.key === key ? "true" : "false", "aria-controls": `panel-${name}-${t.key}`, tabindex: t.key === key ? "0" : "-1",
      onclick: () => show(t.key, true),
    }, t.label));
    const panels = tabs.map((t) => K.el("div.tab-panel", {
      role: "tabpanel", id: `panel-${name}-${t.key}`, "aria-labelledby": `tab-${name}-${t.key}`, hidden: t.key !== key,
    }, t.body));
    let cur = key;
    function show(k, focus) {
      chosen[name] = cur = k;
      tabs.forEach((t, i) => {
        const on = t.key === k;
        buttons[i].setAttribute("aria-selected", on ? "true" : "false");
        buttons[i].tabIndex = on ? 0 : -1;
        panels[i].hidden = !on;
        if (on && focus) buttons[i].focus();
      });
    }
    list.addEventListener("keydown", (ev) => {
      if (ev.key !== "ArrowLeft" && ev.key !== "ArrowRight") return;
      ev.preventDefault();
      const i = tabs.findIndex((t) => t.key === cur);
      show(tabs[(i + (ev.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length].key, true);
    });
    list.append(...buttons);
    box.append(...panels);
    // a redrawn panel keeps the keyboard on its tab (the caller puts the box in the page first)
    if (hadFocus) queueMicrotask(() => { const b = box.querySelector('[aria-selected="true"]'); if (b && b.isConnected) b.focus(); });
    return box;
  };

  /* The side panel of a table: the tabs in #sheet; on a narrow screen a button at the top of
     the table opens the panel over the table (and one in the panel goes back). */
  S.side = function (ui, label, tabs) {
    K.clear(ui.sheet).append(S.tabs("side", tabs));
    if (document.getElementById("side-toggle")) return;
    const side = ui.sheet.closest(".side");
    const wrap = side && side.parentNode;
    if (!wrap || !ui.app) return;
    const open = (on) => {
      ui.app.classList.toggle("side-open", on);
      toggle.setAttribute("aria-expanded", on ? "true" : "false");
      (on ? back : toggle).focus();
    };
    const toggle = K.el("button.btn.side-toggle", { type: "button", id: "side-toggle", "aria-controls": side.id, "aria-expanded": "false",
      onclick: () => open(!ui.app.classList.contains("side-open")) }, label);
    const back = K.el("button.btn.side-close", { type: "button", onclick: () => open(false) }, "← " + K.T("Back to the table"));
    side.prepend(back);
    side.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && ui.app.classList.contains("side-open")) open(false); });
    wrap.parentNode.insertBefore(K.el("div.side-toggle-bar", null, toggle), wrap);
  };
})();
