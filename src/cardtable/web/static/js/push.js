// "Your move" alerts while the page is closed (Web Push; server/talk/push.py, docs/api.md): the
// opt-in of a seat in the table's ♪ menu, the service worker's registration (/sw.js) and the
// subscription, sent to the server with the seat's token. Which table has alerts on in this
// browser is kept here (localStorage `cardtable.push.CODE`: the endpoint, to opt out).
import { t, getLang } from "./i18n.js";
import { h } from "./dom.js";
import { api, apiMessage } from "./api.js";
import { loadSeat } from "./store.js";

const pushKey = (code) => `cardtable.push.${code}`;

export function pushSupported() {
  return typeof window !== "undefined" && window.isSecureContext && "serviceWorker" in navigator
    && "PushManager" in window && typeof Notification !== "undefined";
}

let registration = null;
/** The service worker's registration (registered once a page; null if it cannot be). */
export function registerWorker() {
  if (!("serviceWorker" in navigator)) return Promise.resolve(null);
  if (!registration) registration = navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);
  return registration;
}

export function keyBytes(b64) {
  const s = atob(b64.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((b64.length + 3) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

function stored(code) {
  try { return localStorage.getItem(pushKey(code)); } catch (e) { return null; }
}

/** This browser's push subscription, made with the server's key after the person allowed
 *  notifications (an error with `denied` if they did not): for a seat and for friends.js. */
export async function subscribe() {
  if ((await Notification.requestPermission()) !== "granted") throw Object.assign(new Error("denied"), { denied: true });
  await registerWorker();
  const reg = await navigator.serviceWorker.ready;
  const { key } = await api("GET", "/api/push/key");
  return (await reg.pushManager.getSubscription())
    || await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
}

async function turnOn(code, token) {
  const sub = await subscribe();
  await api("POST", "/api/push/subscriptions", { table: code, token, lang: getLang(), subscription: sub.toJSON() });
  try { localStorage.setItem(pushKey(code), sub.endpoint); } catch (e) { /* ignore */ }
}

async function turnOff(code, token) {
  const endpoint = stored(code);
  try { localStorage.removeItem(pushKey(code)); } catch (e) { /* ignore */ }
  if (endpoint) await api("DELETE", "/api/push/subscriptions", { table: code, token, endpoint });
}

/** The opt-in of this browser's seat at table S.code (null for a spectator). */
export function pushItem(S, redraw) {
  const mine = loadSeat(S.code);
  if (!mine || !mine.token) return null;
  const ok = pushSupported();
  if (ok) registerWorker();
  const on = !!stored(S.code);
  const note = S.pushNote || (!ok ? t("push.unsupported") : on ? t("push.on") : t("push.hint", { code: S.code }));
  return h("div", { class: "push-optin" },
    h("label", { class: "check" }, h("input", { type: "checkbox", id: "pref-push", checked: on, disabled: !ok, onchange: async (e) => {
      const want = e.target.checked;
      S.signalsOpen = true;
      S.pushNote = null;
      try {
        if (want) await turnOn(S.code, mine.token);
        else await turnOff(S.code, mine.token);
      } catch (err) {
        S.pushNote = err.denied ? t("push.denied") : t("push.failed", { why: err.status ? apiMessage(err) : (err.message || String(err)) });
      }
      redraw();
    } }), " ", t("push.label")),
    h("p", { class: "muted small", id: "push-note" }, note));
}
