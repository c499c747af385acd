/* Klub: live notices on every page of a member (/ws/notices): the unread count in the
   header, a toast for an invitation (accept or decline in it), an answer to my proposal,
   a partie that started or ended (with its archive), my turn at another table, a league's
   evening about to start; the header's sound toggle decides the
   sound. The lobby page also hears that the lobby changed (lobby.js reads it again). */
"use strict";
(function () {
  const K = window.Klub;
  const node = document.getElementById("klub-notice-strings");
  if (node) {
    for (const [k, v] of Object.entries(JSON.parse(node.textContent || "{}"))) if (!(k in K.strings)) K.strings[k] = v;
  }
  const badge = document.getElementById("unread-count");
  const link = document.getElementById("unread");
  const toasts = document.getElementById("toasts");
  if (!badge || !toasts) return;
  const table = document.getElementById("table-app");
  const here = table ? Number(table.dataset.partie) : null;
  const lobby = !!document.getElementById("lobby-live");
  const tournamentPage = document.querySelector("section.tournament[data-tournament]");
  const watched = tournamentPage ? tournamentPage.dataset.tournament : null;
  const TEXTS = {
    invited: "{by} invites you to {game} #{partie}",
    rematch: "{by} asks for a rematch: {game} #{partie}",
    accepted: "{by} accepted your proposal: {game} #{partie}",
    declined: "{by} declined your proposal: {game} #{partie}",
    joined: "{by} took a seat at your proposal: {game} #{partie}",
    started: "{game} #{partie} has started",
    turn: "Your turn: {game} #{partie}",
    ended: "{game} #{partie} has ended",
    round: "{name}: round {round} has begun, your table is #{partie}",
    reminder: "Reminder: {game} #{partie} waits for your move, your time is running out",
    evening: "{name} begins in {minutes} min",
  };
  const MAX_TOASTS = 4;
  const N = (K.notices = { count: 0, invitations: [], turns: [], frames: [], connected: false });

  function paint(f) {
    N.count = f.count || 0;
    N.invitations = f.invitations || [];
    N.turns = f.turns || [];
    badge.textContent = String(N.count);
    badge.dataset.count = String(N.count);
    link.classList.toggle("has-unread", N.count > 0);
    link.title = K.T("Waiting for you: {n}", { n: N.count });
    // One table waiting and nothing else: the badge goes straight there.
    link.href = !N.invitations.length && N.turns.length === 1 ? `/table/${N.turns[0]}` : "/lobby";
    // A toast whose reason is gone (answered, played) goes too.
    for (const t of toasts.querySelectorAll(".toast[data-kind=invited]")) {
      if (!N.invitations.includes(Number(t.dataset.partie))) t.remove();
    }
    for (const t of toasts.querySelectorAll(".toast[data-kind=turn]")) {
      if (!N.turns.includes(Number(t.dataset.partie))) t.remove();
    }
  }

  async function answer(partie, verb, toast) {
    for (const b of toast.querySelectorAll("button")) b.disabled = true;
    try {
      const r = await fetch(`/api/parties/${partie}/${verb}`, { method: "POST", headers: { Accept: "application/json" } });
      const body = await r.json().catch(() => ({}));
      if (!r.ok) {
        toast.querySelector(".toast-text").textContent = (body.error && body.error.message) || K.T("Error");
        return;
      }
      if (verb === "accept" && body.status === "running") { location.href = `/table/${partie}`; return; }
      toast.remove();
    } catch (e) {
      for (const b of toast.querySelectorAll("button")) b.disabled = false;
    }
  }

  function toast(f) {
    const key = f.rematch_of && f.kind === "invited" ? "rematch" : f.kind;
    const text = K.T(TEXTS[key], { by: f.by || "", game: f.game_name || f.game || "", partie: f.partie,
      name: f.name || "", round: f.round || "", minutes: f.minutes || "" });
    const about = f.kind === "evening" ? `evening-${f.tournament}` : String(f.partie);
    for (const old of toasts.querySelectorAll(`.toast[data-partie="${about}"]`)) old.remove();
    const close = K.el("button.toast-close", { type: "button", "aria-label": K.T("Close"), text: "×" });
    const actions = K.el("span.toast-actions");
    if (f.kind === "invited") {
      actions.append(
        K.el("button.btn.small.primary.toast-accept", { type: "button", text: K.T("Accept") }),
        K.el("button.btn.small.toast-decline", { type: "button", text: K.T("Decline") }),
      );
    } else if (f.kind === "started" || f.kind === "turn" || f.kind === "round" || f.kind === "reminder") {
      actions.append(K.el("a.btn.small.primary.toast-open", { href: `/table/${f.partie}`, text: K.T("To the table") }));
    } else if (f.kind === "evening") {
      actions.append(K.el("a.btn.small.primary.toast-open", { href: `/leagues/${f.league}`, text: K.T("To the evening") }));
    } else if (f.kind === "ended") {
      actions.append(K.el("a.btn.small.primary.toast-open", { href: `/archive/${f.partie}`, text: K.T("Score sheet and replay") }));
    } else {
      actions.append(K.el("a.btn.small.toast-open", { href: "/lobby", text: K.T("Lobby") }));
    }
    const t = K.el("div.toast", { dataset: { kind: f.kind, partie: about } },
      K.el("span.toast-text", { text }), actions, close);
    close.addEventListener("click", () => t.remove());
    const accept = t.querySelector(".toast-accept");
    if (accept) {
      accept.addEventListener("click", () => answer(f.partie, "accept", t));
      t.querySelector(".toast-decline").addEventListener("click", () => answer(f.partie, "decline", t));
    }
    toasts.prepend(t);
    while (toasts.children.length > MAX_TOASTS) toasts.lastElementChild.remove();
  }

  function onFrame(f) {
    N.frames.push(f);
    if (N.frames.length > 50) N.frames.shift();
    if (f.type === "unread") {
      paint(f);
      document.dispatchEvent(new CustomEvent("klub:unread", { detail: f }));
    }
    else if (f.type === "notice") {
      paint(f);
      const atThisTable = here !== null && f.partie === here;
      if (!atThisTable) {
        toast(f);
        K.beep();
      }
      document.dispatchEvent(new CustomEvent("klub:notice", { detail: f }));
    } else if (f.type === "lobby") document.dispatchEvent(new CustomEvent("klub:lobby", { detail: f }));
    else if (f.type === "tournament") document.dispatchEvent(new CustomEvent("klub:tournament", { detail: f }));
  }

  let ws = null;
  let retry = 1000;
  let pinger = null;
  function connect(again) {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const query = lobby ? "?lobby=1" : watched ? `?tournament=${watched}` : "";
    ws = new WebSocket(`${proto}//${location.host}/ws/notices${query}`);
    ws.addEventListener("open", () => {
      N.connected = true;
      retry = 1000;
      clearInterval(pinger);
      pinger = setInterval(() => ws.readyState === 1 && ws.send(JSON.stringify({ type: "ping" })), 45000);
      // Notices missed while the socket was down: the lobby reads itself again.
      if (again) document.dispatchEvent(new CustomEvent("klub:lobby", { detail: { type: "lobby" } }));
      // A tournament page reads its live part on every connect: what changed between the
      // page's render and this socket (a round's end, the last table finished) is not lost.
      if (watched) document.dispatchEvent(new CustomEvent("klub:tournament", { detail: { type: "tournament" } }));
    });
    ws.addEventListener("message", (e) => {
      try { onFrame(JSON.parse(e.data)); } catch (err) { /* a frame we do not know */ }
    });
    ws.addEventListener("close", (e) => {
      N.connected = false;
      clearInterval(pinger);
      if (e.code === 4401 || e.code === 1008) return; // the session ended: nothing more to hear
      const wait = e.code === 4429 ? 30000 : retry;
      retry = Math.min(retry * 2, 30000);
      setTimeout(() => connect(true), wait);
    });
  }
  window.addEventListener("pageshow", (e) => { if (e.persisted && (!ws || ws.readyState > 1)) connect(true); });
  connect(false);
})();
