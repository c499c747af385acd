/* Klub: a live table — the connection, the event queue (with a pause to see a finished
   trick), seats, my hand, keyboard play, timer, sound. The game modules draw the rest. */
"use strict";
(function () {
  const K = window.Klub;
  const app = document.getElementById("table-app");
  if (!app) return;
  const game = app.dataset.game;
  const G = K.games[game];
  const n = G.nSeats;
  const $ = (id) => document.getElementById(id);
  const ui = {
    app, info: $("table-info"), center: $("center"), controls: $("controls"), hand: $("hand"),
    status: $("status-line"), sheet: $("sheet"), lastDeal: $("last-deal"), banner: $("conn-banner"),
    seats: n === 4 ? [$("seat-me"), $("seat-right"), $("seat-top"), $("seat-left")]
                   : [$("seat-me"), $("seat-right"), $("seat-left")],
  };
  if (n === 3) $("seat-top").remove();

  const ctl = (K.table = {
    partie: Number(app.dataset.partie), game, me: app.dataset.me, n,
    seat: null, seats: [], status: "proposed", settings: {}, timer: null,
    view: null, legal: [], toAct: [], deadline: null, finished: false, version: 0,
    pausing: null, sending: null, message: null, selected: new Set(),
    trickPause: Number(app.dataset.trickPause || 1200), daljeDelay: Number(app.dataset.daljeDelay || 700),
  });
  ctl.base = () => (ctl.seat === null ? 0 : ctl.seat);
  ctl.rel = (s) => (((s - ctl.base()) % n) + n) % n;
  ctl.name = (s) => (ctl.seats[s] && ctl.seats[s].name) || `#${s + 1}`;
  ctl.names = () => Array.from({ length: n }, (_, s) => ctl.name(s));
  ctl.myTurn = () => ctl.seat !== null && ctl.legal.length > 0 && !ctl.finished;
  ctl.canAct = () => ctl.myTurn() && !ctl.pausing && !ctl.sending && online;
  ctl.act = function (word) {
    if (!ctl.canAct()) return false;
    const id = live.act(word, ctl.version);
    if (!id) return false;
    ctl.sending = id;
    ctl.message = null;
    render();
    setTimeout(() => { if (ctl.sending === id) { ctl.sending = null; render(); } }, 8000);
    return true;
  };
  ctl.say = function (text, kind) { ctl.message = text ? { text, kind: kind || "info" } : null; paintStatus(); };

  let online = false;
  const queue = [];
  let pumping = false;
  let wasMyTurn = false;

  function applyFrame(f) {
    for (const k of ["version", "legal", "deadline", "finished"]) if (k in f) ctl[k] = f[k];
    if ("view" in f) ctl.view = f.view;
    if ("to_act" in f) ctl.toAct = f.to_act || [];
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
      ctl.pausing = null;
      ctl.sending = null;
      if (!("view" in f)) { ctl.view = null; ctl.legal = []; ctl.toAct = []; ctl.version = f.version; }
      applyFrame(f);
      render();
    },
    event(f) { queue.push(f); pump(); },
    ack(f) { if (ctl.sending === f.id) ctl.sending = null; render(); },
    error(f) {
      if (f.id && ctl.sending === f.id) ctl.sending = null;
      const known = Object.prototype.hasOwnProperty.call(K.strings, `error:${f.code}`);
      ctl.say(known ? K.T(`error:${f.code}`) : `${K.T("Error")}: ${f.message}`, "error");
      render();
    },
    seats(f) {
      // who sits where, who is away (a change of status comes as a whole state frame)
      ctl.seats = f.seats;
      render();
    },
    chat(f) { addChat(f.message); },
    sessionEnded() {
      ui.banner.hidden = false;
      ui.banner.textContent = K.T("Your session has ended.");
      setTimeout(() => { location.href = "/login?next=" + encodeURIComponent(location.pathname); }, 1500);
    },
  });
  K.live = live;

  async function pump() {
    if (pumping) return;
    pumping = true;
    try {
      while (queue.length) {
        const ev = queue.shift();
        const prev = ctl.view;
        applyFrame(ev);
        ctl.lastAction = ev.action || null;
        announce(ev.action);
        const pause = prev && G.transition ? G.transition(prev, ev, ctl) : null;
        if (pause && ctl.trickPause > 0 && queue.length < 12) {
          ctl.pausing = pause;
          render();
          await K.sleep(ctl.trickPause * (pause.factor || 1));
          ctl.pausing = null;
        }
        render();
      }
    } finally {
      pumping = false;
    }
  }

  /* Every move said aloud for screen readers: "ana: dama pik". */
  const announcer = $("announce");
  function announce(a) {
    if (!a || !announcer) return;
    const w = a.word;
    const text = /^[789TJQKA][SDHC]$/.test(w) ? K.cards.label(w) : w.startsWith("skart") ? K.T("Škart") : w;
    announcer.textContent = `${ctl.name(a.seat)}: ${text}`;
  }

  /* -- drawing --------------------------------------------------------------------- */

  function seatBox(s) {
    const box = ui.seats[ctl.rel(s)];
    K.clear(box);
    const info = ctl.seats[s] || {};
    box.className = box.className.replace(/\s*(to-act|away|computer|is-me)\b/g, "");
    const acting = ctl.toAct.includes(s) && !ctl.finished && ctl.status === "running";
    if (acting) box.classList.add("to-act");
    if (info.away && !info.computer) box.classList.add("away");
    if (info.computer) box.classList.add("computer");
    if (s === ctl.seat) box.classList.add("is-me");
    box.dataset.seat = String(s);
    const nameRow = K.el("div.seat-name", null,
      K.el("span.name", { text: ctl.name(s) }),
      s === ctl.seat ? K.el("small.you", { text: ` (${K.T("You")})` }) : null);
    const marks = K.el("div.marks");
    if (info.computer) marks.append(K.el("span.mark.bot", { text: K.T("computer") }));
    else if (info.away) marks.append(K.el("span.mark.away-mark", { text: K.T("away") }));
    else if (info.kind === "member") marks.append(K.el("span.mark.online-mark", { "aria-label": K.T("online"), title: K.T("online") }));
    if (acting) {
      marks.append(K.el("span.mark.turn", { text: K.T("to act") }));
      if (ctl.deadline) marks.append(K.el("span.timer", { dataset: { deadline: ctl.deadline }, "aria-label": K.T("seconds left") }));
    }
    box.append(nameRow, marks);
    const extra = G.seatExtras ? G.seatExtras(ctl, s) : null;
    if (extra) box.append(extra);
    // Away seat: the others may agree to hand it to a computer player.
    if (info.away && !info.computer && ctl.seat !== null && s !== ctl.seat && ctl.status === "running") {
      const votes = (info.takeover_votes || []).length;
      const mine = (info.takeover_votes || []).includes(ctl.seat);
      box.append(K.el("button.btn.small.takeover", {
        type: "button", disabled: mine ? true : null,
        onclick: () => fetch(`/api/parties/${ctl.partie}/takeover`, {
          method: "POST", headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ seat: s, agree: true }),
        }),
      }, K.T("Hand over to a computer player"), votes ? ` (${votes} ${K.T("agreed")})` : ""));
    }
  }

  /* My hand: sorted, only legal cards clickable; arrows choose, Enter plays. */
  ctl.drawHand = function (cards, legalCards, onplay, opts) {
    opts = opts || {};
    const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.card : null;
    K.clear(ui.hand);
    ui.hand.classList.toggle("my-turn", legalCards.size > 0);
    const sorted = K.cards.sortHand(cards);
    ui.hand.style.setProperty("--n", String(sorted.length));
    for (const c of sorted) {
      const selected = opts.selected && opts.selected.has(c);
      const e = K.cards.card(c, {
        button: true, disabled: !legalCards.has(c), onplay,
        cls: selected ? "selected" : null,
      });
      if (selected) e.setAttribute("aria-pressed", "true");
      ui.hand.append(e);
    }
    if (focused) {
      const again = ui.hand.querySelector(`[data-card="${focused}"]:not([disabled])`);
      if (again) again.focus();
    }
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
  document.addEventListener("keydown", (ev) => {
    if (ev.target !== document.body || !["ArrowLeft", "ArrowRight"].includes(ev.key)) return;
    const first = ui.hand.querySelector("button.card:not([disabled])");
    if (first) { ev.preventDefault(); first.focus(); }
  });

  function paintStatus() {
    let text = "";
    let kind = "info";
    if (ctl.message) { text = ctl.message.text; kind = ctl.message.kind; }
    else if (ctl.status === "proposed") text = K.T("Waiting for the players");
    else if (ctl.finished) text = K.T("The partie is over");
    else if (ctl.seat === null) text = K.T("You are watching");
    else if (ctl.myTurn() && !ctl.pausing) { text = K.T("Your turn"); kind = "turn"; }
    ui.status.textContent = text;
    ui.status.className = "status-line " + kind;
  }

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
    chatForm.hidden = ctl.seat === null;
    for (let s = 0; s < n; s++) seatBox(s);
    app.classList.toggle("spectator", ctl.seat === null);
    if (!ctl.view) {
      if (ctl.status === "proposed") waiting();
      paintStatus();
      return;
    }
    G.render(ctl, ui);
    paintStatus();
    const mine = ctl.myTurn() && !ctl.pausing;
    app.classList.toggle("my-turn", mine);
    document.title = (mine ? "● " : "") + document.title.replace(/^● /, "");
    if (mine && !wasMyTurn) K.beep();
    wasMyTurn = mine;
    tick();
  }
  ctl.render = render;

  function tick() {
    for (const t of document.querySelectorAll(".timer[data-deadline]")) {
      const left = Math.max(0, Math.ceil((Date.parse(t.dataset.deadline) - Date.now()) / 1000));
      t.textContent = `${left} s`;
      t.classList.toggle("low", left <= 5);
    }
  }
  setInterval(tick, 250);

  /* -- chat at the table (players write, everyone watching reads) ------------------- */
  const chatLog = $("chat-log");
  const chatForm = $("chat-form");
  const seenChat = new Set();
  function addChat(m) {
    if (!m || seenChat.has(m.id)) return;
    seenChat.add(m.id);
    chatLog.append(K.el("li", null, K.el("b", { text: m.from + ": " }), m.text));
    chatLog.scrollTop = chatLog.scrollHeight;
  }
  fetch(`/api/parties/${ctl.partie}/chat`).then((r) => (r.ok ? r.json() : { messages: [] }))
    .then((d) => d.messages.forEach(addChat)).catch(() => {});
  chatForm.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = chatForm.elements.text;
    const text = input.value.trim();
    if (text && live.send({ type: "chat", text })) input.value = "";
  });

  live.connect();
})();
