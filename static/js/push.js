/* Klub: push notices on this device, the header's bell (app/web/push.py). A click asks the
   browser's permission, subscribes with the Club's key and sends the subscription; another
   click takes it back. Each page of a member who switched them on here keeps the server's
   copy current (a new login, the page's language, once a day). Not on the table page (its
   budget): the bell is switched from any other page. */
"use strict";
(function () {
  const K = window.Klub;
  const btn = document.getElementById("push-toggle");
  const me = document.querySelector(".who .me");
  if (!btn || !me) return;
  /* When switching notices on fails the page says why (issue 39), in a note among the
     toasts (#toasts, role=status) with its ×: blocked, not allowed, unsupported, a server's
     or the push service's error. */
  const REASONS = {
    denied: "Notices are blocked in this browser's settings: allow them for this site, then click the bell again.",
    dismissed: "You did not allow notices; click the bell to be asked again.",
    insecure: "Notices need a secure connection (HTTPS); this page is not served over one.",
    unsupported: "This browser cannot receive push notices.",
    server: "The Club's server could not switch notices on (error {status}); try again later.",
    service: "The browser's push service refused to subscribe ({error}); try again later.",
  };
  class Failure extends Error {
    constructor(why, values) { super(why); this.why = why; this.values = values || {}; }
  }
  function say(why, values) {
    const toasts = document.getElementById("toasts");
    const text = K.T(REASONS[why], values);
    if (!toasts) { btn.title = text; return; }
    for (const old of toasts.querySelectorAll(".toast[data-kind=push]")) old.remove();
    const close = K.el("button.toast-close", { type: "button", "aria-label": K.T("Close"), text: "×" });
    const note = K.el("div.toast.push-failed", { dataset: { kind: "push", why } }, K.el("span.toast-text", { text }), close);
    close.addEventListener("click", () => note.remove());
    toasts.prepend(note);
  }
  const missing = !window.isSecureContext ? "insecure"
    : !("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window) ? "unsupported" : null;
  if (missing) { // the bell is there, and says why it cannot work here
    btn.hidden = false;
    btn.title = K.T(REASONS[missing]);
    btn.querySelector(".sr-only").textContent = btn.title;
    btn.addEventListener("click", () => say(missing));
    return;
  }
  const FLAG = `klub-push:${me.dataset.me}`; // "on": this member switched notices on on this device
  const SYNCED = `klub-push-synced:${me.dataset.me}`; // what the server last got from this device
  const session = me.dataset.session || ""; // a new login is a new session: send again
  const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json" };
  let busy = false;

  const bytes = (b64) => {
    const text = atob(b64.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((b64.length + 3) % 4));
    return Uint8Array.from(text, (c) => c.charCodeAt(0));
  };
  const sameKey = (a, b) => a.byteLength === b.byteLength && new Uint8Array(a).every((x, i) => x === b[i]);
  const mark = (sub) => [sub.endpoint, K.lang, session, new Date().toDateString()].join("|");

  function paint(on, blocked) {
    btn.hidden = false;
    btn.setAttribute("aria-pressed", on ? "true" : "false");
    btn.classList.toggle("off", !on);
    btn.title = K.T(blocked ? "Notices are blocked in this browser's settings"
      : on ? "Notices on this device: on" : "Notices on this device: off");
    btn.querySelector(".sr-only").textContent = btn.title;
  }

  async function serverKey() {
    const r = await fetch("/api/push/key", { headers: { Accept: "application/json" } }).catch(() => null);
    if (!r || !r.ok) throw new Failure("server", { status: r ? r.status : "–" });
    return bytes((await r.json()).public_key);
  }

  /* This device's subscription with the Club's key (one made with an older key is dropped). */
  async function subscription(reg) {
    const key = await serverKey();
    let sub = await reg.pushManager.getSubscription();
    const made = sub && sub.options && sub.options.applicationServerKey;
    if (sub && made && !sameKey(made, key)) {
      await sub.unsubscribe();
      sub = null;
    }
    if (sub) return sub;
    try {
      return await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
    } catch (e) {
      throw new Failure("service", { error: (e && (e.message || e.name)) || "?" });
    }
  }

  async function send(sub) {
    const r = await fetch("/api/push/subscriptions", { method: "POST", headers: JSON_HEADERS,
      body: JSON.stringify({ ...sub.toJSON(), lang: K.lang }) }).catch(() => null);
    if (!r || !r.ok) throw new Failure("server", { status: r ? r.status : "–" });
    localStorage.setItem(SYNCED, mark(sub));
  }

  async function switchOn() {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") {
      paint(false, permission === "denied");
      say(permission === "denied" ? "denied" : "dismissed");
      return;
    }
    await send(await subscription(await navigator.serviceWorker.ready));
    localStorage.setItem(FLAG, "on");
    paint(true);
  }

  async function switchOff() {
    localStorage.removeItem(FLAG);
    localStorage.removeItem(SYNCED);
    paint(false);
    const sub = await (await navigator.serviceWorker.ready).pushManager.getSubscription();
    if (!sub) return;
    await fetch("/api/push/subscriptions", { method: "DELETE", headers: JSON_HEADERS,
      body: JSON.stringify({ endpoint: sub.endpoint }) }).catch(() => {});
    await sub.unsubscribe().catch(() => {});
  }

  async function keepCurrent() {
    const on = localStorage.getItem(FLAG) === "on" && Notification.permission === "granted";
    paint(on, Notification.permission === "denied");
    if (!on) return;
    const reg = await navigator.serviceWorker.ready;
    const sub = await reg.pushManager.getSubscription();
    if (sub && localStorage.getItem(SYNCED) === mark(sub)) return;
    await send(sub || (await subscription(reg)));
  }

  btn.addEventListener("click", async () => {
    if (busy) return;
    busy = true;
    btn.disabled = true;
    try {
      await (btn.getAttribute("aria-pressed") === "true" ? switchOff() : switchOn());
    } catch (e) {
      paint(false);
      btn.title = K.T("Notices could not be switched on");
      if (e instanceof Failure) say(e.why, e.values);
      else say("service", { error: (e && (e.message || e.name)) || "?" });
    } finally {
      busy = false;
      btn.disabled = false;
    }
  });
  keepCurrent().catch(() => {});
})();
