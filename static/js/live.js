/* Klub: the live connection to a table — versioned events, acks, resync, reconnect.
   An event carries the seat's view as its changes since the version before (view_changes:
   the top-level keys replaced, view_removed: the keys gone; app/tables/frames.py); the
   handlers get every event with its whole view, made here from the view of the version
   before. Without that view (a gap, a state without one) the client asks for the state. */
"use strict";
(function () {
  const K = window.Klub;
  // The server closes a member's socket over his limit of table connections with this
  // code (app/tables/ratelimit.py, CLOSE_TOO_MANY): say so, and knock again slowly.
  const CLOSE_TOO_MANY = 4429;
  const TOO_MANY_RETRY_MS = 30000;

  class Live {
    constructor(partieId, handlers) {
      this.partieId = partieId;
      this.h = handlers;
      this.version = null; // the last version received
      this.view = null; // the view at that version (the base of the next event's changes)
      this.resyncing = false; // a state was asked for: events wait for it
      this.ws = null;
      this.retries = 0;
      this.closedForGood = false;
      this.pingTimer = null;
    }

    url() {
      const proto = location.protocol === "https:" ? "wss" : "ws";
      // the events after my version apply to my view; without one, a state frame is needed
      const since = this.version === null || this.view === null ? "" : `?since=${this.version}`;
      return `${proto}://${location.host}/ws/parties/${this.partieId}${since}`;
    }

    connect() {
      this.resyncing = false;
      const ws = (this.ws = new WebSocket(this.url()));
      ws.addEventListener("open", () => {
        this.retries = 0;
        this.h.status("open");
        clearInterval(this.pingTimer);
        this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
      });
      ws.addEventListener("message", (m) => {
        let f;
        try { f = JSON.parse(m.data); } catch (e) { return; }
        this.frame(f);
      });
      ws.addEventListener("close", (ev) => {
        clearInterval(this.pingTimer);
        if (this.ws !== ws) return;
        if (ev.code === 4401) { this.closedForGood = true; this.h.sessionEnded(); return; }
        if (ev.code === 4404) { this.closedForGood = true; this.h.status("gone"); return; }
        if (ev.code === CLOSE_TOO_MANY) {
          this.h.status("too_many");
          const n = TOO_MANY_RETRY_MS / 1000;
          this.h.error({ type: "error", code: "too_many_connections",
            message: K.T("You have too many table windows open. Close one of them; trying again in {n} seconds.", { n }) });
          setTimeout(() => this.connect(), TOO_MANY_RETRY_MS);
          return;
        }
        this.h.status("reconnecting");
        const wait = Math.min(5000, 250 * 2 ** this.retries++);
        setTimeout(() => this.connect(), wait);
      });
    }

    /* For tests and for the "offline" button of a browser: drop the socket, it comes back. */
    drop() { if (this.ws) this.ws.close(); }

    send(obj) {
      if (this.ws && this.ws.readyState === WebSocket.OPEN) { this.ws.send(JSON.stringify(obj)); return true; }
      return false;
    }

    resync() {
      if (this.resyncing) return;
      this.resyncing = this.send({ type: "resync" });
    }

    /* The view an event leads to: its whole view, or my view with its changes (a new
       object: the handlers may keep the one before). Null when there is nothing to apply
       the changes to. */
    viewAfter(f) {
      if ("view" in f) return f.view;
      if (this.view === null || !f.view_changes) return null;
      const view = Object.assign({}, this.view, f.view_changes);
      for (const k of f.view_removed || []) delete view[k];
      return view;
    }

    frame(f) {
      switch (f.type) {
        case "state":
          this.version = f.version;
          this.view = f.view || null;
          this.resyncing = false;
          this.h.state(f);
          break;
        case "event": {
          if (this.resyncing) return; // the state asked for brings it
          if (this.version !== null && f.version <= this.version) return; // already have it
          if (this.version !== null && f.version !== this.version + 1) { this.resync(); return; } // a gap
          const view = this.viewAfter(f);
          if (view === null) { this.resync(); return; } // changes to a view I do not have
          f.view = view;
          this.version = f.version;
          this.view = view;
          this.h.event(f);
          break;
        }
        case "ack":
          // a word's events come before its ack: an ack past my version is a gap
          if (this.version !== null && f.version > this.version) this.resync();
          this.h.ack(f);
          break;
        case "error":
          if (f.code === "session_ended") { this.closedForGood = true; this.h.sessionEnded(); return; }
          if (f.code === "too_many_connections") return; // the close (4429) that follows says it
          this.h.error(f);
          break;
        case "pong": if (this.version !== null && f.version > this.version) this.resync(); break;
        case "seats": this.h.seats(f); break;
        case "chat": if (this.h.chat) this.h.chat(f); break;
        case "watchers": if (this.h.watchers) this.h.watchers(f); break;
        default: break;
      }
    }

    act(word, version) {
      const id = (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random()).slice(0, 64);
      return this.send({ type: "action", word, version, id }) ? id : null;
    }
  }
  K.Live = Live;
})();
