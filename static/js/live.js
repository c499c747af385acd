/* Klub: the live connection to a table — versioned events, acks, resync, reconnect. */
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
      this.ws = null;
      this.retries = 0;
      this.closedForGood = false;
      this.pingTimer = null;
    }

    url() {
      const proto = location.protocol === "https:" ? "wss" : "ws";
      const since = this.version === null ? "" : `?since=${this.version}`;
      return `${proto}://${location.host}/ws/parties/${this.partieId}${since}`;
    }

    connect() {
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

    resync() { this.send({ type: "resync" }); }

    frame(f) {
      switch (f.type) {
        case "state":
          this.version = f.version;
          this.h.state(f);
          break;
        case "event":
          if (this.version !== null && f.version <= this.version) return; // already have it
          if (this.version !== null && f.version !== this.version + 1) { this.resync(); return; } // a gap
          this.version = f.version;
          this.h.event(f);
          break;
        case "ack": this.h.ack(f); break;
        case "error":
          if (f.code === "session_ended") { this.closedForGood = true; this.h.sessionEnded(); return; }
          if (f.code === "too_many_connections") return; // the close (4429) that follows says it
          this.h.error(f);
          break;
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
