// Accounts in the browser (docs/api.md, "Accounts"): the "Sign in" button or the
// account menu in the page header, the dialogs (log in, create an account, change the
// password, log out everywhere, delete the account) and the lobby's "My games" panel. The
// e-mail dialogs (forgotten password, address, recovery codes) are mail.js's.
//
// The session is an HttpOnly cookie: no script here can read it. This module keeps only a
// hint of the name in localStorage (`cardtable.account`), so a page that was never logged in
// does not ask GET /api/me at every start; the server alone decides who is logged in. At
// sign-up and log-in the seat tokens this browser holds go along (`claim`): those games
// become the account's. Playing never needs an account. A moderator's unread warnings
// (GET /api/me) are shown once each, in a dialog that marks them read.
import { t, onLang } from "./i18n.js";
import { h, clear, announce } from "./dom.js";
import { api, apiMessage } from "./api.js";
import { mySeats, loadSeat, saveSeat } from "./store.js";
import { seatNames } from "./seats.js";
import { when } from "./pace.js";
import { navigate } from "./router.js";
import { passkeysHere, passkeySignIn, openPasskeys, openDeleteWithPasskey } from "./passkey.js";
import { openForgot, openEmail, openRecoveryCodes } from "./mail.js";

const HINT = "cardtable.account";
let me = null;                 // { name, password, role } while logged in (password: false for
                               // an account signed up with a passkey: it has none; role: player,
                               // moderator or admin, from GET /api/me)
const listeners = new Set();

function hint() {
  try { return localStorage.getItem(HINT); } catch (e) { return null; }
}

export function setMe(value) {
  me = value;
  try {
    if (value) localStorage.setItem(HINT, value.name); else localStorage.removeItem(HINT);
  } catch (e) { /* storage unavailable */ }
  for (const f of [...listeners]) f();
  if (value && value.role === undefined) learnRole(value);   // a log-in's answer has no role
}

/** The logged-in account's role (GET /api/me): a moderator's menu gets the reports queue (the
 * header is redrawn only then, its focus kept). */
async function learnRole(value) {
  let m = null;
  try { m = await api("GET", "/api/me"); } catch (e) { return; }
  if (me !== value || m.name !== value.name) return;
  value.role = m.role || "player";
  if (value.role === "player") return;
  const focused = document.activeElement && document.activeElement.id === "account-btn";
  renderAccount(document.getElementById("account-menu"));
  const b = document.getElementById("account-btn");
  if (focused && b) b.focus();
}

export function account() { return me; }

export function onAccount(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

/** Ask the server who is logged in (only when this browser was, as far as it knows). While
 * it asks, the header's button says "Sign in"; a click on it then waits for the answer (a
 * logged-in player gets the menu, not the log-in dialog). */
let checking = null;
export function checkSession() {
  checking = askSession().finally(() => { checking = null; });
  return checking;
}

async function askSession() {
  if (!hint()) { if (me) setMe(null); return; }
  try {
    const m = await api("GET", "/api/me");
    setMe({ name: m.name, password: m.has_password !== false, role: m.role || "player" });
    showWarnings(m.warnings || []);
  } catch (e) {
    if (e.status === 401) setMe(null);
  }
}

/** A moderator's unread warnings, one dialog each; "Understood" marks it read (the server
 * then no longer sends it), closing the dialog otherwise shows it again next time. */
function showWarnings(list) {
  if (!list.length || document.getElementById("warning-dialog")) return;
  const [w, ...rest] = list;
  openDialog({ id: "warning-dialog", title: () => t("mod.warning_title"), submitLabel: () => t("mod.warning_ok"),
    fill: (form) => form.append(h("p", {}, t("mod.warning_intro")),
      h("blockquote", { class: "mod-warning-text" }, w.text)),
    submit: async () => {
      await api("POST", `/api/me/warnings/${w.id}/read`);
      setTimeout(() => showWarnings(rest), 0);
    } });
}

export function claimTokens() {
  return mySeats().map((s) => s.token).filter((x) => typeof x === "string" && x).slice(0, 200);
}

// -- dialogs ---------------------------------------------------------------------------------------
let dialogSeq = 0;

/** A modal dialog (the native <dialog>: focus stays inside, Escape closes it, the page behind
 * is inert for screen readers). `fill(form, setError)` draws its body into the form;
 * `submit(form)` runs on submit: a thrown API error is shown in the dialog, anything else
 * closes it. Focus returns to `opener` afterwards. */
export function openDialog({ id, title, fill, submit, submitLabel, danger, opener }) {
  const n = ++dialogSeq;
  const titleId = `acct-title-${n}`;
  const err = h("p", { class: "error acct-error", role: "alert", id: `acct-err-${n}` });
  const dlg = h("dialog", { class: "acct-dialog", id, "aria-labelledby": titleId });
  const form = h("form", { class: "acct-form", novalidate: true });
  let busy = false;
  const draw = () => {
    clear(form);
    fill(form, draw);
    form.append(err, h("div", { class: "acct-btns" },
      h("button", { type: "button", class: "btn", onclick: () => dlg.close() }, t("acct.cancel")),
      h("button", { type: "submit", class: "btn " + (danger ? "btn-danger" : "btn-primary"),
        id: `${id}-submit` }, typeof submitLabel === "function" ? submitLabel() : submitLabel)));
  };
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (busy) return;
    busy = true;
    err.textContent = "";
    form.setAttribute("aria-busy", "true");
    try {
      await submit(form);
      dlg.close();
    } catch (ex) {
      if (!(ex && ex.keepOpen)) {          // (keepOpen: the dialog drew its next step)
        err.textContent = apiMessage(ex);
        const first = form.querySelector("input[aria-invalid='true'], input");
        if (first) first.focus();
      }
    } finally {
      busy = false;
      form.removeAttribute("aria-busy");
    }
  });
  dlg.append(h("h2", { id: titleId }, typeof title === "function" ? title() : title), form);
  dlg.addEventListener("close", () => {
    dlg.remove();
    if (opener && opener.isConnected) opener.focus();
    else { const b = document.getElementById("account-btn"); if (b) b.focus(); }
  });
  draw();
  document.body.appendChild(dlg);
  dlg.showModal();
  const first = form.querySelector("input");
  if (first) first.focus();
  return { dlg, form, draw, titleId };
}

export function input(id, label, attrs, describedBy) {
  return h("div", { class: "field" },
    h("label", { for: id }, label),
    h("input", Object.assign({ id, name: id, "aria-describedby": describedBy || null }, attrs)));
}

function showPassword(form) {
  return h("label", { class: "check acct-show" }, h("input", { type: "checkbox", onchange: (e) => {
    for (const p of form.querySelectorAll("input[data-pw]")) p.type = e.target.checked ? "text" : "password";
  } }), " ", t("acct.show_password"));
}

/** Append the nodes that are there (Element.append would write a null as "null"). */
export const add = (parent, ...nodes) => parent.append(...nodes.filter(Boolean));

const val = (form, id) => form.querySelector(`#${id}`).value;

/** Log in or create an account (one dialog, two modes). */
export function openSignIn(opener, mode = "login") {
  let signup = mode === "signup";
  let box = null;
  box = openDialog({
    id: "signin-dialog", opener,
    title: () => t(signup ? "acct.signup_title" : "acct.login_title"),
    submitLabel: () => t(signup ? "acct.signup_btn" : "acct.login_btn"),
    fill: (form, redraw) => {
      const keep = claimTokens().length > 0;
      add(form,
        h("p", { class: "muted acct-why" }, t("acct.why")),
        input("acct-name", t("acct.name"), { type: "text", maxlength: 32, required: true,
          autocomplete: "username", autocapitalize: "none", spellcheck: "false",
          value: box ? (form.dataset.name || "") : "" }),
        input("acct-password", t("acct.password"), { type: "password", required: true,
          maxlength: 1024, minlength: signup ? 10 : null, "data-pw": "",
          autocomplete: signup ? "new-password" : "current-password" },
        signup ? "acct-pw-hint" : null),
        signup ? h("p", { class: "muted small", id: "acct-pw-hint" }, t("acct.password_hint")) : null,
        showPassword(form),
        keep ? h("p", { class: "acct-keeps" }, t("acct.keeps")) : null,
        signup ? null : h("p", { class: "acct-forgot" }, h("button", { type: "button", class: "linklike", id: "acct-forgot",
          onclick: () => { box.dlg.close(); openForgot(opener); } }, t("mail.forgot"))),
        passkeySignIn(form, signup),
        h("p", { class: "acct-switch" }, h("button", { type: "button", class: "linklike", id: "acct-mode",
          onclick: () => {
            form.dataset.name = val(form, "acct-name");
            signup = !signup;
            redraw();
            document.getElementById(box.titleId).textContent = t(signup ? "acct.signup_title" : "acct.login_title");
            form.querySelector("#acct-mode").focus();
          } }, t(signup ? "acct.to_login" : "acct.to_signup"))),
      );
    },
    submit: async (form) => {
      const body = { name: val(form, "acct-name").trim(), password: val(form, "acct-password"),
        claim: claimTokens() };
      const r = await api("POST", signup ? "/api/accounts" : "/api/session", body);
      setMe({ name: r.account.name, password: true });
      announce(t("acct.logged_in", { name: r.account.name }));
      if (r.claimed) announce(t("acct.claimed", { n: r.claimed }));
      if (r.ban) announce(t(r.ban.until ? "mod.suspended_login" : "mod.banned_login", r.ban));
    },
  });
}

/** The reports I filed and whether a moderator handled them (and how). */
async function openMyReports(opener) {
  let reports = null;
  let error = null;
  const ctl = openDialog({
    id: "reports-dialog", opener, title: t("mod.my_reports"), submitLabel: t("mod.close"),
    fill: (form) => add(form,
      error ? h("p", { class: "error", role: "alert" }, apiMessage(error)) :
        reports === null ? h("p", { class: "muted" }, t("rt.loading")) :
          reports.length === 0 ? h("p", { class: "muted" }, t("mod.no_reports")) :
            h("ul", { class: "mod-reports", id: "my-reports" }, reports.map((r) => h("li", { data: { id: String(r.id) } },
              h("strong", {}, r.name), " · ", t("mod.reason." + r.reason), " · ",
              h("span", { class: "mod-state" }, r.handled ? t("mod.handled." + (r.outcome || "no_action")) : t("mod.waiting")))))),
    submit: async () => {},
  });
  try { reports = await api("GET", "/api/me/reports"); } catch (e) { error = e; }
  ctl.draw();
}

function openChangePassword(opener) {
  openDialog({
    id: "password-dialog", opener, title: t("acct.change_password"), submitLabel: t("acct.change_btn"),
    fill: (form) => add(form,
      h("input", { type: "text", autocomplete: "username", value: me ? me.name : "", hidden: true, readonly: true, "aria-hidden": "true", tabindex: "-1" }),
      input("acct-old", t("acct.old_password"), { type: "password", required: true, "data-pw": "", autocomplete: "current-password" }),
      input("acct-new", t("acct.new_password"), { type: "password", required: true, minlength: 10, maxlength: 1024, "data-pw": "", autocomplete: "new-password" }, "acct-pw-hint"),
      h("p", { class: "muted small", id: "acct-pw-hint" }, t("acct.password_hint")),
      showPassword(form)),
    submit: async (form) => {
      await api("POST", "/api/me/password", { old: val(form, "acct-old"), new: val(form, "acct-new") });
      announce(t("acct.changed"));
    },
  });
}

function openLogoutAll(opener) {
  openDialog({
    id: "logout-all-dialog", opener, title: t("acct.logout_all"), submitLabel: t("acct.logout_all_btn"),
    fill: (form) => add(form, h("p", {}, t("acct.logout_all_text"))),
    submit: async () => {
      await api("DELETE", "/api/me/sessions");
      setMe(null);
      announce(t("acct.logged_out"));
    },
  });
}

function openDelete(opener) {
  openDialog({
    id: "delete-dialog", opener, title: t("acct.delete"), submitLabel: t("acct.delete_btn"), danger: true,
    fill: (form) => add(form,
      h("p", { class: "acct-warning" }, t("acct.delete_text")),
      input("acct-del-pw", t("acct.password"), { type: "password", required: true, "data-pw": "", autocomplete: "current-password" })),
    submit: async (form) => {
      await api("DELETE", "/api/me", { password: val(form, "acct-del-pw") });
      setMe(null);
      announce(t("acct.deleted"));
    },
  });
}

async function logOut() {
  try { await api("DELETE", "/api/session"); } catch (e) { /* the cookie may be gone already */ }
  setMe(null);
  announce(t("acct.logged_out"));
}

// -- the header: "Sign in", or the account menu ---------------------------------------------------
let menuOpen = false;

export function renderAccount(el) {
  if (!el) return;
  clear(el);
  if (!me) {
    menuOpen = false;
    el.append(h("button", { type: "button", class: "acct-signin", id: "account-btn",
      onclick: async (e) => {
        let opener = e.currentTarget;
        if (checking) { await checking; opener = document.getElementById("account-btn"); }
        if (me) openMenu(el); else openSignIn(opener);
      } }, t("acct.sign_in")));
    return;
  }
  const btn = h("button", { type: "button", class: "acct-btn", id: "account-btn", "aria-haspopup": "true",
    "aria-expanded": menuOpen ? "true" : "false", "aria-controls": "account-list",
    "aria-label": t("acct.menu", { name: me.name }),
    onclick: () => { if (menuOpen) { menuOpen = false; renderAccount(el); } else openMenu(el); } },
  h("span", { class: "acct-avatar", "aria-hidden": "true" }, [...me.name][0].toUpperCase()),
  h("span", { class: "acct-name" }, me.name), h("span", { class: "acct-caret", "aria-hidden": "true" }, "▾"));
  el.append(btn);
  if (!menuOpen) return;
  const close = () => { menuOpen = false; renderAccount(el); const b = document.getElementById("account-btn"); if (b) b.focus(); };
  const item = (id, label, onclick, extra = {}) => h("li", {}, h("button", Object.assign({ type: "button", id, class: "acct-item",
    onclick: () => { menuOpen = false; renderAccount(el); onclick(document.getElementById("account-btn")); } }, extra), label));
  const list = h("ul", { class: "acct-menu", id: "account-list", onkeydown: (e) => {
    const items = [...list.querySelectorAll("a, button")];
    const i = items.indexOf(document.activeElement);
    if (e.key === "Escape") { e.preventDefault(); close(); }
    else if (e.key === "ArrowDown") { e.preventDefault(); items[(i + 1) % items.length].focus(); }
    else if (e.key === "ArrowUp") { e.preventDefault(); items[(i - 1 + items.length) % items.length].focus(); }
  } },
  item("acct-my-games", t("acct.my_games"), () => showMyGames()),
  me.password === false ? null : item("acct-change-pw", t("acct.change_password"), openChangePassword),
  passkeysHere() ? item("acct-passkeys", t("pk.menu"), openPasskeys) : null,
  item("acct-email", t("mail.menu"), openEmail),
  me.password === false ? item("acct-codes", t("rc.menu"), openRecoveryCodes) : null,
  item("acct-reports", t("mod.my_reports"), openMyReports),
  me.role === "moderator" || me.role === "admin" ? h("li", {}, h("a", { class: "acct-item", id: "acct-mod", href: "/mod", "data-link": "",
    onclick: () => { menuOpen = false; setTimeout(() => renderAccount(el), 0); } }, t("modq.menu"))) : null,
  h("li", {}, h("a", { class: "acct-item", id: "acct-download", href: "/api/me/data", download: "cardtable-account.json",
    onclick: () => { menuOpen = false; setTimeout(() => renderAccount(el), 0); } }, t("acct.download"))),
  h("li", {}, h("a", { class: "acct-item", id: "acct-profile", href: `/players/${encodeURIComponent(me.name)}`, "data-link": "",
    onclick: () => { menuOpen = false; setTimeout(() => renderAccount(el), 0); } }, t("rt.profile"))),
  item("acct-logout", t("acct.logout"), () => logOut()),
  item("acct-logout-all", t("acct.logout_all"), openLogoutAll),
  item("acct-delete", t("acct.delete"), me.password === false ? openDeleteWithPasskey : openDelete,
    { class: "acct-item acct-danger" }));
  el.append(list);
}

function openMenu(el) {
  menuOpen = true;
  renderAccount(el);
  const f = el.querySelector("#account-list a, #account-list button");
  if (f) f.focus();
}

document.addEventListener("click", (e) => {
  const el = document.getElementById("account-menu");
  // (a click on the menu's own button redraws it: its target is gone from the page by now)
  if (menuOpen && el && e.target.isConnected && !el.contains(e.target)) { menuOpen = false; renderAccount(el); }
});

// -- "My games" in the lobby -------------------------------------------------------------------
const panel = h("section", { class: "panel my-games", id: "my-games", "aria-labelledby": "my-games-h", tabindex: "-1", hidden: true });
let games = null;
let gamesAt = 0;
let loading = false;

function gameStatus(g) {
  if (g.status === "playing" && g.turn !== null && g.turn !== undefined) {
    const chip = g.your_turn ? h("span", { class: "chip chip-turn" }, t("acct.your_turn"))
      : h("span", { class: "chip chip-status" }, t("acct.turn_of", { name: seatNames(g.seats)[g.turn] }));
    // a turn-based game: by when the move is due, in the reader's time
    return g.pace === "turn" && g.deadline ? [chip, " ", h("span", { class: "ti-deadline muted", data: { deadline: String(g.deadline) } },
      t("pace.until", { when: when(g.deadline) }))] : chip;
  }
  return h("span", { class: "chip chip-status" }, t("lobby.status." + g.status));
}

function drawPanel() {
  panel.hidden = !me;
  if (!me) { clear(panel); return; }
  const focusId = panel.contains(document.activeElement) && document.activeElement.id;
  clear(panel).append(h("h2", { id: "my-games-h" }, t("acct.my_games")));
  if (games === null) return;
  if (!games.length) { panel.append(h("p", { class: "muted" }, t("acct.my_games_none"))); return; }
  panel.append(h("ul", { class: "table-list" }, games.slice(0, 12).map((g) => {
    const over = g.status === "over";
    // a seat its player left: a bot plays it to the end, the player may only watch
    const left = !over && g.seats[g.seat] && g.seats[g.seat].kind === "bot";
    const label = over ? t("table.replay") : left ? t("table.watch") : t("acct.play_on");
    return h("li", { class: "table-item", data: { code: g.code, status: g.status } },
      h("div", { class: "ti-main" },
        h("strong", {}, t("game." + g.game)),
        g.variant ? h("span", { class: "muted" }, " · " + t("variant." + g.variant)) : null, " ", gameStatus(g),
        h("div", { class: "ti-seats" }, seatNames(g.seats).map((name, i) => h("span", { class: "chip" + (i === g.seat ? " chip-me" : "") }, name)))),
      h("div", { class: "ti-actions" }, h("a", { class: "btn btn-small" + (g.your_turn ? " btn-primary" : ""), id: `mg-${g.code}`,
        href: over ? g.replay : g.link, "data-link": "", "aria-label": `${label}: ${t("game." + g.game)} ${g.code}`,
        onclick: over || left ? null : (e) => playOn(e, g) }, label)));
  })));
  if (focusId) { const f = document.getElementById(focusId); if (f) f.focus(); }
}

/** "Play on" at a table whose seat token this browser does not hold (another device took
 * the seat, or the game began there): the server gives the account's seat a new token
 * (the other device's stops working) and the table opens with it. */
async function playOn(e, g) {
  const mine = loadSeat(g.code);
  if (mine && mine.token) return;                  // the link opens the table with it
  e.preventDefault();
  e.stopPropagation();
  try {
    const r = await api("POST", `/api/me/games/${g.code}/seat`);
    saveSeat(r.code, { token: r.token, seat: r.seat, name: r.name, game: r.game });
  } catch (ex) {
    announce(apiMessage(ex));
  }
  navigate(`/t/${g.code}`);
}

async function loadGames(force = false) {
  if (!me || loading || (!force && Date.now() - gamesAt < 9000)) return;
  loading = true;
  try {
    games = await api("GET", "/api/me/games?limit=20");
    gamesAt = Date.now();
  } catch (e) {
    if (e.status === 401) setMe(null);
  } finally {
    loading = false;
  }
  drawPanel();
}

/** The lobby's "My games" panel (hidden while logged out); refreshed as the lobby refreshes. */
export function myGamesPanel() {
  drawPanel();
  loadGames();
  return panel;
}

function showMyGames() {
  if (location.pathname !== "/") navigate("/");
  let frames = 0;
  const go = () => {         // once the lobby has drawn its lists (at most a few seconds)
    if (panel.isConnected && !panel.hidden) { panel.scrollIntoView({ block: "start" }); panel.focus(); }
    else if (++frames < 300) requestAnimationFrame(go);
  };
  go();
}

onAccount(() => {
  games = null;
  gamesAt = 0;
  drawPanel();
  loadGames(true);
  renderAccount(document.getElementById("account-menu"));
});
onLang(() => drawPanel());
