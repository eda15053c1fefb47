// The replay's loading (replay.js): the table (its names and its game's module), then a seat's
// steps page by page from GET /api/tables/CODE/replay?seat=&from=&count= (a page holds PAGE
// steps; a page is loaded when a step on it is shown, and the next one ahead of time), and the
// page's messages while it loads or when it cannot. `P` is the page (replay.js).
import { t } from "./i18n.js";
import { loadGame } from "./games.js";
import { seatNames } from "./seats.js";
import { node } from "./dom.js";
import { replayReview } from "./replay-review.js";

export const PAGE = 500;

/** The key of a seat's replay: "full" (no seat, the full view) or the seat's number. */
export const seatKey = (s) => (s === null ? "full" : String(s));

async function getJSON(url, opts) {
  const r = await fetch(url, opts);
  let body = null;
  try { body = await r.json(); } catch (e) { /* not JSON */ }
  if (!r.ok) {
    const err = new Error(body && typeof body.detail === "string" ? body.detail : `HTTP ${r.status}`);
    err.status = r.status;
    throw err;
  }
  return body;
}

/** The page replaced by a message: loading (a status), or an error (an alert, with "retry"). */
export function message(P, text, { alert = false, retry = false } = {}) {
  const p = node("p", alert ? "replay-error" : "replay-loading", text);
  p.setAttribute("role", alert ? "alert" : "status");
  const box = node("div", "replay-message");
  box.appendChild(p);
  if (retry) {
    const b = node("button", "replay-btn", t("replay.retry"));
    b.type = "button";
    b.addEventListener("click", P.start);
    box.appendChild(b);
  }
  P.root.replaceChildren(box);
}

/** A seat's replay: the game's facts and its steps, loaded page by page (a sparse array). */
export function loadSeat(P, seat) {
  const { st } = P;
  const key = seatKey(seat);
  if (!st.replays.has(key)) {
    const rep = { pages: new Map(), data: null };
    rep.first = loadPage(P, rep, seat, 0).then(() => rep.data)
      .catch((e) => { st.replays.delete(key); throw e; });
    st.replays.set(key, rep);
  }
  return st.replays.get(key).first;
}

function loadPage(P, rep, seat, p) {
  const { st } = P;
  if (!rep.pages.has(p)) {
    const q = new URLSearchParams({ from: String(p * PAGE), count: String(PAGE) });
    if (seat !== null) q.set("seat", String(seat));
    rep.pages.set(p, getJSON(`/api/tables/${encodeURIComponent(st.code)}/replay?${q}`).then((page) => {
      if (!rep.data) {
        rep.data = { ...page, steps: new Array(page.actions + 1) };
      }
      page.steps.forEach((s) => { rep.data.steps[s.index] = s; });
      if (st.alive && P.ui && st.data === rep.data) P.fillLog(page.steps);
      return page;
    }).catch((e) => { rep.pages.delete(p); throw e; }));
  }
  return rep.pages.get(p);
}

/** Make sure step i of the current seat is loaded (and the page after it, ahead of time). */
export function ensure(P, i) {
  const { st } = P;
  const rep = st.replays.get(seatKey(st.seat));
  const p = Math.floor(i / PAGE);
  const next = p + 1;
  if (next * PAGE <= st.data.actions) loadPage(P, rep, st.seat, next).catch(() => {});
  return loadPage(P, rep, st.seat, p);
}

/** The step the address names (#step=N), else 0. */
export function stepFromHash() {
  const m = location.hash.match(/step=(\d+)/);
  return m ? parseInt(m[1], 10) : 0;
}

/** Loads the table, its game's module and the chosen seat's first steps, then builds the page. */
export async function start(P) {
  const { st } = P;
  message(P, t("replay.loading"));
  try {
    const table = await getJSON(`/api/tables/${encodeURIComponent(st.code)}`).catch((e) => {
      if (e.status === 404) throw Object.assign(new Error(t("replay.not_found", { code: st.code })), { shown: true });
      throw e;
    });
    st.table = table;
    st.render = (await loadGame(table.game)).render;     // the game's module draws the board
    st.names = seatNames(table.seats || []);
    try {
      st.data = await loadSeat(P, st.seat);
    } catch (e) {
      if (e.status === 409) throw Object.assign(new Error(t("replay.not_over")), { shown: true });
      throw e;
    }
    if (!st.alive) return;
    st.step = Math.min(stepFromHash(), st.data.actions);
    if (!st.review) {                   // the review of a person's seat (replay-review.js)
      st.review = replayReview({ code: st.code, players: st.data.players, seats: table.seats, nameOf: P.nameOf,
        go: (i) => P.go(i), step: () => st.step });
    }
    await ensure(P, st.step);
    if (!st.alive) return;
    P.build();
  } catch (e) {
    if (!st.alive) return;
    message(P, e.shown ? e.message : t("replay.error", { msg: e.message }), { alert: true, retry: !e.shown });
  }
}
