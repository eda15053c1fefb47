// The admins' banner (docs/api.md, "Moderation": GET /api/announcement): shown above every
// page, the lobby and the tables included, in the page's language (the announcement carries
// English and German words), until it ends; asked again every few minutes.
import { getLang, onLang } from "./i18n.js";
import { h } from "./dom.js";
import { api } from "./api.js";

const EVERY = 5 * 60 * 1000;
let current = null;

function draw() {
  let el = document.getElementById("announcement");
  const live = current && (current.until === null || current.until * 1000 > Date.now());
  if (!live) { if (el) el.remove(); return; }
  if (!el) {
    el = h("div", { id: "announcement", class: "announcement", role: "status" });
    const main = document.getElementById("main");
    if (!main) return;
    main.before(el);
  }
  el.lang = getLang();
  el.textContent = getLang() === "de" ? current.de : current.en;      // text, never HTML
}

async function refresh() {
  try {
    current = (await api("GET", "/api/announcement")).announcement || null;
  } catch (e) { /* keep what was shown */ }
  draw();
}

/** Show the banner now and keep it current (the page's language, new announcements). */
export function startAnnouncement() {
  onLang(draw);
  refresh();
  setInterval(refresh, EVERY);
}
