/* Klub: helpers shared by every page (translations, DOM, sound). No framework, no build. */
"use strict";
(function () {
  const K = (window.Klub = window.Klub || {});
  const node = document.getElementById("klub-strings");
  K.strings = node ? JSON.parse(node.textContent || "{}") : {};
  /* The game of the page (its descriptor): code, name, seats, contract names. */
  const game = document.getElementById("klub-game");
  K.game = game ? JSON.parse(game.textContent || "{}") : { contracts: [] };
  K.lang = document.documentElement.lang || "sr-Latn";

  /* Translate a message id (the table pages carry the catalog); {name} placeholders. */
  K.T = function (id, values) {
    let text = Object.prototype.hasOwnProperty.call(K.strings, id) ? K.strings[id] : id;
    if (text.startsWith("word:")) text = text.slice(5);
    if (values) text = text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
    return text;
  };

  /* el("div.card.s-H", {attrs}, children...) */
  K.el = function (spec, attrs, ...children) {
    const [tag, ...classes] = spec.split(".");
    const e = document.createElement(tag || "div");
    if (classes.length) e.className = classes.join(" ");
    if (attrs) {
      for (const [k, v] of Object.entries(attrs)) {
        if (v === null || v === undefined || v === false) continue;
        if (k === "text") e.textContent = v;
        else if (k === "dataset") Object.assign(e.dataset, v);
        else if (k.startsWith("on") && typeof v === "function") e.addEventListener(k.slice(2), v);
        else e.setAttribute(k, v === true ? "" : v);
      }
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  };

  /* A computer player: a mark named "computer" before his short name (issue 39, docs/ui.md);
     K.computers maps the texts' long names to it, for the sheets' heads (K.playerNode). */
  K.computers = new Map();
  K.computerName = (name) => K.el("span.computer-player", { title: K.T("computer") },
    K.el("span.computer-mark", { role: "img", "aria-label": K.T("computer") }), name);
  K.playerNode = (shown) => (K.computers.has(shown) ? K.computerName(K.computers.get(shown)) : shown);
  K.computerShown = function (name) {
    const shown = K.T("Computer {name}", { name });
    K.computers.set(shown, name);
    return shown;
  };

  K.clear = function (e) { e.replaceChildren(); return e; }; // all at once: one DOM change, not one per child
  /* The page changed only where it changes (a part put in again is painted again). */
  K.setIfChanged = function (el, prop, value) {
    if (el[prop] !== value) el[prop] = value;
  };
  /* Listeners are not compared: for parts whose listeners depend only on what they show. */
  K.replaceIfChanged = function (parent, nodes) {
    const fresh = nodes.filter((x) => x !== null && x !== undefined && x !== false);
    const old = parent.childNodes;
    if (old.length === fresh.length && fresh.every((x, i) => x.isEqualNode(old[i]))) return false;
    parent.replaceChildren(...fresh);
    return true;
  };
  K.sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  /* "Your turn" sound: two short tones made with the Web Audio API (no sound file). A
     browser lets a page play sound only after the member has touched it (a click, a key):
     before that the sound is skipped, and the AudioContext is made at the first gesture
     (none is made before, so the console has no autoplay warning). */
  const SOUND_KEY = "klub-sound";
  K.soundOn = () => localStorage.getItem(SOUND_KEY) !== "off";
  let audio = null;
  const activated = () => (navigator.userActivation ? navigator.userActivation.hasBeenActive : gestured);
  let gestured = false;
  const onGesture = () => {
    gestured = true;
    for (const type of GESTURES) window.removeEventListener(type, onGesture, true);
    if (audio && audio.state === "suspended") audio.resume().catch(() => {});
  };
  const GESTURES = ["pointerdown", "keydown", "touchend"];
  for (const type of GESTURES) window.addEventListener(type, onGesture, true);
  K.beep = function () {
    if (!K.soundOn() || !(gestured || activated())) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume().catch(() => {});
      const t0 = audio.currentTime;
      [[660, 0], [880, 0.12]].forEach(([f, dt]) => {
        const o = audio.createOscillator();
        const g = audio.createGain();
        o.type = "sine";
        o.frequency.value = f;
        g.gain.setValueAtTime(0.0001, t0 + dt);
        g.gain.exponentialRampToValueAtTime(0.18, t0 + dt + 0.02);
        g.gain.exponentialRampToValueAtTime(0.0001, t0 + dt + 0.16);
        o.connect(g).connect(audio.destination);
        o.start(t0 + dt);
        o.stop(t0 + dt + 0.18);
      });
    } catch (e) { /* no audio here */ }
  };

  function paintSound(btn) {
    const on = K.soundOn();
    btn.setAttribute("aria-pressed", on ? "true" : "false");
    btn.firstChild.textContent = on ? "♪" : "♪̸";
    btn.classList.toggle("muted", !on);
    btn.title = on ? K.T("Sound on") : K.T("Sound off");
  }
  /* The Club as an app: the service worker (/sw.js, app/web/sw.js: the offline page, the
     static files kept) and the header's install button, shown where the browser offers to
     install the Club (beforeinstallprompt; an iPhone has none: /account tells how). */
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" }).catch(() => {});
    // The worker picks the offline page's language by the cookie; where it cannot read
    // cookies, by what the pages say.
    navigator.serviceWorker.ready.then((reg) => reg.active && reg.active.postMessage({ type: "klub:lang", lang: K.lang }));
  }
  const install = document.getElementById("install-app");
  let offer = null;
  if (install) {
    window.addEventListener("beforeinstallprompt", (event) => {
      event.preventDefault(); // no mini-infobar: the header's button instead
      offer = event;
      install.hidden = false;
    });
    install.addEventListener("click", () => {
      if (!offer) return;
      const asked = offer;
      offer = null;
      install.hidden = true;
      Promise.resolve(asked.prompt()).catch(() => {});
    });
    window.addEventListener("appinstalled", () => { offer = null; install.hidden = true; });
  }

  document.addEventListener("DOMContentLoaded", () => {
    const btn = document.getElementById("sound-toggle");
    if (!btn) return;
    paintSound(btn);
    btn.addEventListener("click", () => {
      localStorage.setItem(SOUND_KEY, K.soundOn() ? "off" : "on");
      paintSound(btn);
      if (K.soundOn()) K.beep();
    });
  });
})();
