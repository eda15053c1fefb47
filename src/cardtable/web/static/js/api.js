// The HTTP API of the game server (docs/protocol.md): requests with this browser's identity,
// and an API error in the player's words.
import { t } from "./i18n.js";

// This browser's own identity (docs/protocol.md, "Client identity"): 128 random bits kept in
// localStorage, sent with every API request, so the server tells two people behind one address
// apart (one seat per person at a public table). Not a secret: it only names this browser.
const CLIENT_KEY = "cardtable.client";
let pageClientId = null;        // without localStorage: one identity for this page's life
function randomId() {
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}
export function clientId() {
  try {
    let id = localStorage.getItem(CLIENT_KEY);
    if (!id || !/^[A-Za-z0-9_-]{16,64}$/.test(id)) {
      id = randomId();
      localStorage.setItem(CLIENT_KEY, id);
    }
    return id;
  } catch (e) {
    if (!pageClientId) pageClientId = randomId();
    return pageClientId;
  }
}

export async function api(method, path, body, extra) {
  const headers = Object.assign({ "X-Cardtable-Client": clientId() }, extra || {});
  if (body) headers["Content-Type"] = "application/json";
  const r = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  let data = null;
  try { data = await r.json(); } catch (e) { /* empty */ }
  if (!r.ok) {
    let msg = data && data.detail;
    if (Array.isArray(msg)) msg = msg.map((d) => d.msg || JSON.stringify(d)).join("; ");
    const err = new Error(msg || `HTTP ${r.status}`);
    err.status = r.status;
    err.code = (data && typeof data.error === "string") ? data.error : null;
    err.params = (data && data.params && typeof data.params === "object") ? data.params : {};
    throw err;
  }
  return data;
}

// An API error in the player's language: the catalog's `err.api.<code>` (a refused name by its
// reason: `err.api.bad_name.<why>`), else the server's English `detail`.
export function apiMessage(err) {
  if (!err) return "";
  if (err.code) {
    const params = Object.assign({ detail: err.message }, err.params);
    const keys = [];
    if ((err.code === "bad_name" || err.code === "bad_password") && params.why) keys.push(`err.api.${err.code}.${params.why}`);
    keys.push(`err.api.${err.code}`);
    for (const key of keys) {
      const text = t(key, params);
      if (text !== key) return text;
    }
  }
  if (!err.status) return t("lobby.offline");
  return err.message;
}
