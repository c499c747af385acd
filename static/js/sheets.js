/* Klub: the paper — what every game's score sheet shares (contract names and hints, the
   analysis links, the tabs, the side panel) and the generic sheet of a game without one
   of its own; a game's own sheet is its descriptor's "sheet" script (static/js/games/). */
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
  S.contract = (k) => {
    const names = K.game.contracts || [];
    return names.length ? names[k % names.length] : "";
  };
  /* The key of ``contract_names`` a code is named by in a partie with these settings (as
     GameDescriptor.contract_key); a game's sheet script may set its own. */
  S.contractKey = (code, settings) => code;
  /* A contract by its code (house rules; as GameDescriptor.contract_name); "?" while chosen. */
  S.named = (code, settings) => {
    if (code === null || code === undefined) return "?";
    const names = K.game.contract_names || {};
    return names[S.contractKey(code, settings || null)] || String(code);
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
  function signed(n) { return n > 0 ? "+" + n : String(n); }
  /* For the games' sheet scripts: a number with its sign, a deal's number linked to its analysis. */
  S.signed = signed;
  S.analysisCell = analysisCell;

  /* A plain-table game's own sheet, set by its sheet script: (players, result, current
     deal or null, my seat) -> the sheet; null: S.totals below. */
  S.sheet = null;
  /* The generic sheet (a game without a sheet of its own, static/js/plain.js): a row per
     deal played with each player's points (result.deals[k].points), the totals, the places. */
  S.totals = function (players, result, current, mySeat) {
    const deals = (result && result.deals) || [];
    const table = K.el("table.plain-sheet", { "aria-label": K.T("Score sheet") });
    const head = K.el("tr", null, K.el("th", { scope: "col", text: "#" }));
    players.forEach((p, i) => head.append(K.el("th" + (i === mySeat ? ".me" : ""), { scope: "col", title: p }, K.playerNode(p))));
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
    // the page keeps the button's place (#side-toggle-bar, templates/table.html): no shift when it comes
    const bar = document.getElementById("side-toggle-bar");
    if (bar) bar.append(toggle);
    else wrap.parentNode.insertBefore(K.el("div.side-toggle-bar", null, toggle), wrap);
  };
})();
