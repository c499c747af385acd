/* Klub: a slow partie's table (dopisna partija, app/parties/slow.py) — each seat's clock:
   the decision time and the bank left, the vacation hours a decision took, whether it
   stands still (a weekend, a holiday), the words the timer said; read again from the
   server after every move and every minute while a clock runs (the server's time, never
   the browser's). A member whose seat the others voted to a computer player takes it
   back here. Loaded only on a slow partie's page; table.js calls K.slowSeat / K.slowEvent. */
"use strict";
(function () {
  const K = window.Klub;

  /* A time left as the pages write it: "2 d 3 h", "5 h 10 min", "12 min" (strings.duration_text). */
  K.duration = function (seconds) {
    const s = Math.max(0, Math.floor(seconds || 0));
    const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600), m = Math.floor((s % 3600) / 60);
    if (d) return h ? K.T("{d} d {h} h", { d, h }) : K.T("{d} d", { d });
    if (h) return m ? K.T("{h} h {m} min", { h, m }) : K.T("{h} h", { h });
    return K.T("{m} min", { m });
  };

  K.slowSeat = function (ctl, s, info) {
    if (info.computer) {
      if (s !== ctl.seat || !info.reclaimable || ctl.status !== "running") return null;
      return K.el("div.slow-clock.reclaim", null,
        K.el("p", { text: K.T("A computer player plays your seat for the others' vote.") }),
        K.el("button.btn.small.primary.reclaim-seat", { type: "button", onclick: reclaim }, K.T("Take my seat back")));
    }
    const c = ctl.slow && ctl.slow.clocks ? ctl.slow.clocks[s] : null;
    if (!c) return null;
    const parts = [];
    if (c.running) parts.push(K.el("span.clock-decision", { text: K.T("{time} to decide", { time: K.duration(c.decision) }) }));
    parts.push(K.el("span.clock-bank", { text: K.T("bank {time}", { time: K.duration(c.bank) }) }));
    if (c.vacation) parts.push(K.el("span.clock-vacation", { text: K.T("vacation {n} h", { n: c.vacation }) }));
    if (c.running && c.paused) parts.push(K.el("span.clock-paused", { text: K.T("stands still") }));
    if (c.timeouts) parts.push(K.el("span.clock-timeouts", { text: K.T("timed out: {n}", { n: c.timeouts }) }));
    return K.el("div.slow-clock" + (c.running ? ".running" : ""), { dataset: { seat: String(s), left: String(c.left) } }, parts);
  };

  function reclaim() {
    const ctl = K.table;
    fetch(`/api/parties/${ctl.partie}/reclaim`, { method: "POST", headers: { Accept: "application/json" } })
      .then((r) => r.json().then((body) => {
        if (!r.ok) ctl.say((body.error && body.error.message) || K.T("Error"), "error");
        else { ctl.seats = body.seats; refresh(); }
      })).catch(() => ctl.say(K.T("Error"), "error"));
  }

  /* The clocks again (after a move, a minute later): one read at a time, another after it if asked. */
  let busy = false;
  let again = false;
  function refresh() {
    const ctl = K.table;
    if (busy) { again = true; return; }
    busy = true;
    fetch(`/api/parties/${ctl.partie}/clocks`, { headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : null))
      .then((d) => { if (d && d.slow) { ctl.slow = d.slow; ctl.render(); } })
      .catch(() => {})
      .finally(() => { busy = false; if (again) { again = false; refresh(); } });
  }
  K.slowEvent = refresh;
  setInterval(() => {
    const ctl = K.table;
    if (ctl && ctl.slow && !document.hidden && ctl.slow.clocks.some((c) => c && c.running)) refresh();
  }, 60000);
})();
