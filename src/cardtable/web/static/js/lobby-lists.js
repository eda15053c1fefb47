// The lobby's lists (lobby.js): this browser's tables (its player's moves first: pace.js), the
// open tables (a seat to take, or to watch) and the running ones (to watch). They are drawn
// again on every refresh, the forms are not: a refresh never loses a click, an open menu or a
// half-typed table code. `L` is the lobby (lobby.js).
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { seatNames } from "./seats.js";
import { personMarks, peopleAt, askPeople } from "./person.js";
import { mySeats } from "./store.js";
import { myGamesPanel } from "./account.js";
import { when } from "./pace.js";
import { joinBy } from "./lobby-join.js";

export function listsBox() {
  return h("div", { class: "lobby-lists", id: "lobby-lists" });
}

/** A table of the open or the running list: its game, players, seats and what may be done. */
function tableItem(L, tb, joinable) {
  return h("li", { class: "table-item", data: { code: tb.code } },
    h("div", { class: "ti-main" },
      h("strong", {}, t("game." + tb.game)),
      tb.variant ? h("span", { class: "muted" }, " · " + t("variant." + tb.variant)) : null,
      h("span", { class: "muted" }, ` · ${t("lobby.n_players", { n: tb.players })}` + (joinable ? ` · ${t("lobby.free", { n: tb.free_seats.length })}` : "")),
      tb.rated ? [" ", h("span", { class: "chip chip-rated" }, t("lobby.rated_chip"))] : null,
      h("div", { class: "ti-seats" }, seatNames(tb.seats).map((n, i) => h("span", { class: "chip" + (tb.free_seats.includes(i) ? " chip-free" : "") },
        tb.free_seats.includes(i) ? t("seat.open") : [personMarks(peopleAt(tb.code)[i], n), n])))),
    h("div", { class: "ti-actions" },
      joinable ? h("button", { type: "button", class: "btn btn-small btn-primary", onclick: () => joinBy(L, tb.code, L.form.name),
        "aria-label": `${t("lobby.join_btn")}: ${t("game." + tb.game)} ${tb.code}` }, t("lobby.join_btn")) : null,
      h("a", { class: "btn btn-small", href: `/t/${tb.code}`, "data-link": "", "aria-label": `${t("lobby.watch_btn")}: ${t("game." + tb.game)} ${tb.code}` }, t("lobby.watch_btn"))));
}

function runningPanel(L) {
  return h("div", { class: "panel running-tables", "aria-labelledby": "running-h", id: "running-tables" },
    h("h2", { id: "running-h" }, t("lobby.running")),
    L.running.length === 0 ? h("p", { class: "muted" }, t("lobby.running_none")) :
      h("ul", { class: "table-list" }, L.running.map((tb) => tableItem(L, tb, false))));
}

function openPanel(L) {
  return h("div", { class: "panel open-tables", "aria-labelledby": "open-h" },
    h("div", { class: "panel-head" }, h("h2", { id: "open-h" }, t("lobby.open")),
      h("button", { type: "button", class: "btn btn-small", id: "refresh-btn", onclick: L.load }, t("lobby.refresh"))),
    L.tables.length === 0 ? h("p", { class: "muted" }, t("lobby.none")) :
      h("ul", { class: "table-list" }, L.tables.map((tb) => tableItem(L, tb, true))),
  );
}

/** "Your move" and its deadline, at a table of this browser's where it is the player's. */
function moveChip(L, s) {
  const m = L.myMoves[s.code];
  if (!m || !m.your_move) return null;
  return [h("span", { class: "chip chip-your-move" }, t("pace.my_moves")),
    m.deadline ? h("span", { class: "ti-deadline muted" }, t("pace.until", { when: when(m.deadline) })) : null];
}

/** This browser's tables (null: none): the player's moves first (the earliest deadline first),
 * then the latest; a game over opens its replay. */
function myTablesPanel(L) {
  const { myMoves, myStatus } = L;
  const rank = (s) => (myMoves[s.code] ? myMoves[s.code].rank : 1e9);
  const mine = mySeats().sort((a, b) => rank(a) - rank(b)).slice(0, 6);
  if (!mine.length) return null;
  return h("div", { class: "panel my-tables" }, h("h2", {}, t("lobby.my_tables")),
    h("ul", { class: "table-list" }, mine.map((s) => h("li", { class: "table-item", data: { code: s.code, status: myStatus[s.code] || "" } },
      h("div", { class: "ti-main" }, h("strong", {}, s.game ? t("game." + s.game) : ""), ` · ${s.code} · ${s.name || ""}`,
        myStatus[s.code] ? h("span", { class: "chip chip-status" }, t("lobby.status." + myStatus[s.code])) : null,
        moveChip(L, s)),
      h("div", { class: "ti-actions" }, h("a", { class: "btn btn-small", href: myStatus[s.code] === "over" ? `/replay/${s.code}` : `/t/${s.code}`, "data-link": "",
        "aria-label": `${myStatus[s.code] === "over" ? t("table.replay") : t("lobby.resume")}: ${s.code}` }, myStatus[s.code] === "over" ? t("table.replay") : t("lobby.resume")))))));
}

/** The lists drawn again (the keyboard stays on the control it was on). */
export function drawLists(L) {
  const box = L.listsBox;
  const focusId = document.activeElement && box.contains(document.activeElement) && document.activeElement.id;
  const runningEl = runningPanel(L);
  const list = openPanel(L);
  const mineEl = myTablesPanel(L);
  myGamesPanel();                         // "My games" (logged in): refreshed with the lists
  askPeople([...L.tables, ...L.running], () => { if (box.isConnected) drawLists(L); });   // avatars, flags
  clear(box).append(...[mineEl, list, runningEl].filter(Boolean));
  if (focusId) { const f = document.getElementById(focusId); if (f) f.focus(); }
}
