/* Klub: the papir of preferans (its descriptor's "sheet"): bule, supe and refe, the final
   reckoning, the hand-by-hand list, the otpis. */
"use strict";
(function () {
  const K = window.Klub;
  const S = K.sheets;
  const analysisCell = S.analysisCell;
  /* A preferans otpis line's title: agreed (P11), or a tournament round's end (P13). */
  S.otpisTitle = (line) => line.reason === "deljenja" ? K.T("Otpis after the round's last hand")
    : line.reason === "rok" ? K.T("Otpis at the round's deadline") : K.T("Otpis");
  /* Why a preferans partie ended, when a tournament round ended it (P13); else null. */
  S.endedBy = (result) => !result ? null
    : result.ended_by === "deljenja" ? K.T("The round's last hand was played: the partie ended by otpis")
    : result.ended_by === "rok" ? K.T("The round's time ran out: the partie ended by otpis") : null;

  function column(values, cls, label) {
    const col = K.el("div.p-col." + cls, { role: "group", "aria-label": label });
    values.forEach((v, i) => {
      col.append(K.el("span.p-val" + (i < values.length - 1 ? ".crossed" : ".last"), { text: String(v) }));
    });
    return col;
  }

  function refeMarks(refe) {
    const box = K.el("div.p-refe", { role: "img", "aria-label": `${K.T("refe")}: ${refe.open} ${K.T("open")}, ${refe.played} ${K.T("played")}` });
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
    const wrap = K.el("div.paper.papir", { role: "group", "aria-label": K.T("Papir") });
    wrap.append(K.el("h2.paper-title", { text: K.T("Papir") }));
    const grid = K.el("div.papir-grid");
    (papir.players || []).forEach((p, s) => {
      const sec = K.el("section.p-player" + (s === mySeat ? ".me" : "") + (p.kapa ? ".has-kapa" : ""), { dataset: { seat: String(s) } });
      sec.append(K.el("h3.p-name", null, K.playerNode(players[s])));
      const cols = K.el("div.p-cols");
      const leftName = players[p.left.against];
      const rightName = players[p.right.against];
      cols.append(K.el("div.p-head.left", { title: leftName }, "← ", K.playerNode(leftName)));
      cols.append(K.el("div.p-head.mid", { text: K.T("bule") }));
      cols.append(K.el("div.p-head.right", { title: rightName }, K.playerNode(rightName), " →"));
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
    const head = K.el("tr", null, K.el("td")); // the corner: no header of its own
    players.forEach((p) => head.append(K.el("th", { scope: "col", title: p }, K.playerNode(p))));
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

})();
