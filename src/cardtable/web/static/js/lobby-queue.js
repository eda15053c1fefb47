// "Play now" in the lobby (lobby.js; docs/api.md "Play now"): the game, its rule set or any,
// casual or rated (signed in), live or turn-based, bots for the empty seats after a wait or
// never; POST /api/queue, then the waiting state (the time waited, a cancel button) polled
// every 2 s with the entry's ticket (GET /api/queue), and the table opened by itself once the
// server has paired the player: the ticket is the seat's token there. The ticket is kept in
// this browser, so a reload (or a server restart) goes on waiting. The counts waiting per game
// come with every answer, and with the lobby's own load (`refreshCounts`).
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { api, apiMessage } from "./api.js";
import { saveSeat, storeName } from "./store.js";
import { GAMES, GAME_IDS } from "./games.js";
import { navigate } from "./router.js";
import { account } from "./account.js";
import { field, select, syncName } from "./lobby-fields.js";

const KEY = "cardtable.queue";
const POLL_MS = 2000;

function stored() {
  try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch (e) { return null; }
}
function keep(v) {
  try { if (v) localStorage.setItem(KEY, JSON.stringify(v)); else localStorage.removeItem(KEY); } catch (e) { /* ignore */ }
}

function variantsOf(L, game) {
  const g = L.games && L.games.find((x) => x.name === game);
  return g && g.rule_sets ? g.rule_sets.map((r) => r.name) : [];
}

/** The panel: `el` stays the same element while the lobby is drawn again. */
export function playNowPanel(L) {
  const Q = {
    el: h("section", { class: "panel play-now", id: "play-now", "aria-labelledby": "pn-h" }),
    form: { game: GAME_IDS[0], variant: "", rated: false, pace: "live", botWait: "30" },
    waiting: {}, entry: null, ticket: null, error: "", timer: null, busy: false,
  };
  const mine = stored();
  if (mine) Q.ticket = mine.ticket;       // waiting since before a reload

  async function poll() {
    if (!Q.ticket) return;
    try {
      const r = await api("GET", "/api/queue", null, { "X-Queue-Ticket": Q.ticket });
      Q.waiting = r.waiting;
      Q.entry = r.entry;
      if (!r.entry) { stop(); }
      else if (r.entry.state === "paired") { open(r.entry); return; }
    } catch (e) { /* try again */ }
    if (!Q.ticket || !document.getElementById("pn-elapsed")) { redraw(); return; }
    // waiting on: only the time waited and the counts change (the focus stays on cancel)
    document.getElementById("pn-elapsed").replaceWith(elapsed());
    document.getElementById("pn-counts").replaceWith(counts());
  }
  function start() { if (!Q.timer) Q.timer = setInterval(poll, POLL_MS); }
  function stop() { clearInterval(Q.timer); Q.timer = null; Q.ticket = null; Q.entry = null; keep(null); }
  function open(e) {
    saveSeat(e.table, { token: Q.ticket, seat: e.seat, name: e.name, game: e.game });
    stop();
    navigate(`/t/${e.table}`);
  }
  async function go(ev) {
    ev.preventDefault();
    if (Q.busy) return;
    const f = Q.form;
    const name = (L.form.name || "").trim();
    const body = { game: f.game, pace: f.pace };
    if (f.variant) body.variant = f.variant;
    if (f.rated && account()) body.rated = true;
    else if (f.botWait !== "never") body.bot_wait = Number(f.botWait);
    if (!account()) {
      if (!name) { Q.error = t("lobby.name_needed"); redraw(); return; }
      body.name = name;
      storeName(name);
    }
    Q.busy = true;
    try {
      const r = await api("POST", "/api/queue", body);
      Q.ticket = r.ticket; Q.entry = r.entry; Q.waiting = r.waiting; Q.error = "";
      keep({ ticket: r.ticket });
      if (r.entry.state === "paired") { open(r.entry); return; }
      start();
    } catch (e) { Q.error = apiMessage(e); }
    Q.busy = false;
    redraw();
  }
  async function cancel() {
    const ticket = Q.ticket;
    stop();
    try { await api("DELETE", "/api/queue", null, { "X-Queue-Ticket": ticket }); } catch (e) { /* gone already */ }
    redraw();
  }

  function counts() {
    return h("p", { class: "muted small", id: "pn-counts" }, t("queue.waiting_now"), " ",
      ...GAME_IDS.flatMap((g, i) => [i ? " · " : "", h("span", { class: "pn-count", "data-game": g },
        t("queue.count", { game: GAMES[g].title, n: Q.waiting[g] || 0 }))]));
  }

  function elapsed() {
    const secs = Q.entry ? Math.floor(Q.entry.waited) : 0;
    return h("span", { id: "pn-elapsed" }, t("queue.elapsed", { m: Math.floor(secs / 60), s: String(secs % 60).padStart(2, "0") }));
  }

  function waitingView() {
    const e = Q.entry;
    return [
      h("p", { id: "pn-status", role: "status" }, t("queue.searching", { game: GAMES[e ? e.game : Q.form.game].title })),
      h("p", { class: "muted" }, elapsed()),      // not announced every poll
      h("div", { class: "actions" }, h("button", { type: "button", class: "btn", id: "pn-cancel", onclick: cancel }, t("queue.cancel"))),
    ];
  }

  function formView() {
    const f = Q.form;
    const vs = variantsOf(L, f.game);
    const rated = f.rated && account();
    return h("form", { onsubmit: go },
      h("div", { class: "field-grid" },
        field(t("lobby.game"), select("pn-game", f.game, GAME_IDS.map((g) => [g, GAMES[g].title]), (v) => { f.game = v; f.variant = ""; redraw(); }), "pn-game"),
        vs.length > 1 ? field(t("lobby.variant"), select("pn-variant", f.variant, [["", t("queue.any")], ...vs.map((v) => [v, t("variant." + v)])], (v) => { f.variant = v; }), "pn-variant") : null,
        field(t("queue.kind"), select("pn-rated", rated ? "rated" : "casual", [["casual", t("queue.casual")], ...(account() ? [["rated", t("queue.rated")]] : [])], (v) => { f.rated = v === "rated"; redraw(); }), "pn-rated"),
        field(t("queue.pace"), select("pn-pace", f.pace, [["live", t("queue.live")], ["turn", t("queue.turn")]], (v) => { f.pace = v; }), "pn-pace"),
        account() ? null : field(t("lobby.name"), h("input", { id: "pn-name", type: "text", maxlength: 32, autocomplete: "nickname",
          placeholder: t("lobby.name_ph"), value: L.form.name, oninput: (e) => { L.form.name = e.target.value; syncName("f-name", L.form.name); syncName("j-name", L.form.name); } }), "pn-name"),
        rated ? null : field(t("queue.bots"), select("pn-bots", f.botWait, [["0", t("queue.bots_now")], ["30", t("queue.bots_after", { n: 30 })], ["120", t("queue.bots_after", { n: 120 })], ["never", t("queue.bots_never")]], (v) => { f.botWait = v; }), "pn-bots"),
      ),
      Q.error ? h("p", { class: "error", role: "alert", id: "pn-error" }, Q.error) : null,
      h("div", { class: "actions" }, h("button", { type: "submit", class: "btn btn-primary", id: "pn-go" }, t("queue.go"))));
  }

  function redraw() {
    clear(Q.el);
    Q.el.append(h("h2", { id: "pn-h" }, t("queue.title")), ...(Q.ticket ? waitingView() : [formView()]), counts());
  }
  Q.redraw = redraw;
  Q.refreshCounts = async () => {
    if (Q.ticket) return;
    try {
      Q.waiting = (await api("GET", "/api/queue")).waiting;
      const old = document.getElementById("pn-counts");       // the form is left as it is
      if (old) old.replaceWith(counts());
    } catch (e) { /* keep */ }
  };
  Q.close = () => clearInterval(Q.timer);
  if (Q.ticket) { start(); poll(); }
  redraw();
  return Q;
}
