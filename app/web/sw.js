/* Klub: the service worker (served as /sw.js after `const KLUB = {...}`, app/web/pwa.py).
   - A page (a navigation) comes from the network, always; with no network, the Club's
     offline page in the member's language (kept when the worker installs). No member's page
     is ever kept: they carry his name, his tables and his form token.
   - A versioned static file (/static/...?v=) comes from the cache, else the network (and
     is kept): its URL changes when the file does.
   - The API, the sockets and the pages' data (KLUB.never) are left to the browser.
   - A logout (a POST to KLUB.forgetOn going by) empties every cache of the worker; the
     offline pages are fetched again.
   - Push notices (app/push/, static/js/push.js): a push shows the notice it carries (one
     per table: a newer one replaces the older); a click opens its page, or brings forward
     a window already showing it. */
"use strict";

const STATIC_CACHE = `klub-static-${KLUB.version}`;
const OFFLINE_CACHE = `klub-offline-${KLUB.version}`;
const OURS = [STATIC_CACHE, OFFLINE_CACHE];
let reportedLang = null; // the language a page said it shows (where there is no cookieStore)

const under = (path, prefix) => path === prefix || path.startsWith(prefix.endsWith("/") ? prefix : prefix + "/");
// Without the member's cookies: what is kept for everyone is fetched as no one.
const fresh = (url) => new Request(url, { cache: "reload", credentials: "omit" });

async function precache() {
  const offline = await caches.open(OFFLINE_CACHE);
  await offline.addAll(Object.values(KLUB.offline).map(fresh));
  const statics = await caches.open(STATIC_CACHE);
  await statics.addAll(KLUB.precache.map(fresh));
}

/* After a logout, or when an earlier one emptied the caches: the offline pages are back. */
async function ensurePrecached() {
  const offline = await caches.open(OFFLINE_CACHE);
  const missing = [];
  for (const url of Object.values(KLUB.offline)) if (!(await offline.match(url))) missing.push(url);
  if (missing.length) await precache();
}

async function forget() {
  const names = await caches.keys();
  await Promise.all(names.filter((n) => n.startsWith("klub-")).map((n) => caches.delete(n)));
  try { await precache(); } catch (e) { /* offline: the next page fetches them again */ }
}

self.addEventListener("install", (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((n) => n.startsWith("klub-") && !OURS.includes(n)).map((n) => caches.delete(n)));
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "klub:lang" && data.lang in KLUB.offline) reportedLang = data.lang;
});

async function language() {
  try {
    if (self.cookieStore) {
      const cookie = await self.cookieStore.get(KLUB.langCookie);
      if (cookie && cookie.value in KLUB.offline) return cookie.value;
      return KLUB.defaultLang;
    }
  } catch (e) { /* no cookie store here */ }
  return reportedLang || KLUB.defaultLang;
}

async function offlinePage() {
  const cache = await caches.open(OFFLINE_CACHE);
  const lang = await language();
  return (await cache.match(KLUB.offline[lang])) || (await cache.match(KLUB.offline[KLUB.defaultLang])) || Response.error();
}

async function page(event) {
  try {
    const response = await fetch(event.request);
    event.waitUntil(ensurePrecached().catch(() => {}));
    return response;
  } catch (e) {
    return offlinePage();
  }
}

async function staticFile(request) {
  const cache = await caches.open(STATIC_CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    const path = new URL(request.url).pathname;
    for (const old of await cache.keys()) {  // the file's earlier versions
      if (new URL(old.url).pathname === path && old.url !== request.url) await cache.delete(old);
    }
    await cache.put(request, response.clone());
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    if (request.method === "POST" && KLUB.forgetOn.includes(url.pathname)) event.waitUntil(forget());
    return;
  }
  if (KLUB.never.some((prefix) => under(url.pathname, prefix))) return;
  if (request.mode === "navigate") {
    event.respondWith(page(event));
  } else if (url.pathname.startsWith(KLUB.static) && url.searchParams.has("v")) {
    event.respondWith(staticFile(request));
  }
});

/* A push: {kind, partie, lang, title, body, url} (app/web/push.py), decrypted by the browser. */
self.addEventListener("push", (event) => {
  let notice = {};
  try { notice = event.data ? event.data.json() : {}; } catch (e) { /* not ours: a plain notice */ }
  const tag = notice.partie ? `partie-${notice.partie}` : notice.kind || "klub";
  event.waitUntil(self.registration.showNotification(notice.title || "Klub", {
    body: notice.body || "",
    tag,
    renotify: true,
    lang: notice.lang || KLUB.defaultLang,
    icon: KLUB.icon,
    data: { url: notice.url || KLUB.startUrl },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  const url = new URL(data.url || KLUB.startUrl, self.location.origin);
  if (url.origin !== self.location.origin) return; // only the Club's own pages
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((w) => new URL(w.url).pathname === url.pathname);
    if (open && "focus" in open) return open.focus();
    return self.clients.openWindow(url.href);
  })());
});

/* The browser renewed the subscription: the server learns the new one (the pages would at
   their next visit). */
self.addEventListener("pushsubscriptionchange", (event) => {
  event.waitUntil((async () => {
    const headers = { "Content-Type": "application/json", Accept: "application/json" };
    let sub = event.newSubscription;
    if (!sub) {
      const r = await fetch(KLUB.push.key, { headers: { Accept: "application/json" } });
      const b64 = (await r.json()).public_key;
      const raw = atob(b64.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((b64.length + 3) % 4));
      sub = await self.registration.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: Uint8Array.from(raw, (c) => c.charCodeAt(0)) });
    }
    await fetch(KLUB.push.subscriptions, { method: "POST", headers, credentials: "same-origin",
      body: JSON.stringify({ ...sub.toJSON(), lang: await language() }) });
    if (event.oldSubscription) {
      await fetch(KLUB.push.subscriptions, { method: "DELETE", headers, credentials: "same-origin",
        body: JSON.stringify({ endpoint: event.oldSubscription.endpoint }) }).catch(() => {});
    }
  })().catch(() => {}));
});
