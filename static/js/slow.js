/* Klub: a slow partie's seat clocks, read again after moves and each minute (the server's time). */
"use strict";
(function () {
  const K = window.Klub;
  K.duration = function (x) { // as strings.duration_text
    const s = Math.max(0, Math.floor(x || 0)), d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600),
      m = Math.floor(s % 3600 / 60);
    if (d) return h ? K.T("{d} d {h} h", { d, h }) : K.T("{d} d", { d });
    if (h) return m ? K.T("{h} h {m} min", { h, m }) : K.T("{h} h", { h });
    return K.T("{m} min", { m });
  };
  const span = (cls, text) => K.el("span." + cls, { text });
  const here = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const locale = () => (K.lang === "en" ? "en-GB" : "sr-Latn-RS");
  /* Why a clock stands, until when (issue 39): the weekend's zone named if not the reader's. */
  function standText(ctl, s, st) {
    if (st.why === "weekend") {
      const zone = ctl.slow.weekend_zone;
      return K.T("weekend until Monday 00:00") + (zone && zone !== here ? ` (${zone})` : "");
    }
    const date = new Date(st.until).toLocaleString(locale(), { day: "numeric", month: "numeric", hour: "2-digit", minute: "2-digit" });
    return K.T("{name} is on holiday until {date}", { name: ctl.name(s), date });
  }
  K.slowSeat = function (ctl, s) {
    const c = ctl.slow.clocks[s];
    if (!c) return null;
    const stands = (c.stands || []).filter((st) => c.running || st.why === "holiday");
    return K.el("div.slow-clock" + (c.running ? ".running" : ""), { dataset: { seat: String(s) } },
      c.running ? span("clock-decision", K.T("{time} to decide", { time: K.duration(c.decision) })) : null,
      span("clock-bank", K.T("bank {time}", { time: K.duration(c.bank) })),
      c.vacation ? span("clock-vacation", K.T("vacation {n} h", { n: c.vacation })) : null,
      c.running && c.paused ? span("clock-paused", K.T("stands still")) : null,
      stands.length ? K.el("span.clock-stands", { dataset: { why: stands.map((st) => st.why).join(" ") } },
        stands.map((st) => standText(ctl, s, st)).join(K.T(", then "))) : null,
      c.timeouts ? span("clock-timeouts", K.T("timed out: {n}", { n: c.timeouts })) : null);
  };
  let busy = false, again = false; // one read at a time, one more if asked meanwhile
  function refresh() {
    const ctl = K.table;
    if (busy) { again = true; return; }
    busy = true;
    fetch(`/api/parties/${ctl.partie}/clocks`).then((r) => (r.ok ? r.json() : null))
      .then((d) => { if (d && d.slow) { ctl.slow = d.slow; ctl.render(); } }).catch(() => {})
      .finally(() => { busy = false; if (again) { again = false; refresh(); } });
  }
  K.slowEvent = refresh;
  setInterval(() => {
    const ctl = K.table;
    if (ctl && ctl.slow && !document.hidden && ctl.slow.clocks.some((c) => c && c.running)) refresh();
  }, 60000);
})();
