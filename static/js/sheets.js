/* Klub: the paper — the sheets of deal-by-deal games (points or chips, 28 rows) and the
   papir of bule, supe and refe. Contract names come from the game's descriptor. */
"use strict";
(function () {
  const K = window.Klub;
  const S = (K.sheets = {});
  S.contract = (k) => {
    const names = K.game.contracts || [];
    return names.length ? names[k % names.length] : "";
  };

  function signed(n) { return n > 0 ? "+" + n : String(n); }

  /* Points (Lora): players[4], result {deals, totals, places}, current deal index or null. */
  S.points = function (players, result, current, mySeat) {
    const deals = (result && result.deals) || [];
    const table = K.el("table.lora-sheet", { "aria-label": K.T("Score sheet") });
    const head = K.el("tr", null, K.el("th", { scope: "col", text: "#" }), K.el("th", { scope: "col", text: K.T("Contract") }));
    players.forEach((p, i) => head.append(K.el("th" + (i === mySeat ? ".me" : ""), { scope: "col", text: p })));
    table.append(K.el("thead", null, head));
    const body = K.el("tbody");
    const running = [0, 0, 0, 0];
    for (let k = 0; k < 28; k++) {
      const dealer = Math.floor(k / 7);
      const row = K.el("tr" + (k % 7 === 0 ? ".dealer-start" : "") + (k === current ? ".current" : ""),
        { dataset: { deal: String(k) }, "aria-current": k === current ? "true" : null });
      row.append(K.el("td.num", { text: String(k + 1) }));
      row.append(K.el("td.contract", { title: `${S.contract(k)} · ${K.T("dealer")}: ${players[dealer]}` }, S.contract(k)));
      const d = deals[k];
      for (let s = 0; s < 4; s++) {
        if (d) {
          running[s] += d.points[s];
          const cell = K.el("td.pts" + (s === dealer ? ".dealer-col" : "") + (d.points[s] > 0 ? ".bad" : d.points[s] < 0 ? ".good" : ""),
            { title: signed(d.points[s]) },
            K.el("span.run", { text: String(running[s]) }),
            d.points[s] ? K.el("small.delta", { text: signed(d.points[s]) }) : null);
          row.append(cell);
        } else row.append(K.el("td.pts.empty" + (s === dealer ? ".dealer-col" : "")));
      }
      body.append(row);
    }
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
  S.chips = function (players, result, current, mySeat) {
    const deals = (result && result.deals) || [];
    const table = K.el("table.lora-sheet.lorum-sheet", { "aria-label": K.T("Score sheet") });
    const head = K.el("tr", null, K.el("th", { scope: "col", text: "#" }), K.el("th", { scope: "col", text: K.T("Contract") }));
    players.forEach((p, i) => head.append(K.el("th" + (i === mySeat ? ".me" : ""), { scope: "col", text: p })));
    head.append(K.el("th.bank-col", { scope: "col", title: K.T("Bank after the deal"), text: K.T("Bank") }));
    table.append(K.el("thead", null, head));
    const body = K.el("tbody");
    const running = [0, 0, 0, 0];
    let bank = 0;
    for (let k = 0; k < 28; k++) {
      const dealer = Math.floor(k / 7);
      const title = S.contract(k);
      const row = K.el("tr" + (k % 7 === 0 ? ".dealer-start" : "") + (k === current ? ".current" : ""),
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

  /* Preferans: players[3], papir {players: [...], lines}, result {results, places, finished}. */
  S.papir = function (players, papir, result, mySeat, current) {
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
        sec.append(K.el("p.p-result", null, K.T("result") + ": ",
          K.el("b", { text: String(result.results[s]) }),
          result.finished && place ? K.el("span.p-place" + (place === 1 ? ".first" : ""), { text: ` · ${place}. ${K.T("Place").toLowerCase()}` }) : null));
      }
      grid.append(sec);
    });
    wrap.append(grid);
    return wrap;
  };
})();
