// Passkeys in the browser (docs/api.md, "Passkeys"): "Sign up with a passkey" and
// "Log in with a passkey" in the sign-in dialog, "Passkeys" in the account menu (the list,
// "Add a passkey", "Remove"), and confirming with a passkey what a password-less account
// would confirm with its password: deleting it, setting its e-mail address (mail.js).
//
// Each ceremony asks the server for its options (`.../options`: a challenge that a short-lived
// HttpOnly cookie ties to this browser), hands them to navigator.credentials.create or .get,
// and sends the answer back. The binary fields travel as base64url (WebAuthn's JSON form);
// they are converted here by hand, as not every browser has PublicKeyCredential's
// parseCreationOptionsFromJSON and toJSON yet. Nothing of this shows where the browser cannot
// use passkeys: no PublicKeyCredential, not a secure context (http:// other than localhost),
// or a site opened by its IP address (no RP ID is possible then).
import { t, getLang } from "./i18n.js";
import { h, clear, announce } from "./dom.js";
import { api, apiMessage } from "./api.js";
import { account, setMe, claimTokens, openDialog, input, add } from "./account.js";

/** Whether this page can offer passkeys. */
export function passkeysHere() {
  if (typeof window.PublicKeyCredential !== "function" || !window.isSecureContext) return false;
  const host = location.hostname;
  return !(/^[0-9.]+$/.test(host) || host.includes(":") || host.startsWith("["));
}

// -- base64url <-> bytes ----------------------------------------------------------------------
function fromB64u(s) {
  const b = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4));
  const out = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) out[i] = b.charCodeAt(i);
  return out.buffer;
}

function toB64u(buf) {
  const bytes = new Uint8Array(buf);
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

const descriptors = (list) => (list || []).map((c) => Object.assign({}, c, { id: fromB64u(c.id) }));

function creationOptions(o) {
  return Object.assign({}, o, { challenge: fromB64u(o.challenge),
    user: Object.assign({}, o.user, { id: fromB64u(o.user.id) }),
    excludeCredentials: descriptors(o.excludeCredentials) });
}

function requestOptions(o) {
  return Object.assign({}, o, { challenge: fromB64u(o.challenge),
    allowCredentials: descriptors(o.allowCredentials) });
}

function credentialJSON(c) {
  const r = c.response;
  const response = { clientDataJSON: toB64u(r.clientDataJSON) };
  if (r.attestationObject) {
    response.attestationObject = toB64u(r.attestationObject);
    response.transports = typeof r.getTransports === "function" ? r.getTransports() : [];
  } else {
    response.authenticatorData = toB64u(r.authenticatorData);
    response.signature = toB64u(r.signature);
    if (r.userHandle) response.userHandle = toB64u(r.userHandle);
  }
  return { id: c.id, rawId: toB64u(c.rawId), type: c.type, response,
    authenticatorAttachment: c.authenticatorAttachment || null,
    clientExtensionResults: c.getClientExtensionResults ? c.getClientExtensionResults() : {} };
}

/** The browser's refusals in the player's words (the API's errors pass through). */
function wordsFor(e) {
  if (e && e.name === "NotAllowedError") return t("pk.cancelled");
  if (e && e.name === "InvalidStateError") return t("err.api.passkey_known");
  if (e && (e.name === "SecurityError" || e.name === "NotSupportedError")) return t("pk.unsupported");
  return apiMessage(e);
}

async function create(optionsPath, body) {
  const opts = await api("POST", optionsPath, body);
  return credentialJSON(await navigator.credentials.create({ publicKey: creationOptions(opts) }));
}

async function get(optionsPath) {
  const opts = await api("POST", optionsPath);
  return credentialJSON(await navigator.credentials.get({ publicKey: requestOptions(opts) }));
}

/** A logged-in player's confirmation with one of the account's passkeys, for `purpose`
 * (delete, email: the server binds the ceremony to it): the answer to send with that
 * request. A refusal is thrown in the player's words. */
export async function confirmWithPasskey(purpose) {
  try {
    return await get(`/api/me/passkeys/confirm/options?for=${encodeURIComponent(purpose)}`);
  } catch (e) {
    throw Object.assign(new Error(wordsFor(e)), { status: e.status || 1 });
  }
}

function loggedIn(r) {
  setMe({ name: r.account.name, password: r.has_password });
  announce(t("acct.logged_in", { name: r.account.name }));
  if (r.claimed) announce(t("acct.claimed", { n: r.claimed }));
}

// -- the sign-in dialog ---------------------------------------------------------------------------
/** "or" and the passkey button under the sign-in dialog's form (null where passkeys are not
 * possible): sign-up takes the name typed above, log-in needs none (the browser offers the
 * passkeys it holds for this site). */
export function passkeySignIn(form, signup) {
  if (!passkeysHere()) return null;
  let busy = false;
  const run = async (btn) => {
    if (busy) return;
    const err = form.querySelector(".acct-error");
    err.textContent = "";
    const nameField = form.querySelector("#acct-name");
    const name = nameField.value.trim();
    if (signup && !name) {
      err.textContent = t("pk.name_needed");
      nameField.addEventListener("input", () => {
        if (err.textContent === t("pk.name_needed")) err.textContent = "";
      }, { once: true });
      nameField.focus();
      return;
    }
    busy = true;
    btn.setAttribute("aria-busy", "true");
    try {
      if (signup) {
        const credential = await create("/api/passkeys/signup/options", { name });
        loggedIn(await api("POST", "/api/passkeys/signup", { credential, claim: claimTokens() }));
      } else {
        const credential = await get("/api/passkeys/login/options");
        loggedIn(await api("POST", "/api/passkeys/login", { credential, claim: claimTokens() }));
      }
      form.closest("dialog").close();
    } catch (e) {
      err.textContent = wordsFor(e);
      btn.focus();
    } finally {
      busy = false;
      btn.removeAttribute("aria-busy");
    }
  };
  return h("div", { class: "pk-signin" },
    h("p", { class: "pk-or", "aria-hidden": "true" }, h("span", {}, t("pk.or"))),
    h("button", { type: "button", class: "btn pk-btn", id: signup ? "pk-signup" : "pk-login",
      "aria-describedby": signup ? "pk-signup-hint" : null,
      onclick: (e) => run(e.currentTarget) },
    h("span", { class: "pk-icon", "aria-hidden": "true" }), t(signup ? "pk.signup" : "pk.login")),
    signup ? h("p", { class: "muted small", id: "pk-signup-hint" }, t("pk.signup_hint")) : null);
}

// -- "Passkeys" in the account menu -----------------------------------------------------------------
function when(seconds) {
  return new Date(seconds * 1000).toLocaleDateString(getLang() === "de" ? "de-DE" : "en-GB",
    { year: "numeric", month: "short", day: "numeric" });
}

/** The dialog of the account's passkeys: the list with "Remove" each, and "Add a passkey"
 * (with an optional name) as the dialog's own button. */
export function openPasskeys(opener) {
  let keys = null;
  const list = h("ul", { class: "pk-list", id: "pk-list", "aria-live": "polite" });
  const drawList = () => {
    clear(list);
    if (keys === null) return;
    if (!keys.length) { list.append(h("li", { class: "muted" }, t("pk.none"))); return; }
    for (const k of keys) {
      list.append(h("li", { class: "pk-item", data: { id: String(k.id) } },
        h("div", { class: "pk-main" }, h("strong", { class: "pk-label" }, k.label),
          h("span", { class: "muted small" }, t("pk.made", { date: when(k.created_at) }), " · ",
            k.last_used ? t("pk.used", { date: when(k.last_used) }) : t("pk.unused"))),
        h("button", { type: "button", class: "btn btn-small", id: `pk-remove-${k.id}`,
          "aria-label": t("pk.remove_label", { label: k.label }),
          onclick: () => remove(k) }, t("pk.remove"))));
    }
  };
  const box = openDialog({
    id: "passkeys-dialog", opener, title: t("pk.title"), submitLabel: t("pk.add"),
    fill: (form) => add(form,
      h("p", { class: "muted acct-why" }, account() && account().password === false ? t("pk.no_password") : t("pk.intro")),
      list,
      input("pk-label", t("pk.label"), { type: "text", maxlength: 64, autocomplete: "off" }, "pk-label-hint"),
      h("p", { class: "muted small", id: "pk-label-hint" }, t("pk.label_hint"))),
    submit: async (form) => {
      try {
        const credential = await create("/api/me/passkeys/options");
        await api("POST", "/api/me/passkeys", { credential, label: form.querySelector("#pk-label").value.trim() });
      } catch (e) {
        throw Object.assign(new Error(wordsFor(e)), { status: e.status || 1 });
      }
      announce(t("pk.added"));
    },
  });
  const err = () => box.form.querySelector(".acct-error");
  async function load() {
    try { keys = await api("GET", "/api/me/passkeys"); } catch (e) { err().textContent = apiMessage(e); keys = []; }
    drawList();
  }
  async function remove(k) {
    err().textContent = "";
    try {
      await api("DELETE", `/api/me/passkeys/${k.id}`);
      announce(t("pk.removed", { label: k.label }));
      await load();
      const first = list.querySelector("button") || box.form.querySelector("#pk-label");
      if (first) first.focus();
    } catch (e) {
      err().textContent = apiMessage(e);
    }
  }
  load();
}

/** Delete a password-less account: confirmed with one of its passkeys. */
export function openDeleteWithPasskey(opener) {
  openDialog({
    id: "delete-dialog", opener, title: t("acct.delete"), submitLabel: t("acct.delete_btn"), danger: true,
    fill: (form) => add(form,
      h("p", { class: "acct-warning" }, t("acct.delete_text")),
      h("p", {}, t("pk.delete_text"))),
    submit: async () => {
      const credential = await confirmWithPasskey("delete");
      try {
        await api("DELETE", "/api/me/with-passkey", { credential });
      } catch (e) {
        throw Object.assign(new Error(wordsFor(e)), { status: e.status || 1 });
      }
      setMe(null);
      announce(t("acct.deleted"));
    },
  });
}
