// E-mail in the browser (docs/api.md, "E-mail and password reset"): "Forgot your password?"
// in the log-in dialog, "E-mail address" and (an account without a password) "Recovery
// codes" in the account menu, log-in with a recovery code, and the two pages the e-mails
// link to: /reset (choose a new password) and /verify-email (confirm the address). The links
// carry their token after "#token=": the fragment never reaches the server's logs.
import { t, getLang } from "./i18n.js";
import { h, clear, announce } from "./dom.js";
import { api, apiMessage } from "./api.js";
import { account, setMe, openDialog, input, add } from "./account.js";
import { confirmWithPasskey } from "./passkey.js";

const val = (form, id) => form.querySelector(`#${id}`).value;

/** "Forgot your password?": a link by name or address, or why there is none on this site. */
export async function openForgot(opener) {
  let available = false;
  try { available = (await api("GET", "/api/password-reset")).available; } catch (e) { /* offline */ }
  let sent = false;
  const box = openDialog({
    id: "forgot-dialog", opener, title: t("mail.forgot_title"),
    submitLabel: () => (available && !sent ? t("mail.send_btn") : t("acct.cancel")),
    fill: (form) => {
      if (!available) {
        add(form, h("p", { id: "forgot-unavailable" }, t("mail.unavailable")),
          h("p", {}, h("button", { type: "button", class: "linklike", id: "forgot-code",
            onclick: () => { box.dlg.close(); openRecovery(opener); } }, t("rc.use"))));
        return;
      }
      if (sent) { add(form, h("p", { id: "forgot-sent", role: "status" }, t("mail.sent"))); return; }
      add(form, h("p", { class: "muted" }, t("mail.forgot_text")),
        input("forgot-who", t("mail.who"), { type: "text", required: true, maxlength: 254,
          autocomplete: "username", autocapitalize: "none", spellcheck: "false" }),
        h("p", {}, h("button", { type: "button", class: "linklike", id: "forgot-code",
          onclick: () => { box.dlg.close(); openRecovery(opener); } }, t("rc.use"))));
    },
    submit: async (form) => {
      if (!available || sent) return;
      await api("POST", "/api/password-reset", { who: val(form, "forgot-who").trim() });
      sent = true;
      box.draw();
      announce(t("mail.sent"));
      throw Object.assign(new Error(""), { keepOpen: true });
    },
  });
}

/** Log in with a recovery code and set a password. */
export function openRecovery(opener) {
  openDialog({
    id: "recovery-dialog", opener, title: t("rc.recover_title"), submitLabel: t("rc.recover_btn"),
    fill: (form) => add(form,
      input("rc-name", t("acct.name"), { type: "text", required: true, maxlength: 32, autocomplete: "username",
        autocapitalize: "none", spellcheck: "false" }),
      input("rc-code", t("rc.code"), { type: "text", required: true, maxlength: 64, autocomplete: "one-time-code",
        autocapitalize: "none", spellcheck: "false" }),
      input("rc-password", t("acct.new_password"), { type: "password", required: true, minlength: 10,
        maxlength: 1024, autocomplete: "new-password" }, "rc-pw-hint"),
      h("p", { class: "muted small", id: "rc-pw-hint" }, t("acct.password_hint"))),
    submit: async (form) => {
      const r = await api("POST", "/api/recovery", { name: val(form, "rc-name").trim(),
        code: val(form, "rc-code"), password: val(form, "rc-password") });
      setMe({ name: r.account.name, password: true });
      announce(t("acct.logged_in", { name: r.account.name }));
    },
  });
}

/** The account's e-mail address: see it, change it (a confirmation link; the change is
 * confirmed with the password, or for an account without one with a passkey), remove it. */
export async function openEmail(opener) {
  let state = null;
  try { state = await api("GET", "/api/me/email"); } catch (e) { announce(apiMessage(e)); return; }
  const me = account();
  const box = openDialog({
    id: "email-dialog", opener, title: t("mail.title"), submitLabel: t("mail.save_btn"),
    fill: (form) => {
      add(form, h("p", { class: "muted" }, t("mail.intro")),
        h("p", { id: "email-state" }, state.address ? t("mail.current", { address: state.address }) : t("mail.none")),
        state.pending ? h("p", { id: "email-pending" }, t("mail.pending", { address: state.pending })) : null);
      if (!state.mail) { add(form, h("p", { id: "email-no-mail" }, t("mail.no_mail"))); return; }
      add(form, input("email-address", t("mail.address"), { type: "email", required: true, maxlength: 254,
        autocomplete: "email", autocapitalize: "none", spellcheck: "false" }),
      me && me.password !== false ? input("email-password", t("acct.password"), { type: "password",
        required: true, autocomplete: "current-password" }) : h("p", { class: "muted small", id: "email-passkey" }, t("mail.passkey_text")),
      state.address || state.pending ? h("p", {}, h("button", { type: "button", class: "btn btn-small", id: "email-remove",
        onclick: async () => {
          try { await api("DELETE", "/api/me/email"); } catch (e) { announce(apiMessage(e)); return; }
          announce(t("mail.removed"));
          box.dlg.close();
        } }, t("mail.remove"))) : null);
    },
    submit: async (form) => {
      if (!state.mail) return;
      const body = { address: val(form, "email-address").trim(), lang: getLang() };
      const pw = form.querySelector("#email-password");
      if (pw) body.password = pw.value;
      else body.credential = await confirmWithPasskey("email");   // no password: a passkey confirms
      state = await api("PUT", "/api/me/email", body);
      announce(t("mail.asked", { address: state.pending }));
    },
  });
}

/** Recovery codes of an account without a password: make new ones, shown this once. */
export async function openRecoveryCodes(opener) {
  let left = 0;
  try { left = (await api("GET", "/api/me/email")).recovery_codes_left; } catch (e) { /* shown as 0 */ }
  let codes = null;
  const box = openDialog({
    id: "codes-dialog", opener, title: t("rc.title"), submitLabel: () => t(codes ? "acct.cancel" : "rc.make"),
    fill: (form) => {
      add(form, h("p", {}, t("rc.intro")), h("p", { class: "muted", id: "codes-left" }, t("rc.left", { n: left })));
      if (codes) {
        add(form, h("p", {}, t("rc.shown_once")),
          h("ul", { class: "recovery-codes", id: "recovery-codes" }, codes.map((c) => h("li", {}, h("code", {}, c)))));
      }
    },
    submit: async () => {
      if (codes) return;
      codes = (await api("POST", "/api/me/recovery-codes")).codes;
      left = codes.length;
      box.draw();
      throw Object.assign(new Error(""), { keepOpen: true });
    },
  });
}

function tokenOfPage() {
  const m = location.hash.match(/token=([A-Za-z0-9_-]{10,128})/);
  return m ? m[1] : null;
}

/** The page /reset: a new password with the link's token. */
export function renderReset(el) {
  document.title = `${t("mail.reset_title")} · cardtable`;
  const token = tokenOfPage();
  const panel = h("section", { class: "panel mail-page", "aria-labelledby": "reset-h" }, h("h1", { id: "reset-h" }, t("mail.reset_title")));
  el.append(panel);
  if (!token) { panel.append(h("p", { class: "error", role: "alert" }, t("mail.reset_no_token"))); return null; }
  const err = h("p", { class: "error", role: "alert", id: "reset-error" });
  const form = h("form", { class: "acct-form", novalidate: true },
    input("reset-password", t("acct.new_password"), { type: "password", required: true, minlength: 10, maxlength: 1024,
      autocomplete: "new-password" }, "reset-pw-hint"),
    h("p", { class: "muted small", id: "reset-pw-hint" }, t("acct.password_hint")),
    err, h("div", { class: "acct-btns" }, h("button", { type: "submit", class: "btn btn-primary", id: "reset-submit" }, t("mail.reset_btn"))));
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.textContent = "";
    try {
      await api("POST", "/api/password-reset/confirm", { token, password: form.querySelector("#reset-password").value });
    } catch (ex) { err.textContent = apiMessage(ex); return; }
    history.replaceState({}, "", "/reset");             // the used token leaves the address bar
    setMe(null);
    clear(panel).append(h("h1", { id: "reset-h" }, t("mail.reset_title")),
      h("p", { id: "reset-done", role: "status" }, t("mail.reset_done")),
      h("a", { href: "/", "data-link": "", class: "btn btn-primary" }, t("table.back_lobby")));
  });
  panel.append(form);
  form.querySelector("input").focus();
  return null;
}

/** The page /verify-email: the address confirmed with the link's token. */
export function renderVerify(el) {
  document.title = `${t("mail.verify_title")} · cardtable`;
  const token = tokenOfPage();
  const status = h("p", { id: "verify-status", role: "status" }, token ? t("mail.verify_busy") : t("mail.reset_no_token"));
  el.append(h("section", { class: "panel mail-page", "aria-labelledby": "verify-h" },
    h("h1", { id: "verify-h" }, t("mail.verify_title")), status,
    h("a", { href: "/", "data-link": "", class: "btn" }, t("table.back_lobby"))));
  if (token) {
    api("POST", "/api/email/verify", { token }).then((r) => {
      history.replaceState({}, "", "/verify-email");
      status.textContent = t("mail.verify_done", { address: r.address });
    }, (ex) => { status.textContent = apiMessage(ex); status.className = "error"; });
  }
  return null;
}
