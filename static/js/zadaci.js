/* Klub: a problem (zadatak, issue 41) on a table like the real one. The position is drawn
   as the archive's replay draws a step (every hand face up, the game's own middle, layout
   and extras from Klub.games[code].replay); the seat to decide has its choices as buttons
   (its cards, or the words). The answer goes to POST /api/zadaci/{id}/answer; the verdict
   (best or not, every choice against the best, the line's next step, the replay's link)
   is drawn below at once. */
"use strict";
(function () {
  const K = window.Klub;
  const C = K.cards;
  const data = document.getElementById("zadatak-data");
  const P = data ? JSON.parse(data.textContent || "null") : null;
  if (!P) return;
  const own = JSON.parse((document.getElementById("zadaci-strings") || {}).textContent || "{}");
  const Z = (id, values) => {
    let text = Object.prototype.hasOwnProperty.call(own, id) ? own[id] : id;
    if (values) text = text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
    return text;
  };
  const G = (K.games && K.games[P.game]) || {};
  const R = G.replay || {};
  const CARD_RE = /^[2-9TJQKA][SHDC]$/;
  const lang = K.lang === "en" ? "en" : "sr";
  const board = document.getElementById("zadatak-board");
  const panel = document.getElementById("zadatak-verdict");
  const players = P.players;
  let answered = false;

  function wordText(w) {
    if (R.word) { const shown = R.word(w); if (shown) return shown; }
    if (G.wordText) return G.wordText(w);
    return K.T("word:" + w);
  }

  function wordNode(w) {
    return CARD_RE.test(w) ? C.card(w, { small: true }) : K.el("span.word", { text: wordText(w) });
  }

  function choose(w) {
    if (answered) return;
    answered = true;
    board.querySelectorAll("button.choice").forEach((b) => { b.disabled = true; });
    fetch(`/api/zadaci/${P.id}/answer?lang=${lang}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ word: w }),
    }).then((r) => r.json().then((body) => ({ ok: r.ok, body })))
      .then(({ ok, body }) => {
        if (!ok) { answered = false; board.querySelectorAll("button.choice").forEach((b) => { b.disabled = false; }); showError(body); return; }
        verdict(body);
      });
  }

  function showError(body) {
    panel.hidden = false;
    K.clear(panel).append(K.el("p.error", { text: (body && body.error && body.error.message) || "error" }));
  }

  function draw() {
    K.clear(board);
    const t = P.position.table || {};
    const rec = { deal: P.deal, settings: P.settings || {} };
    if (R.title) board.append(K.el("h3.replay-title", { text: R.title(rec, t, players) }));
    const said = P.position.said || [];
    if (said.length) {
      const last = said[said.length - 1];
      board.append(K.el("p.replay-log", { text: `${players[last[0]]}: ${wordText(last[1])}` }));
    }
    const mid = K.el("div.replay-mid");
    const laid = R.layout && R.layout(t, null);
    const drawn = laid ? [laid] : (R.middle ? R.middle(t, null) : null);
    if (drawn) mid.append(...drawn);
    else (t.trick || []).forEach(([s, c]) => mid.append(K.el("span.rt", null, C.card(c, { small: true }), K.el("small", { text: " " + players[s] }))));
    if (R.extra) mid.append(...R.extra(t, players));
    board.append(mid);
    const choices = new Set(P.choices);
    const hands = K.el("div.replay-hands");
    (P.position.hands || []).forEach((cards, s) => {
      const mine = s === P.seat;
      const row = K.el("div.replay-hand" + (mine ? ".acting" : ""), { dataset: { seat: String(s) } },
        K.el("span.rh-name", { text: players[s] + (mine ? ` · ${Z("to play")}` : "") }));
      const cs = K.el("span.rh-cards");
      C.sortHand(cards.slice()).forEach((c) => {
        if (mine && choices.has(c) && !answered) {
          const b = C.card(c, { button: true, small: true, onplay: () => choose(c) });
          b.classList.add("choice");
          cs.append(b);
        } else cs.append(C.card(c, { small: true }));
      });
      row.append(cs);
      if (t.trick_counts) row.append(K.el("small", { text: ` ${K.T("tricks")}: ${t.trick_counts[s]}` }));
      hands.append(row);
    });
    board.append(hands);
    const words = P.choices.filter((w) => !CARD_RE.test(w));
    if (words.length) {
      const box = K.el("div.bid-box.zadatak-words", { role: "group", "aria-label": Z("Choose your word") });
      words.forEach((w) => box.append(K.el("button.btn.choice", { type: "button", dataset: { word: w }, onclick: () => choose(w) }, wordText(w))));
      board.append(box);
    }
  }

  function verdict(v) {
    panel.hidden = false;
    K.clear(panel);
    panel.append(K.el("h2.verdict-title" + (v.correct ? ".best" : ".not-best"), { dataset: { correct: String(v.correct) },
      text: v.correct ? Z("Best!") : Z("Not the best.") }));
    const unit = v.unit_name || v.unit;
    panel.append(K.el("p.verdict-words", null, `${Z("Your word")}: `, wordNode(v.word), ` · ${Z("The best")}: `, wordNode(v.best)));
    if (!v.correct) panel.append(K.el("p.verdict-lost", { text: Z("It lost {n} {unit} against the best.", { n: v.lost, unit }) }));
    const list = K.el("ul.verdict-values", { "aria-label": Z("Every choice against the best") });
    Object.entries(v.values).sort((a, b) => a[1] - b[1]).forEach(([w, n]) => list.append(
      K.el("li" + (w === v.best ? ".best" : "") + (w === v.word ? ".mine" : ""), { dataset: { word: w } }, wordNode(w), ` ${n === 0 ? "0" : "+" + n} ${unit}`)));
    panel.append(K.el("p", { text: Z("Every choice against the best") }), list);
    if (v.line && v.line.length) {
      const line = K.el("p.verdict-line", null, `${Z("The line")}: `);
      v.line.forEach(([s, w], i) => line.append(i ? " → " : "", `${players[s]} `, wordNode(w)));
      panel.append(line);
    }
    panel.append(K.el("p.muted", null, `${Z("Played in the partie")}: `, wordNode(v.played)));
    if (v.counted === false) panel.append(K.el("p.muted.verdict-repeat", { text: Z("Answered before: it counts once.") }));
    if (v.rating) {
      const r = document.getElementById("zadaci-rating");
      if (r) r.textContent = String(v.rating.after);
      panel.append(K.el("p.verdict-rating", { text: `${Z("Rating")}: ${v.rating.before} → ${v.rating.after} · ${Z("Streak")}: ${v.streak}` }));
      const st = document.getElementById("zadaci-streak");
      if (st && v.streak !== undefined) st.textContent = String(v.streak);
    }
    const next = new URL("/zadaci", window.location.origin);
    const here = new URL(window.location.href);
    ["game", "theme"].forEach((k) => { if (here.searchParams.get(k)) next.searchParams.set(k, here.searchParams.get(k)); });
    const flag = K.el("button.btn.small.zadatak-flag", { type: "button", onclick: () => {
      flag.disabled = true;
      fetch(`/api/zadaci/${P.id}/flag`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" })
        .then(() => flag.replaceWith(K.el("span.muted", { text: Z("Flagged, thank you.") })));
    } }, Z("Flag this problem"));
    panel.append(K.el("p.verdict-links", null,
      K.el("a.btn.primary.zadatak-next", { href: next.pathname + next.search }, Z("Next problem")), " ",
      K.el("a.btn.zadatak-replay", { href: v.replay }, Z("The deal's replay")), " ", flag));
    draw();
    const go = panel.querySelector(".zadatak-next");
    if (go) go.focus();
  }

  draw();
  if (P.answered) { answered = true; draw(); verdict({ ...P.answered, counted: false }); }
})();
