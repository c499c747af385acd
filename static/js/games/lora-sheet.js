/* Klub: the sheets of Lora and Lórum (their descriptors' "sheet"): the 28 rows of points
   or chips (with the bank), the rows of house rules, the deals played, the last first. */
"use strict";
(function () {
  const K = window.Klub;
  const S = K.sheets;
  const signed = S.signed;
  const analysisCell = S.analysisCell;
  /* Lora's names that depend on the settings (as app/games/lora/descriptor.py's contract_key):
     ``kralj`` with kralj_sesti counts the 6th trick; Libyan ``sesti`` of three players is the 8th. */
  S.contractKey = (code, settings) => (code === "kralj" && settings && settings.kralj_sesti ? "kralj_sesti"
    : code === "sesti" && settings && settings.igraca === 3 ? "sesti3" : code);

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


  /* Points (Lora): players[4], result {deals, totals, places}, current deal index or null;
     plan: S.plan(view) (the rows and which way the points count). */
  S.points = function (players, result, current, mySeat, plan) {
    plan = plan || S.plan(null);
    const deals = (result && result.deals) || [];
    const table = K.el("table.lora-sheet", { "aria-label": K.T("Score sheet") });
    const head = K.el("tr", null, K.el("th", { scope: "col", text: "#" }), K.el("th", { scope: "col", text: K.T("Contract") }));
    players.forEach((p, i) => head.append(K.el("th" + (i === mySeat ? ".me" : ""), { scope: "col", title: p }, K.playerNode(p))));
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
    players.forEach((p, i) => head.append(K.el("th" + (i === mySeat ? ".me" : ""), { scope: "col", title: p }, K.playerNode(p))));
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
    players.forEach((p) => head.append(K.el("th", { scope: "col", title: p }, K.playerNode(p))));
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

})();
