/* Klub: the archive — the final score sheet and the hand-by-hand replay (all hands face up). */
"use strict";
(function () {
  const K = window.Klub;
  const C = K.cards;
  const data = JSON.parse(document.getElementById("sheet-data").textContent);
  const sheet = document.getElementById("final-sheet");
  const CARD_RE = /^[789TJQKA][SDHC]$/;
  const players = data.players;

  const G = K.games[data.game];
  if (data.view) sheet.append(G.finalSheet(players, data.view));

  const box = document.getElementById("replay");
  const partie = box.dataset.partie;
  const st = { deal: null, step: 0, rec: null };

  async function load(deal) {
    const q = deal === null ? "" : `?deal=${deal}`;
    const r = await fetch(`/ui/api/parties/${partie}/replay${q}`);
    if (!r.ok) { K.clear(box).append(K.el("p.muted", { text: K.T("Error") })); return; }
    st.rec = await r.json();
    st.deal = st.rec.deal;
    st.step = 0;
    draw();
  }

  function word(w) {
    if (CARD_RE.test(w)) return C.label(w);
    if (w.startsWith("skart ")) return `${K.T("Škart")}: ${w.slice(6)}`;
    return w;
  }

  function button(step, label, disabled) {
    return K.el("button.btn.small", { type: "button", dataset: { step }, disabled: disabled ? true : null,
      onclick: () => go(step) }, label);
  }

  function go(step) {
    const n = st.rec.steps.length;
    if (step === "start") st.step = 0;
    else if (step === "prev") st.step = Math.max(0, st.step - 1);
    else if (step === "next") st.step = Math.min(n - 1, st.step + 1);
    else if (step === "end") st.step = n - 1;
    else if (step === "prev-deal" && st.deal > 0) return load(st.deal - 1);
    else if (step === "next-deal" && st.deal < st.rec.deals - 1) return load(st.deal + 1);
    draw();
    const again = box.querySelector(`button[data-step="${step}"]`);
    if (again && !again.disabled) again.focus();
  }

  function draw() {
    const rec = st.rec;
    K.clear(box);
    if (!rec || rec.deal === null) { box.append(K.el("p", { text: K.T("No deals yet.") })); return; }
    const steps = rec.steps;
    const cur = steps[st.step];
    const t = cur.table;
    const R = G.replay;
    const title = R.title(rec, t, players);
    box.append(K.el("h3.replay-title", { text: title }));
    const bar = K.el("div.replay-bar", { role: "toolbar", "aria-label": K.T("Step") },
      button("prev-deal", "◀◀ " + K.T("Previous deal"), st.deal === 0),
      button("start", K.T("Start"), st.step === 0),
      button("prev", "◀ " + K.T("Back"), st.step === 0),
      K.el("span.step-no", { "aria-live": "polite", text: `${K.T("Step")} ${st.step} / ${steps.length - 1}` }),
      button("next", K.T("Forward") + " ▶", st.step === steps.length - 1),
      button("end", K.T("End"), st.step === steps.length - 1),
      button("next-deal", K.T("Next deal") + " ▶▶", st.deal >= rec.deals - 1));
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
    const drawn = R.middle(t, cur.action);
    if (drawn) mid.append(...drawn);
    else {
      trick.forEach(([s, c]) => mid.append(K.el("span.rt", null, C.card(c, { small: true, cls: s === acting ? "just" : null }), K.el("small", { text: " " + players[s] }))));
    }
    if (R.extra) mid.append(...R.extra(t));
    box.append(mid);
    const hands = K.el("div.replay-hands");
    cur.hands.forEach((cards, s) => {
      const row = K.el("div.replay-hand" + (s === acting ? ".acting" : ""), { dataset: { seat: String(s) } },
        K.el("span.rh-name", { text: players[s] }));
      const cs = K.el("span.rh-cards");
      C.sortHand(cards).forEach((c) => cs.append(C.card(c, { small: true })));
      row.append(cs);
      if (t.trick_counts) row.append(K.el("small", { text: `${K.T("tricks")}: ${t.trick_counts[s]}` }));
      if (R.pointsAtEnd && t.points && st.step === steps.length - 1) row.append(K.el("b", { text: ` ${t.points[s] > 0 ? "+" : ""}${t.points[s]}` }));
      hands.append(row);
    });
    box.append(hands);
  }

  box.addEventListener("keydown", (ev) => {
    if (!st.rec) return;
    if (ev.key === "ArrowRight") { ev.preventDefault(); go("next"); }
    else if (ev.key === "ArrowLeft") { ev.preventDefault(); go("prev"); }
  });
  box.tabIndex = 0;
  load(data.status === "finished" ? 0 : null);
})();
