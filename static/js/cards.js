/* Klub: cards drawn in HTML/CSS, with text labels for screen readers. */
"use strict";
(function () {
  const K = window.Klub;
  const RANKS = "789TJQKA";
  const SUITS = "SDHC";
  const SYMBOL = { S: "♠", D: "♦", H: "♥", C: "♣" };
  const SUIT_WORD = { S: "spades", D: "diamonds", H: "hearts", C: "clubs" };
  const RANK_LABEL = { T: "10", J: "J", Q: "Q", K: "K", A: "A" };
  const RANK_WORD = { J: "jack", Q: "queen", K: "king", A: "ace" };
  // Display order of the suits in a hand: colours alternate.
  const HAND_SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };
  // Pip positions (x %, y %) of the number cards.
  const COL = [27, 73];
  const PIPS = {
    "7": [[COL[0], 18], [COL[1], 18], [50, 34], [COL[0], 50], [COL[1], 50], [COL[0], 82], [COL[1], 82]],
    "8": [[COL[0], 18], [COL[1], 18], [50, 34], [COL[0], 50], [COL[1], 50], [50, 66], [COL[0], 82], [COL[1], 82]],
    "9": [[COL[0], 18], [COL[1], 18], [COL[0], 39], [COL[1], 39], [50, 50], [COL[0], 61], [COL[1], 61], [COL[0], 82], [COL[1], 82]],
    "T": [[COL[0], 18], [COL[1], 18], [50, 29], [COL[0], 39], [COL[1], 39], [COL[0], 61], [COL[1], 61], [50, 71], [COL[0], 82], [COL[1], 82]],
  };

  const C = (K.cards = {});
  C.SYMBOL = SYMBOL;
  C.SUIT_WORD = SUIT_WORD;
  C.rank = (card) => RANKS.indexOf(card[0]);
  C.suit = (card) => card[1];
  C.suitIndex = (card) => SUITS.indexOf(card[1]);
  C.rankLabel = (card) => RANK_LABEL[card[0]] || card[0];

  C.label = function (card) {
    const r = card[0];
    const rank = RANK_WORD[r] ? K.T(RANK_WORD[r]) : RANK_LABEL[r] || r;
    const suit = K.T(SUIT_WORD[card[1]]);
    return K.lang === "en" ? `${rank} ${K.T("of")} ${suit}` : `${rank} ${suit}`;
  };

  /* A hand sorted by suit (alternating colours) and rank, highest first. */
  C.sortHand = function (cards) {
    return [...cards].sort((a, b) =>
      HAND_SUIT_ORDER[a[1]] - HAND_SUIT_ORDER[b[1]] || C.rank(b) - C.rank(a));
  };

  function face(card) {
    const s = card[1];
    const r = card[0];
    const sym = SYMBOL[s];
    const parts = [];
    const corner = () => K.el("span.c-corner", { "aria-hidden": "true" },
      K.el("span.c-rank", { text: C.rankLabel(card) }), K.el("span.c-suit", { text: sym }));
    parts.push(corner());
    if (PIPS[r]) {
      const field = K.el("span.c-field", { "aria-hidden": "true" });
      for (const [x, y] of PIPS[r]) {
        const p = K.el("span.c-p" + (y > 55 ? ".down" : ""), { text: sym });
        p.style.left = x + "%";
        p.style.top = y + "%";
        field.append(p);
      }
      parts.push(field);
    } else if (r === "A") {
      parts.push(K.el("span.c-ace", { "aria-hidden": "true", text: sym }));
    } else {
      parts.push(K.el("span.c-court", { "aria-hidden": "true" },
        K.el("span.c-court-letter", { text: r }), K.el("span.c-court-suit", { text: sym })));
    }
    const bottom = corner();
    bottom.classList.add("c-bottom");
    parts.push(bottom);
    return parts;
  }

  /* A face-up card; a <button> when opts.button (then opts.onplay is called on click). */
  C.card = function (card, opts) {
    opts = opts || {};
    const cls = `card.face.s-${card[1]}.r-${card[0]}` + (opts.small ? ".small" : "") + (opts.cls ? "." + opts.cls : "");
    const tag = opts.button ? "button" : "span";
    // A card to play is named by its text (a screen's hidden words; the face is aria-hidden),
    // so its name holds no letter the face does not show (WCAG 2.5.3, axe's label-content-name-mismatch).
    const e = K.el(`${tag}.${cls}`, {
      "aria-label": opts.button ? null : C.label(card),
      title: C.label(card),
      role: opts.button ? null : "img",
      type: opts.button ? "button" : null,
      dataset: { card },
    }, opts.button ? K.el("span.sr-only", { text: C.label(card) }) : null, face(card));
    if (opts.button) {
      if (opts.disabled) { e.disabled = true; e.classList.add("illegal"); } else e.classList.add("legal");
      if (opts.onplay) e.addEventListener("click", () => opts.onplay(card, e));
    }
    return e;
  };

  C.back = function (opts) {
    opts = opts || {};
    return K.el("span.card.back" + (opts.small ? ".small" : ""), { "aria-hidden": "true" });
  };

  /* A row of face-down cards: n of them. */
  C.backs = function (n, label) {
    const row = K.el("span.backs", { role: "img", "aria-label": label || String(n) });
    for (let i = 0; i < n; i++) row.append(C.back({ small: true }));
    return row;
  };

  /* Suit symbol with its colour and a text label. */
  C.suitSpan = function (letter) {
    return K.el(`span.suit.s-${letter}`, { title: K.T(SUIT_WORD[letter]) },
      K.el("span", { "aria-hidden": "true", text: SYMBOL[letter] }),
      K.el("span.sr-only", { text: K.T(SUIT_WORD[letter]) }));
  };

  /* Which card takes a trick: highest of the led suit, or highest trump. */
  C.trickWinner = function (plays, trumpLetter) {
    let [bestSeat, best] = plays[0];
    for (const [seat, card] of plays.slice(1)) {
      if (card[1] === best[1]) {
        if (C.rank(card) > C.rank(best)) { bestSeat = seat; best = card; }
      } else if (trumpLetter && card[1] === trumpLetter) {
        bestSeat = seat; best = card;
      }
    }
    return bestSeat;
  };
})();
