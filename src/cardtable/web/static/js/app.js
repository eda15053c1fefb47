// The browser client's entry (index.html loads it): the page header, and the page of each
// address (router.js):
//   /                 lobby.js         /t/CODE[#token=...]   table.js (player or spectator)
//   /replay/CODE      replay.js        /rules/GAME           rules.js
//   /players/NAME     ratings.js       /leaderboard/GAME     ratings.js
//   /mod              mod.js (the moderators' queue)
import { t, getLang, setLang, onLang } from "./i18n.js";
import { h, clear } from "./dom.js";
import { GAME_IDS, gamesReady, rulesLabel } from "./games.js";
import { TABLE_PATH, REPLAY_PATH, PLAYER_PATH, navigate, onRoute } from "./router.js";
import { renderLobby } from "./lobby.js";
import { renderTablePage } from "./table.js";
import { renderAccount, checkSession } from "./account.js";
import { startAnnouncement } from "./announcement.js";

// the games' pages: any game GET /api/games offers (games.js, once it has answered)
const gamePath = (page, path) => {
  const m = path.match(new RegExp(`^/${page}/([a-z0-9_]+)$`));
  return m && GAME_IDS.includes(m[1]) ? m : null;
};
const mainEl = () => document.getElementById("main");
let cleanup = null;          // the current page's teardown

// -- header --------------------------------------------------------------------------------------
function renderHeader() {
  const nav = document.getElementById("site-nav");
  clear(nav);
  nav.setAttribute("aria-label", t("nav.lobby"));
  nav.append(
    h("a", { href: "/", "data-link": "" }, t("nav.lobby")),
    ...GAME_IDS.map((g) => h("a", { href: `/rules/${g}`, "data-link": "" }, rulesLabel(t, g))),
  );
  const sw = document.getElementById("lang-switch");
  clear(sw);
  sw.setAttribute("aria-label", t("nav.lang"));
  for (const [code, label] of [["de", "Deutsch"], ["en", "English"]]) {
    sw.appendChild(h("button", {
      type: "button", class: "lang-btn", lang: code, "aria-pressed": getLang() === code ? "true" : "false",
      "aria-label": label, title: label, "data-lang": code,
      onclick: () => { if (getLang() !== code) setLang(code); },
    }, code.toUpperCase()));
  }
  renderAccount(document.getElementById("account-menu"));
  document.getElementById("skip-link").textContent = t("nav.skip");
  document.documentElement.lang = getLang();
}

// -- pages ---------------------------------------------------------------------------------------------
// A page in a module loaded on demand: its `destroy` becomes the route's cleanup, unless the
// user has navigated on before the module arrived (then the page is not rendered at all).
function lazyPage(loading, render, el) {
  const mine = { destroy: null, gone: false };
  cleanup = () => { mine.gone = true; if (mine.destroy) mine.destroy(); };
  loading.then((mod) => {
    if (mine.gone) return;
    const page = render(mod);
    mine.destroy = page && page.destroy;
  }).catch((e) => el.appendChild(h("p", { class: "error" }, String(e))));
}

function route() {
  if (cleanup) { try { cleanup(); } catch (e) { console.error(e); } cleanup = null; }
  const el = mainEl();
  clear(el);
  el.className = "";
  const path = location.pathname.replace(/\/+$/, "") || "/";
  let m;
  if (path === "/") {
    document.title = "cardtable";
    cleanup = renderLobby(el);
  } else if ((m = path.match(TABLE_PATH))) {
    cleanup = renderTablePage(el, m[1].toUpperCase());
  } else if ((m = path.match(REPLAY_PATH))) {
    document.title = `${t("table.replay")} ${m[1]} · cardtable`;
    el.className = "page-replay";
    lazyPage(import("./replay.js"), (mod) => mod.render(el, { code: m[1].toUpperCase() }), el);
  } else if ((m = gamePath("rules", path))) {
    document.title = `${t("nav.rules")} · ${t("game." + m[1])} · cardtable`;
    el.className = "page-rules";
    lazyPage(import("./rules.js"), (mod) => mod.render(el, { game: m[1] }), el);
  } else if ((m = path.match(PLAYER_PATH)) || (m = gamePath("leaderboard", path))) {
    let route = null;
    try { route = path.startsWith("/players/") ? { player: decodeURIComponent(m[1]) } : { game: m[1] }; } catch (e) { /* bad escape */ }
    if (route) lazyPage(import("./ratings.js"), (mod) => mod.render(el, route), el);
  } else if (path === "/mod") {
    document.title = `${t("modq.title")} · cardtable`;
    lazyPage(import("./mod.js"), (mod) => mod.render(el), el);
  } else if (path === "/reset" || path === "/verify-email") {
    lazyPage(import("./mail.js"), (mod) => (path === "/reset" ? mod.renderReset(el) : mod.renderVerify(el)), el);
  } else {
    document.title = `${t("page.not_found")} · cardtable`;
    el.appendChild(h("div", { class: "panel not-found" }, h("h1", {}, t("page.not_found")), h("p", {}, t("page.not_found_text")),
      h("a", { href: "/", "data-link": "", class: "btn btn-primary" }, t("table.back_lobby"))));
  }
}
onRoute(route);

document.addEventListener("click", (ev) => {
  const a = ev.target.closest && ev.target.closest("a[data-link]");
  if (!a || ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  ev.preventDefault();
  if (url.pathname + url.hash !== location.pathname + location.hash) navigate(url.pathname + url.hash);
});
window.addEventListener("popstate", route);
onLang(() => {
  renderHeader();
  // lobby and table pages re-render themselves through their own onLang hooks
});

// -- start -----------------------------------------------------------------------------------------
// the games the server offers are known before the first page is drawn (games.js)
gamesReady().then(() => {
  renderHeader();
  route();
  checkSession();
  startAnnouncement();
});
