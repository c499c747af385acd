/* Klub: a live table — the connection, the event queue (with a pause to see a finished
   trick), seats, my hand, keyboard play, timer, sound, the last trick, errors, chat.
   The game modules draw the rest. */
"use strict";
(function () {
  const K = window.Klub;
  const app = document.getElementById("table-app");
  if (!app) return;
  const game = app.dataset.game;
  const G = K.games[game];
  const n = Number(app.dataset.seats) || G.nSeats; // the partie's own (Libyan Lora: 3 or 4)
  const $ = (id) => document.getElementById(id);
  const CARD_RE = /^[789TJQKA][SDHC]$/;
  const ui = {
    app, info: $("table-info"), center: $("center"), controls: $("controls"), hand: $("hand"),
    status: $("status-line"), sheet: $("sheet"), lastDeal: $("last-deal"), banner: $("conn-banner"),
    error: $("table-error"), errorText: $("table-error-text"), timeout: $("timeout-note"), watchers: $("watchers"), lastTrickBtn: $("last-trick-button"),
    lastTrick: $("last-trick"), chat: $("chat"), chatJump: $("chat-jump"), chatUnread: $("chat-unread"),
    seats: n === 4 ? [$("seat-me"), $("seat-right"), $("seat-top"), $("seat-left")]
                   : [$("seat-me"), $("seat-right"), $("seat-left")],
  };
  if (n === 3) $("seat-top").remove();

  const ctl = (K.table = {
    partie: Number(app.dataset.partie), game, me: app.dataset.me, n,
    seat: null, seats: [], status: "proposed", settings: {}, timer: null,
    view: null, legal: [], toAct: [], maySpeakSeats: [], deadline: null, finished: false, version: 0,
    pausing: null, sending: null, message: null, error: null, selected: new Set(),
    held: null, seenTrick: null, lastTrickOpen: false, unread: 0, watchers: [], timeout: null,
    trickPause: Number(app.dataset.trickPause || 1500),
    renders: 0, // redraws so far (for the tests)
  });
  /* The sheets link each ended deal to its analysis in the archive (the replay at that
     deal, the analysis asked for at once): for the players while the partie runs (only
     they may open it), for everyone once it is over. */
  if (app.dataset.analysis === "1") {
    K.sheets.analysisLink = (k) => (ctl.seat !== null || ctl.finished
      ? `/archive/${ctl.partie}#deal=${k + 1}&step=0&analysis=1` : null);
  }
  ctl.base = () => (ctl.seat === null ? 0 : ctl.seat);
  ctl.rel = (s) => (((s - ctl.base()) % n) + n) % n;
  ctl.name = (s) => (ctl.seats[s] && (ctl.seats[s].bot_name ? K.computerShown(ctl.seats[s].bot_name)
    : ctl.seats[s].bot_owner ? K.T("{name} (bot of {owner})", { name: ctl.seats[s].name, owner: ctl.seats[s].bot_owner })
    : ctl.seats[s].name)) || `#${s + 1}`;
  ctl.names = () => Array.from({ length: n }, (_, s) => ctl.name(s));
  /* The turn: the game waits for my seat. Words out of turn (offers, otpis) are not a turn. */
  ctl.myTurn = () => ctl.seat !== null && ctl.toAct.includes(ctl.seat) && ctl.legal.length > 0 && !ctl.finished;
  /* My seat may say something now: its turn, or a word out of turn. */
  ctl.maySpeak = () => ctl.seat !== null && ctl.legal.length > 0 && !ctl.finished;
  ctl.canAct = () => ctl.maySpeak() && !ctl.pausing && !ctl.sending && online;
  ctl.act = function (word) {
    if (!ctl.canAct()) return false;
    const id = live.act(word, ctl.version);
    if (!id) return false;
    ctl.sending = id;
    ctl.message = null;
    showError(null); // a new move replaces the last error
    render();
    setTimeout(() => { if (ctl.sending === id) { ctl.sending = null; render(); } }, 8000);
    return true;
  };
  ctl.say = function (text, kind) {
    if (kind === "error") { showError(text); return; }
    ctl.message = text ? { text, kind: kind || "info" } : null;
    paintStatus();
  };

  let online = false;
  const queue = [];
  let pumping = false;
  let wasMyTurn = false;

  function applyFrame(f) {
    for (const k of ["version", "legal", "deadline", "finished"]) if (k in f) ctl[k] = f[k];
    if ("view" in f) ctl.view = f.view;
    if ("to_act" in f) ctl.toAct = f.to_act || [];
    if ("may_speak" in f) ctl.maySpeakSeats = f.may_speak || [];
    if (!("legal" in f)) ctl.legal = ctl.legal || [];
  }

  const live = new K.Live(ctl.partie, {
    status(s) {
      online = s === "open";
      app.classList.toggle("offline", !online);
      if (s === "reconnecting") {
        ui.banner.hidden = false;
        ui.banner.textContent = K.T("Reconnecting…");
      } else if (s === "open") {
        ui.banner.hidden = true;
      }
      render();
    },
    state(f) {
      queue.length = 0;
      ctl.seat = f.seat;
      ctl.seats = f.seats || ctl.seats;
      ctl.status = f.status;
      ctl.settings = f.settings || {};
      ctl.timer = f.timer;
      ctl.slow = f.slow; // a slow partie's clocks (slow.js)
      ctl.pausing = null;
      ctl.sending = null;
      ctl.held = null;
      if ("watchers" in f) ctl.watchers = f.watchers || [];
      ctl.timeout = f.timeout ? { seat: f.timeout.seat, word: f.timeout.word, deal: f.deal_index } : null;
      ctl.roundUp = f.round_time_up;
      if (!("view" in f)) { ctl.view = null; ctl.legal = []; ctl.toAct = []; ctl.maySpeakSeats = []; ctl.version = f.version; }
      applyFrame(f);
      render();
    },
    event(f) { queue.push(f); pump(); if (ctl.slow) K.slowEvent(); },
    ack(f) { if (ctl.sending === f.id) ctl.sending = null; render(); },
    error(f) {
      if (f.id && ctl.sending === f.id) ctl.sending = null;
      const known = Object.prototype.hasOwnProperty.call(K.strings, `error:${f.code}`);
      showError(known ? K.T(`error:${f.code}`) : `${K.T("Error")}: ${f.message}`);
      render();
    },
    seats(f) {
      // seats, who is away, takeover votes (a new status comes as a state frame)
      ctl.seats = f.seats;
      if ("watchers" in f) ctl.watchers = f.watchers || [];
      if (f.slow) ctl.slow = f.slow;
      if (f.round_time_up) ctl.roundUp = true;
      render();
    },
    watchers(f) { ctl.watchers = f.watchers || []; paintWatchers(); },
    chat(f) { addChat(f.message, true); },
    sessionEnded() {
      ui.banner.hidden = false;
      ui.banner.textContent = K.T("Your session has ended.");
      setTimeout(() => { location.href = "/login?next=" + encodeURIComponent(location.pathname); }, 1500);
    },
  });
  K.live = live;

  /* Events one by one. A finished trick pauses the queue (ctl.trickPause) and then stays on
     the table (ctl.held) until the next card; when a deal ends, the ended deal's header and
     cards are drawn (ctl.view stays the latest; see render) until its last trick has been
     seen, then the next deal. */
  async function pump() {
    if (pumping) return;
    pumping = true;
    try {
      while (queue.length) {
        const ev = queue.shift();
        const prev = ctl.view;
        applyFrame(ev);
        noteTimeout(ev);
        ctl.lastAction = ev.action || null;
        announce(ev.action);
        const pause = prev && G.transition ? G.transition(prev, ev, ctl) : null;
        if (ev.action && CARD_RE.test(ev.action.word)) ctl.held = null;
        if (pause && pause.plays) {
          ctl.seenTrick = { plays: pause.plays, winner: pause.winner };
          ctl.held = pause.dealEnded ? null : ctl.seenTrick;
        } else if (pause && pause.dealEnded) ctl.held = null;
        if (pause && ctl.trickPause > 0 && queue.length < 12) {
          if (pause.dealEnded) Object.assign(pause, { before: prev, after: ctl.view });
          ctl.pausing = pause;
          render();
          await K.sleep(ctl.trickPause * (pause.factor || 1));
          if (ctl.pausing === pause) ctl.pausing = null;
        }
        render();
      }
    } finally {
      pumping = false;
    }
  }

  /* A word the computer said for a player whose time ran out: the table says so to
     everyone until that player speaks again or the deal changes (the server's state
     frame carries the same note after a reload). */
  function noteTimeout(ev) {
    const a = ev.action;
    if (a && a.timer) ctl.timeout = { seat: a.seat, word: a.word, deal: ev.deal_index };
    else if (ctl.timeout && ((a && a.seat === ctl.timeout.seat) || ev.deal_index !== ctl.timeout.deal)) ctl.timeout = null;
  }
  ctl.wordText = function (w) {
    if (CARD_RE.test(w)) return K.cards.label(w);
    if (G.wordText) return G.wordText(w);
    return K.T("word:" + w);
  };
  function paintTimeout() { // a tournament round's deadline passed: that note instead, for good
    const t = ctl.timeout, up = ctl.roundUp && K.T("The round's time is up: the computer finishes the partie");
    K.setIfChanged(ui.timeout, "hidden", !t && !up);
    if (up || !t) { K.setIfChanged(ui.timeout, "textContent", up || ""); return; }
    const values = { word: ctl.wordText(t.word), name: ctl.name(t.seat) };
    K.setIfChanged(ui.timeout, "textContent", CARD_RE.test(t.word)
      ? K.T("Time ran out: the computer played {word} for {name}", values)
      : K.T("Time ran out: the computer said “{word}” for {name}", values));
  }
  /* The members watching the table (not playing at it): their count and names. */
  function paintWatchers() {
    const names = ctl.watchers || [];
    K.setIfChanged(ui.watchers, "hidden", !names.length);
    K.setIfChanged(ui.watchers, "textContent", names.length ? K.T("Watching ({n}): {names}", { n: names.length, names: names.join(", ") }) : "");
  }

  /* Every move said aloud for screen readers: "ana: dama pik". */
  const announcer = $("announce");
  function announce(a) {
    if (!a || !announcer) return;
    const w = a.word;
    const text = CARD_RE.test(w) ? K.cards.label(w) : G.announced ? G.announced(w) : w;
    announcer.textContent = `${ctl.name(a.seat)}: ${text}`;
  }

  /* -- drawing */

  const running = () => !ctl.finished && ctl.status === "running";

  function seatBox(s) {
    const box = ui.seats[ctl.rel(s)];
    const info = ctl.seats[s] || {};
    // put in only where it changed: a box is the same at most events
    const acting = ctl.toAct.includes(s) && running();
    const maySpeak = !acting && s === ctl.seat && ctl.maySpeakSeats.includes(s) && running();
    const classes = [box.className.replace(/\s*(to-act|may-speak|away|computer|is-me)\b/g, "")];
    if (acting) classes.push("to-act");
    if (info.away && !info.computer) classes.push("away");
    if (info.computer) classes.push("computer");
    if (s === ctl.seat) classes.push("is-me");
    if (maySpeak) classes.push("may-speak");
    K.setIfChanged(box, "className", classes.join(" "));
    if (box.dataset.seat !== String(s)) box.dataset.seat = String(s);
    const parts = [];
    const nameRow = K.el("div.seat-name", null,
      K.el("span.name", info.bot_name ? null : { text: ctl.name(s) }, info.bot_name ? K.computerName(info.bot_name) : null),
      s === ctl.seat ? K.el("small.you", { text: ` (${K.T("You")})` }) : null);
    const marks = K.el("div.marks");
    if (info.computer && !info.bot_name) marks.append(K.el("span.mark.bot", { text: K.T("computer") }));
    else if (info.away) marks.append(K.el("span.mark.away-mark", { text: K.T("away") }));
    else if (info.kind === "member") marks.append(K.el("span.mark.online-mark", { role: "img", "aria-label": K.T("online"), title: K.T("online") }));
    if (acting) {
      marks.append(K.el("span.mark.turn", { text: K.T("to act") }));
      if (ctl.deadline) marks.append(K.el("span.timer", { role: "timer", dataset: { deadline: ctl.deadline }, "aria-label": K.T("seconds left") }));
    } else if (maySpeak) {
      marks.append(K.el("span.mark.may-speak-mark", { text: K.T("may speak") }));
    }
    parts.push(nameRow, marks);
    const extra = G.seatExtras ? G.seatExtras(ctl, s) : null;
    if (extra) parts.push(extra);
    const clock = ctl.slow && K.slowSeat(ctl, s, info);
    if (clock) parts.push(clock);
    // Away seat (slow: three timed-out words): the others may hand it to a computer.
    const votable = ctl.slow ? info.timeouts >= ctl.slow.timeouts_for_vote : info.away;
    if (votable && !info.computer && ctl.status === "running") {
      const voters = info.takeover_votes || [];
      const others = ctl.seats.filter((x) => x.seat !== s && !x.computer).length;
      if (voters.length) {
        parts.push(K.el("p.takeover-votes", { text: K.T("{n} of {m} agreed to a computer player", { n: voters.length, m: others }) }));
      }
      if (ctl.seat !== null && s !== ctl.seat) {
        const mine = voters.includes(ctl.seat);
        parts.push(K.el("button.btn.small.takeover", {
          type: "button", disabled: mine ? true : null,
          onclick: () => fetch(`/api/parties/${ctl.partie}/takeover`, {
            method: "POST", headers: { "Content-Type": "application/json" },
            body: JSON.stringify({ seat: s, agree: true }),
          }).then((r) => { if (!r.ok) showError(K.T("Error") + `: ${r.status}`); }),
        }, K.T("Hand over to a computer player"), voters.length ? ` (${voters.length} ${K.T("agreed")})` : ""));
      }
    }
    K.replaceIfChanged(box, parts);
  }

  /* My hand: sorted, only legal cards clickable; arrows choose, Enter plays; keys 1..9, 0.
     A card drawn the same way stays in the DOM (and the focus with it); a changed one is made anew. */
  let handPlay = null; // the latest drawHand's onplay: every card's click calls it
  const handState = new WeakMap(); // card button -> "legal|selected" it was drawn with
  ctl.drawHand = function (cards, legalCards, onplay, opts) {
    opts = opts || {};
    handPlay = onplay;
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
    // The cards of a trick still shown on the table are no longer in the hand.
    const p = ctl.pausing || {};
    const onTable = new Set((p.plays || []).map((x) => x[1]).concat(p.lastCard ? [p.lastCard.word] : []));
    ui.hand.classList.toggle("my-turn", legalCards.size > 0);
    const sorted = K.cards.sortHand(cards.filter((c) => !onTable.has(c)));
    ui.hand.style.setProperty("--n", String(sorted.length));
    const drawn = new Map([...ui.hand.children].map((e) => [e.dataset.card, e]));
    const want = sorted.map((c) => {
      const selected = !!(opts.selected && opts.selected.has(c));
      const state = `${legalCards.has(c)}|${selected}`;
      const old = drawn.get(c);
      if (old && handState.get(old) === state) return old;
      const e = K.cards.card(c, {
        button: true, disabled: !legalCards.has(c), onplay: onplay && ((card, el) => handPlay && handPlay(card, el)),
        cls: selected ? "selected" : null,
      });
      if (selected) e.setAttribute("aria-pressed", "true");
      handState.set(e, state);
      return e;
    });
    // Take out what is not wanted; the cards kept are then in the order wanted (the hand's
    // sort is fixed), so only the new ones are put in, none of the kept ones moved.
    const keep = new Set(want);
    for (const e of [...ui.hand.children]) if (!keep.has(e)) e.remove();
    want.forEach((e, i) => { const at = ui.hand.children[i]; if (at !== e) ui.hand.insertBefore(e, at || null); });
    if (focused && document.activeElement && document.activeElement.dataset.card !== focused) {
      const again = ui.hand.querySelector(`[data-card="${focused}"]:not([disabled])`);
      if (again) again.focus();
    }
  };

  /* A trick: the cards where their players sit; the winner's marked, and named below. */
  ctl.trickArea = function (plays, winner) {
    const area = K.el("div.trick", { role: "group", "aria-label": K.T("tricks") });
    for (const [seat, card] of plays) area.append(K.cards.card(card, { cls: `pos-${ctl.rel(seat)}` + (seat === winner ? " winner" : "") }));
    if (winner !== undefined && winner !== null) area.append(K.el("p.trick-note", { text: K.T("The trick goes to {name}", { name: ctl.name(winner) }) }));
    return area;
  };
  /* The trick in the middle: the one in play, else the last one until the next card. */
  ctl.trickOnTable = function (current) {
    if (current && current.length) return ctl.trickArea(current, null);
    const held = ctl.held;
    return held ? ctl.trickArea(held.plays, held.winner) : ctl.trickArea([], null);
  };

  ui.hand.addEventListener("keydown", (ev) => {
    if (!["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"].includes(ev.key)) return;
    const cards = [...ui.hand.querySelectorAll("button.card:not([disabled])")];
    if (!cards.length) return;
    ev.preventDefault();
    let i = cards.indexOf(document.activeElement);
    if (ev.key === "Home") i = 0;
    else if (ev.key === "End") i = cards.length - 1;
    else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") i = i <= 0 ? cards.length - 1 : i - 1;
    else i = i < 0 || i >= cards.length - 1 ? 0 : i + 1;
    cards[i].focus();
  });

  /* -- the status line and errors */

  function paintStatus() {
    let text = "";
    let kind = "info";
    const waitingFor = ctl.toAct.filter((s) => s !== ctl.seat);
    if (ctl.message) { text = ctl.message.text; kind = ctl.message.kind; }
    else if (ctl.status === "proposed") text = K.T("Waiting for the players");
    else if (ctl.status === "abandoned") text = K.T("The partie was ended before its end");
    else if (ctl.finished) text = K.T("The partie is over");
    else if (ctl.myTurn() && !ctl.pausing) { text = K.T("Your turn"); kind = "turn"; }
    else if (waitingFor.length && !ctl.pausing) {
      const s = waitingFor[0];
      const info = ctl.seats[s] || {};
      text = info.away && !info.computer ? K.T("{name} is away; the table waits for him", { name: ctl.name(s) })
        : K.T("{name} is to act", { name: waitingFor.map(ctl.name).join(", ") });
      if (ctl.seat === null) text = `${K.T("You are watching")} · ${text}`;
      else if (ctl.maySpeak()) { text += ` · ${K.T("you may make an offer meanwhile")}`; kind = "optional"; }
    } else if (ctl.seat === null) text = K.T("You are watching");
    K.setIfChanged(ui.status, "textContent", text);
    K.setIfChanged(ui.status, "className", "status-line " + kind);
    const rematch = $("rematch-form"); // a player's revanš, once the partie is over
    if (rematch) K.setIfChanged(rematch, "hidden", !(ctl.finished && ctl.seat !== null));
    // Leave for good (a computer player takes my seat) while other members play; end the
    // partie at once when nobody else does (app/parties/leaving.py).
    const mine = ctl.seat !== null ? ctl.seats[ctl.seat] || {} : {};
    const playing = ctl.status === "running" && !ctl.finished && ctl.seat !== null && !mine.taken_over;
    const others = ctl.seats.some((x) => x.seat !== ctl.seat && x.kind === "member" && !x.computer);
    const leave = $("leave-choice");
    const end = $("end-choice");
    // a tournament table: leaving is the only way out (data-always)
    if (leave) K.setIfChanged(leave, "hidden", !(playing && (others || "always" in leave.dataset)));
    if (end) K.setIfChanged(end, "hidden", !(playing && !others));
    const back = $("reclaim-form"); // a slow partie: my seat voted to a computer player
    if (back) K.setIfChanged(back, "hidden", !(mine.reclaimable && mine.taken_over && ctl.status === "running"));
  }

  /* An error stays until closed, replaced, or a move. */
  function showError(text) {
    ctl.error = text || null;
    ui.errorText.textContent = ctl.error || "";
    ui.error.hidden = !ctl.error;
  }
  $("table-error-close").addEventListener("click", () => { showError(null); focusDecision(null); });

  /* -- the last trick */

  ctl.lastTrick = function () {
    if (ctl.pausing && ctl.pausing.plays) return { plays: ctl.pausing.plays, winner: ctl.pausing.winner };
    return (G.lastTrick && G.lastTrick(ctl.view)) || ctl.seenTrick;
  };
  function paintLastTrick() {
    const t = ctl.lastTrick();
    K.setIfChanged(ui.lastTrickBtn, "disabled", !t);
    const expanded = ctl.lastTrickOpen && t ? "true" : "false";
    if (ui.lastTrickBtn.getAttribute("aria-expanded") !== expanded) ui.lastTrickBtn.setAttribute("aria-expanded", expanded);
    K.setIfChanged(ui.lastTrick, "hidden", !(ctl.lastTrickOpen && t));
    if (ui.lastTrick.hidden) return;
    const box = K.clear(ui.lastTrick.querySelector(".lt-plays"));
    for (const [seat, card] of t.plays) {
      box.append(K.el("li" + (seat === t.winner ? ".winner" : ""), { dataset: { seat: String(seat), card } },
        K.cards.card(card, { small: true }), K.el("span.lt-name", { text: ctl.name(seat) })));
    }
    ui.lastTrick.querySelector(".lt-winner").textContent = K.T("The trick goes to {name}", { name: ctl.name(t.winner) });
  }
  function toggleLastTrick(open) {
    ctl.lastTrickOpen = open === undefined ? !ctl.lastTrickOpen : open;
    paintLastTrick();
  }
  ui.lastTrickBtn.addEventListener("click", () => toggleLastTrick());
  $("last-trick-close").addEventListener("click", () => { toggleLastTrick(false); ui.lastTrickBtn.focus(); });

  /* -- keyboard: one key per legal word and card, L (last trick), C (chat), Escape */

  const KEYS_KEY = "klub-keys";
  const keysOn = () => localStorage.getItem(KEYS_KEY) !== "off";
  const keysToggle = $("keys-toggle");
  keysToggle.checked = keysOn();
  keysToggle.addEventListener("change", () => { localStorage.setItem(KEYS_KEY, keysToggle.checked ? "on" : "off"); decorateKeys(); });
  const RESERVED = new Set(["l", "c"]);
  const CARD_KEYS = "1234567890-=";
  let keymap = new Map();

  const plain = (text) => text.normalize("NFD").replace(/[^a-zA-Z0-9]/g, "").toLowerCase();
  /* Each legal word's button gets a key: its number, or a letter of its text not taken yet;
     the cards their place in the hand (1..9, 0, -, =) unless a word is a number. */
  function decorateKeys() {
    keymap = new Map();
    const on = keysOn();
    const words = [...ui.controls.querySelectorAll("button.word"), ...ui.center.querySelectorAll("button.word")];
    const cards = [...ui.hand.querySelectorAll("button.card")];
    const shown = new Map(); // button -> its key as shown
    const give = (b, key) => { keymap.set(key, b); shown.set(b, key.toUpperCase()); };
    if (on) {
      const live = words.filter((b) => !b.disabled);
      const numbers = live.some((b) => /^\d+$/.test(plain(b.textContent)));
      for (const b of live) {
        const text = plain(b.textContent);
        if (/^\d$/.test(text)) { if (!keymap.has(text)) give(b, text); continue; }
        const key = [...text].find((ch) => /[a-z]/.test(ch) && !RESERVED.has(ch) && !keymap.has(ch));
        if (key) give(b, key);
      }
      if (!numbers) cards.forEach((b, i) => { if (i < CARD_KEYS.length && !b.disabled) give(b, CARD_KEYS[i]); });
    }
    // set only where they change
    for (const b of [...words, ...cards]) {
      const key = shown.get(b);
      if (key === undefined) {
        if (b.dataset.key !== undefined) delete b.dataset.key;
        if (b.hasAttribute("aria-keyshortcuts")) b.removeAttribute("aria-keyshortcuts");
      } else if (b.dataset.key !== key) {
        b.dataset.key = key;
        b.setAttribute("aria-keyshortcuts", key);
      }
    }
  }

  const typing = (t) => t && (t.isContentEditable || ["TEXTAREA", "SELECT"].includes(t.tagName)
    || (t.tagName === "INPUT" && !["checkbox", "radio", "button", "submit"].includes(t.type)));
  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey || typing(ev.target)) return;
    if (ev.key === "Escape") {
      if (ctl.lastTrickOpen) { toggleLastTrick(false); ev.preventDefault(); } else if (ctl.error) showError(null);
      return;
    }
    if ((ev.key === "ArrowLeft" || ev.key === "ArrowRight") && ev.target === document.body) {
      const first = ui.hand.querySelector("button.card:not([disabled])");
      if (first) { ev.preventDefault(); first.focus(); }
      return;
    }
    if (!keysOn() || ev.key.length !== 1) return;
    const key = ev.key.toLowerCase();
    if (key === "l") { ev.preventDefault(); if (!ui.lastTrickBtn.disabled) toggleLastTrick(); return; }
    if (key === "c") { ev.preventDefault(); goToChat(); return; }
    const target = keymap.get(key);
    if (target && !target.disabled && document.contains(target)) {
      ev.preventDefault();
      target.focus({ preventScroll: true }); // after the move the focus stays in the decision area
      target.click();
    }
  });

  /* Focus stays in the decision area (my words, my cards, an offer's dialog) when a redraw
     replaces the control that had it: the same word; on my turn the first legal card or
     word (an answer to an offer first); else the hand itself, until my turn comes. */
  const decisionParts = [ui.controls, ui.center, ui.hand];
  const inDecision = (e) => !!e && decisionParts.some((p) => p.contains(e));
  function focusDecision(from) {
    const a = document.activeElement;
    if (from && inDecision(a) && a !== ui.hand && a.matches("button:not([disabled])")) return; // redrawn in place
    const firstCard = () => ui.hand.querySelector("button.card:not([disabled])");
    const word = from && from.word && decisionParts.map((p) => p.querySelector(
      `button.word[data-word="${CSS.escape(from.word)}"]:not([disabled])`)).find(Boolean);
    const firstWord = () => ui.center.querySelector("button.word:not([disabled])") || ui.controls.querySelector("button:not([disabled])");
    // Only on my turn does the focus go to a card or a word (never onto an offer).
    const pick = word || (ctl.myTurn() ? firstCard() || firstWord() : null);
    const target = pick || ui.hand;
    // focus() lays the page out even when it has the focus
    if (target !== a) target.focus({ preventScroll: true });
  }

  /* -- drawing everything */

  function waiting() {
    K.clear(ui.center);
    const list = K.el("ul.waiting-list");
    ctl.seats.forEach((s) => list.append(K.el("li", null,
      s.name || K.T("open"), s.answer && s.answer !== "accepted" ? K.el("small", { text: ` (${K.T(s.answer)})` }) : null)));
    ui.center.append(K.el("div.waiting", null, K.el("p", { text: K.T("Waiting for the players") }), list));
    K.clear(ui.hand);
    K.clear(ui.controls);
  }

  function render() {
    ctl.renders++;
    K.setIfChanged(chatForm, "hidden", ctl.seat === null);
    K.setIfChanged(chatNote, "hidden", ctl.seat !== null);
    const before = document.activeElement;
    const from = inDecision(before) ? { word: before.dataset.word } : null;
    // While the last trick of a deal is shown the ended deal is drawn; the pause's `after`
    // is the latest view (the deal's result), which ctl.view is again once drawn.
    const latest = ctl.view;
    if (ctl.pausing && ctl.pausing.before) ctl.view = ctl.pausing.before;
    try {
      for (let s = 0; s < n; s++) seatBox(s);
      app.classList.toggle("spectator", ctl.seat === null);
      if (ctl.view) G.render(ctl, ui);
      else if (ctl.status === "proposed") waiting();
    } finally {
      ctl.view = latest;
    }
    paintTimeout();
    paintWatchers();
    if (!ctl.view) {
      paintStatus();
      paintLastTrick();
      return;
    }
    decorateKeys();
    if (from) focusDecision(from);
    paintStatus();
    paintLastTrick();
    const mine = ctl.myTurn() && !ctl.pausing;
    app.classList.toggle("my-turn", mine);
    const title = (mine ? "● " : "") + document.title.replace(/^● /, "");
    if (title !== document.title) document.title = title; // a change goes to the browser's tab
    if (mine && !wasMyTurn) K.beep();
    wasMyTurn = mine;
    tick();
  }
  ctl.render = render;

  function tick() {
    for (const t of document.querySelectorAll(".timer[data-deadline]")) {
      const left = Math.max(0, Math.ceil((Date.parse(t.dataset.deadline) - Date.now()) / 1000));
      K.setIfChanged(t, "textContent", `${left} s`);
      if (t.classList.contains("low") !== (left <= 5)) t.classList.toggle("low", left <= 5);
    }
  }
  setInterval(tick, 250);

  /* -- chat at the table (players write, everyone watching reads) */
  const chatLog = $("chat-log");
  const chatForm = $("chat-form");
  const chatNote = $("chat-note");
  const seenChat = new Set();
  let chatInView = false;
  function paintUnread() {
    ui.chatUnread.textContent = ctl.unread ? String(ctl.unread) : "";
    ui.chatUnread.hidden = !ctl.unread;
    ui.chatJump.classList.toggle("unread", ctl.unread > 0);
    // named by what it shows ("Chat C 2": no aria-label that would leave out the key, WCAG 2.5.3)
    ui.chatJump.title = ctl.unread ? K.T("Chat: {n} unread", { n: ctl.unread }) : K.T("Chat");
  }
  function addChat(m, fresh) {
    if (!m || seenChat.has(m.id)) return;
    seenChat.add(m.id);
    const li = K.el("li" + (m.bot ? ".chat-bot" : ""), { dataset: { from: m.from, id: String(m.id) } }, K.el("b", { text: m.from + ": " }), m.text);
    if (m.bot && K.botChat) K.botChat(li); // chatmute.js
    chatLog.append(li);
    chatLog.scrollTop = chatLog.scrollHeight;
    if (fresh && m.from !== ctl.me && (!chatInView || document.hidden)) { ctl.unread++; paintUnread(); }
  }
  function seen() { if (chatInView && !document.hidden && ctl.unread) { ctl.unread = 0; paintUnread(); } }
  if (window.IntersectionObserver) {
    new IntersectionObserver((entries) => {
      chatInView = entries.some((e) => e.isIntersecting && e.intersectionRatio > 0.5);
      seen();
    }, { threshold: [0, 0.5, 1] }).observe(chatLog);
  } else chatInView = true;
  document.addEventListener("visibilitychange", seen);
  function goToChat() {
    ui.chat.scrollIntoView({ block: "nearest" });
    const input = chatForm.elements.text;
    if (!chatForm.hidden) input.focus({ preventScroll: true });
    ctl.unread = 0;
    paintUnread();
  }
  ui.chatJump.addEventListener("click", goToChat);
  const loadChat = () => fetch(`/api/parties/${ctl.partie}/chat`).then((r) => (r.ok ? r.json() : { messages: [] }))
    .then((d) => d.messages.forEach((m) => addChat(m, false))).catch(() => {});
  ctl.chat = { log: chatLog, seen: seenChat, load: loadChat };
  loadChat();
  chatForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = chatForm.elements.text;
    const text = input.value.trim();
    if (text && live.send({ type: "chat", text })) input.value = "";
  });
  chatForm.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { ev.preventDefault(); focusDecision(null); }
  });
  paintUnread();

  live.connect();
})();
