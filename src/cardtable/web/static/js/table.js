// The table page (/t/CODE[#token=...]): a player's or a spectator's table. It asks for a seat
// when there is one to take, connects (net.js), and draws each state: the status bar, the board
// (the game's own module, games.js), the side panel (scores, the log). The status bar's ♪ menu
// is signals.js.
import { t, getLang, onLang, refusal } from "./i18n.js";
import { h, clear, announce, listText } from "./dom.js";
import { TableConnection } from "./net.js";
import { seatNames, withRefs, plainText } from "./seats.js";
import { api, apiMessage } from "./api.js";
import { loadSeat, saveSeat, dropSeat } from "./store.js";
import { signalTurn, signalsMenu, closeSignals } from "./signals.js";
import { GAMES, loadGame } from "./games.js";
import { captureRects, runFx } from "./table-fx.js";
import { drawLinkConfirm, drawJoin, drawWaiting, endActions } from "./table-seats.js";
import { tableChat } from "./chat.js";
import { tableCoach } from "./coach.js";
import { lessonPanel, lessonRefusal, sayRefusal } from "./learn.js";
import { paceClock } from "./pace.js";


export function renderTablePage(el, code) {
  document.title = `${code} · cardtable`;
  el.className = "page-table";
  document.body.classList.add("route-table");
  const S = {
    code, table: null, state: null, status: "connecting",
    mod: null, ui: {}, pendingFx: [], conn: null, error: "", joinError: "", gone: false,
    sideOpen: false, wasTurn: false, readySent: null, linkToken: null,
  };
  // a link with a seat's token (/t/CODE#token=...): never taken silently, the visitor is asked
  // first (a crafted link would otherwise seat them in somebody else's seat); the token leaves
  // the address bar at once
  const hm = location.hash.match(/token=([^&]+)/);
  if (hm) {
    try { S.linkToken = decodeURIComponent(hm[1]); } catch (e) { S.linkToken = null; }
    history.replaceState({}, "", `/t/${code}`);
  }
  let tick = null;
  let alive = true;           // false once the user has left the page (see the cleanup below)

  const root = h("div", { class: "table-page" });
  el.appendChild(root);

  function myInfo() { return loadSeat(code); }

  async function start() {
    try {
      S.table = await api("GET", `/api/tables/${code}`);
    } catch (e) {
      // no such table, or another reason (too many requests, the server unreachable) in words
      const why = e.status === 404 ? null : apiMessage(e);
      clear(root).appendChild(h("div", { class: "panel" }, h("h1", {}, why ? t("lobby.error", { msg: why }) : t("table.not_found", { code })),
        h("a", { href: "/", "data-link": "", class: "btn" }, t("table.back_lobby"))));
      return;
    }
    S.mod = await loadGame(S.table.game);
    if (!alive) return;                        // left while loading: open no connection
    const mine = myInfo();
    if (S.linkToken && !(mine && mine.token === S.linkToken)) {
      drawLinkConfirm(ctx, mine);
      return;
    }
    if (!mine && S.table.status === "waiting" && S.table.free_seats.length) {
      drawJoin(ctx);
      return;
    }
    connect(mine && mine.token);
  }

  function connect(token) {
    if (!alive) return;
    S.conn = new TableConnection(code, {
      token, lang: getLang(),
      onMessage, onStatus: (st) => { S.status = st; drawStatus(); },
      onClose: (c) => {
        if (c === 4401) {
          dropSeat(code);
          S.error = t("table.bad_token");
          S.conn.restart({ token: null });
        } else { S.gone = true; draw(); }
      },
    });
    S.conn.connect();
    draw();
  }

  function onMessage(msg) {
    if (talk.onMessage(msg)) return;                       // table talk (chat.js)
    switch (msg.type) {
      case "welcome":
        if (msg.role === "player") {
          const mine = myInfo() || {};
          saveSeat(code, Object.assign(mine, { seat: msg.seat, name: msg.name, game: msg.game }));
        }
        break;
      case "state": {
        const prev = S.state;
        S.state = msg;
        msg._recv = Date.now() / 1000;
        if (!prev || prev.seat !== msg.seat) talk.redraw();
        if (!prev || prev.index !== msg.index) { S.error = ""; S.lessonNote = null; }
        if (prev && (prev.index !== msg.index || (prev.window && !msg.window))) S.ui = {};
        if (S.table) {
          S.table.status = msg.status;
          S.table.seats = msg.seats;
          if (msg.settings) Object.assign(S.table, msg.settings);
        }
        if (msg.type === "state" && msg.status === "cancelled") { S.gone = true; }
        draw();
        signalTurn(S, prev, msg);
        break;
      }
      case "event": {
        if (S.mod && S.mod.animHints && S.state) {
          try { S.pendingFx.push(...S.mod.animHints(S.state.view, msg, S.state.seat)); } catch (e) { /* ignore */ }
        }
        if (msg.text && S.mod && S.mod.logText) {
          try { msg.text = S.mod.logText(msg, S.state, S.table) || msg.text; } catch (e) { /* keep the server's */ }
        }
        appendLog(msg);
        if (msg.text) announce(plainText(msg.text));    // clause ids are not read aloud
        break;
      }
      case "error":
        if (!["stale", "already_answered", "not_your_turn"].includes(msg.code)) {
          S.error = t("table.error", { msg: msg.reason_code ? refusal(msg) : (msg.message || msg.code) });
          drawStatus();
          announce(plainText(S.error));
        }
        break;
      case "rematch":
        if (S.state) S.state.rematch = msg.table;
        draw();
        break;
      case "cancelled":
        S.cancelled = true;
        dropSeat(code);
        draw();
        break;
      default:
        break;
    }
  }

  function decide(text) {
    if (!S.conn || !S.state) return;
    S.lessonNote = lessonRefusal(S.state, text);      // a lesson's step asks for another
    if (S.lessonNote) { S.ui = {}; draw(); sayRefusal(plainText(S.lessonNote)); return; }
    S.conn.send({ type: "decide", decision: text, index: S.state.index });
  }

  function names() {
    const seats = (S.state && S.state.seats) || (S.table && S.table.seats) || [];
    const base = seatNames(seats);
    const me = S.state ? S.state.seat : null;
    return base.map((n, i) => (i === me ? `${n} (${t("seat.you")})` : n));
  }

  // layout: status bar, board, side panel (scores, log; a drawer on small screens)
  const statusEl = h("div", { class: "status-bar", role: "region", "aria-label": t("table.status") });
  const boardEl = h("div", { class: "board", id: "board" });
  const logList = h("ol", { class: "log-list", id: "log-list", "aria-labelledby": "log-h" });
  const sideScores = h("div", { class: "side-scores", id: "side-scores" });
  const sideClose = h("button", { type: "button", class: "btn btn-small side-close", id: "side-close", onclick: () => toggleSide(false) }, "✕");
  const sideEl = h("aside", { class: "side", id: "side", "aria-label": t("table.log"), hidden: true },
    sideScores, h("div", { class: "side-head" }, h("h2", { id: "log-h", class: "side-h" }), sideClose), logList);
  // table talk: its button in the status bar, its drawer (chat.js)
  const talk = tableChat({ code, send: (m) => S.conn && S.conn.send(m), state: () => S.state, table: () => S.table });
  // the coach at a bot table: its button in the status bar, its panel (coach.js)
  const coach = tableCoach({ code, state: () => S.state, table: () => S.table, token: () => (myInfo() || {}).token });
  // what the panels around the game use (table-seats.js)
  const ctx = { S, code, root, boardEl, connect, names, myInfo, drawStatus };

  function toggleSide(open) {
    S.sideOpen = open;
    sideEl.hidden = !open;
    const b = document.getElementById("log-toggle");
    if (b) b.setAttribute("aria-expanded", open ? "true" : "false");
    if (open && getComputedStyle(sideEl).position === "fixed") sideClose.focus();
    else if (!open && b) b.focus();
  }

  function appendLog(ev) {
    if (!ev.text) return;
    const li = h("li", { class: "log-item" + (ev.seat === (S.state && S.state.seat) ? " log-mine" : ""), data: { index: ev.index } },
      h("span", { class: "log-n" }, String(ev.index + 1)), " ", withRefs(ev.text));
    logList.appendChild(li);
    while (logList.childNodes.length > 400) logList.removeChild(logList.firstChild);
    logList.scrollTop = logList.scrollHeight;
  }

  function drawStatus() {
    // the bar is rebuilt on every state: what the player had open or focused in it stays so
    const had = document.activeElement;
    const focusId = had && statusEl.contains(had) && had.id ? had.id : null;
    clear(statusEl);
    if (!S.table) return;
    const st = S.state;
    const game = S.table.game;
    // a game with one rule set names none (its tables' variant is null)
    const title = S.table.variant ? `${GAMES[game].title} · ${t("variant." + S.table.variant)}` : GAMES[game].title;
    const conn = S.status === "open" ? null
      : h("span", { class: "conn conn-" + S.status, id: "conn-status", role: "alert" },
        S.status === "connecting" ? null : h("span", { class: "conn-icon", "aria-hidden": "true" }, "⟳ "),
        t({ reconnecting: "table.reconnecting", offline: "table.offline" }[S.status] || "table.connecting"));
    // while the connection is lost the board stays visible but takes no clicks (nothing sent
    // could arrive); the state that comes with the reconnect redraws it
    const lost = S.status === "reconnecting" || S.status === "offline";
    boardEl.classList.toggle("is-disconnected", lost);
    if (lost) boardEl.setAttribute("inert", ""); else boardEl.removeAttribute("inert");
    boardEl.setAttribute("aria-busy", lost ? "true" : "false");
    let turn = null;
    if (st && st.status === "playing") {
      const nm = names().map((x, i) => (i === st.seat ? seatNames(st.seats)[i] : x));
      if (st.round_break) turn = h("span", { class: "turn", id: "turn-badge" }, t("table.round_break"));
      else if (st.your_turn) turn = h("span", { class: "turn turn-you", id: "turn-badge" }, "▶ ", t("table.turn_you"));
      else if (st.waiting_for.length) turn = h("span", { class: "turn", id: "turn-badge" }, t("table.turn_of", { name: listText(st.waiting_for.map((s) => nm[s]), t("list.and")) }));
    } else if (st && st.status === "over") {
      turn = h("span", { class: "turn turn-over", id: "turn-badge" }, t("table.over"));
    }
    const clock = h("span", { class: "clock", id: "clock", role: "timer", "aria-live": "off" });
    const playing = st && st.status !== "waiting";
    statusEl.append(
      h("div", { class: "sb-left" }, h("h1", { class: "sb-title" }, title),
        h("span", { class: "sb-code" }, t("table.code", { code })),
        st && st.seat === null ? h("span", { class: "chip chip-spectator" }, "◉ ", t("table.spectator")) : null,
        ...(S.mod && S.mod.statusChips ? S.mod.statusChips(S.table) : [])),
      h("div", { class: "sb-right" }, conn, turn, clock,
        playing ? signalsMenu(S, drawStatus) : null,
        playing ? h("button", { type: "button", class: "btn btn-small icon-btn log-toggle", id: "log-toggle", "aria-controls": "side",
          "aria-expanded": S.sideOpen ? "true" : "false", onclick: () => toggleSide(!S.sideOpen) }, t("table.show_log")) : null,
        st ? coach.button() : null,
        st ? talk.button() : null,
        h("a", { class: "btn btn-small", href: `/rules/${game}`, "data-link": "", id: "rules-link" }, t("table.rules"))),
    );
    if (S.error) statusEl.appendChild(h("p", { class: "error sb-error", role: "alert" }, withRefs(S.error)));
    updateClock();
    if (focusId && !statusEl.contains(document.activeElement)) {
      const f = document.getElementById(focusId);
      if (f && statusEl.contains(f)) f.focus({ preventScroll: true });
    }
  }

  /** A press outside the ♪ menu closes it (as a menu does); a press outside the board takes the
   * keyboard's place out of the table (draw() no longer brings it back). */
  function closeSignalsOutside(ev) {
    const tgt = ev.target;
    if (S.signalsOpen && !(tgt instanceof Node && tgt.closest && tgt.closest("#signals"))) closeSignals(S);
    if (tgt instanceof Node && !boardEl.contains(tgt)) S.kbInBoard = false;
  }
  document.addEventListener("pointerdown", closeSignalsOutside, true);

  function updateClock() {
    const c = document.getElementById("clock");
    if (!c || !S.state) return;
    const st = S.state;
    const until = st.round_break ? null : st.deadline;          // a break: the summary tells
    const skew = (st._recv || Date.now() / 1000) - st.server_time;
    const breakLeft = st.round_break ? Math.max(0, Math.ceil(st.round_break.until + skew - Date.now() / 1000)) : null;
    let left = null;
    const pace = paceClock(st);                                  // turn-based: a day and time
    if (pace) {
      c.textContent = pace.text;
      c.classList.add("clock-pace");
      c.classList.toggle("clock-low", pace.low);
    } else if (until && st.status === "playing") {
      left = Math.max(0, Math.ceil(until + skew - Date.now() / 1000));
      c.classList.remove("clock-pace");
      c.textContent = "◷ " + t("table.seconds_left", { s: left });
      c.classList.toggle("clock-low", left <= 5);
    } else c.textContent = "";
    // the game's own timers on the board (a window's seconds, a round break's)
    if (S.mod && S.mod.onClock) S.mod.onClock({ state: st, left, breakLeft });
  }

  function breakSummary(st) {
    const b = st.round_break;
    if (!b) return null;
    const me = st.seat;
    const mine = me !== null && b.ready.includes(me);
    const canReady = me !== null && !mine && b.waiting.includes(me);
    return {
      mine: mine || (S.readySent === st.index),
      onReady: canReady && S.readySent !== st.index ? () => {
        S.readySent = st.index;
        S.conn.send({ type: "ready" });
        draw();
      } : null,
      waiting: b.waiting.filter((s) => s !== me || !(S.readySent === st.index)),
      left: Math.max(0, Math.ceil(b.until + ((st._recv || Date.now() / 1000) - st.server_time) - Date.now() / 1000)),
    };
  }

  function draw() {
    if (!S.table) return;
    if (!root.contains(statusEl)) {
      clear(root);
      root.append(statusEl, h("div", { class: "table-layout" }, boardEl, sideEl), talk.panel, coach.panel);
    }
    coach.redraw();
    sideEl.querySelector("#log-h").textContent = t("table.log");
    sideClose.setAttribute("aria-label", t("table.close_log"));
    drawStatus();
    const st = S.state;
    document.body.classList.toggle("fit", !!st && st.status === "playing" && !S.gone && !S.cancelled);
    if (S.gone || S.cancelled) {
      clear(boardEl).appendChild(h("div", { class: "panel" }, h("p", { class: "error" }, S.cancelled ? t("table.cancelled") : t("table.not_found", { code })),
        h("a", { href: "/", "data-link": "", class: "btn" }, t("table.back_lobby"))));
      return;
    }
    if (!st) {
      clear(boardEl).appendChild(h("p", { class: "muted loading" }, t("table.connecting")));
      return;
    }
    boardEl.dataset.index = String(st.index);
    boardEl.dataset.status = st.status;
    boardEl.dataset.seat = st.seat === null ? "" : String(st.seat);
    const before = captureRects(root);
    const active = document.activeElement;
    // the keyboard is in the table: on a control of the board, or lost to the page's body by
    // a control that went away since (the player did not go elsewhere: see kbInBoard)
    const hadFocus = !!active && (boardEl.contains(active)
      || (S.kbInBoard && (active === document.body || active === document.documentElement)));
    const focusKey = hadFocus && boardEl.contains(active) && active.dataset ? active.dataset.key
      : (hadFocus ? S.kbKey : null);
    clear(boardEl);
    if (st.status === "waiting") {
      drawWaiting(ctx);
    } else {
      if (st.away) {
        boardEl.appendChild(h("div", { class: "banner", id: "away-banner" }, t("table.away"), " ",
          h("button", { type: "button", class: "btn btn-small", id: "im-back", onclick: () => S.conn.send({ type: "back" }) }, t("table.im_back"))));
      }
      const lesson = lessonPanel(st, S.table.game, S.lessonNote);
      if (lesson) boardEl.appendChild(lesson);
      const gameEl = h("div", { class: "game" });
      boardEl.appendChild(gameEl);
      const opts = {
        readonly: st.seat === null, seat: st.seat, names: names(), state: st,
        decisions: st.round_break ? [] : (st.decisions || []),
        plainNames: seatNames(st.seats), seats: st.seats,
        why: st.why || "",
        ui: S.ui, decide, rerender: draw, table: S.table, summary: breakSummary(st),
      };
      S.mod.render(gameEl, st.view, opts);
      if (st.status === "over") (gameEl.querySelector("#result") || boardEl).appendChild(endActions(ctx));
      if (S.mod.scores) clear(sideScores).appendChild(S.mod.scores(st.view, opts));
    }
    if (hadFocus && !boardEl.contains(document.activeElement)) restoreFocus(focusKey);
    runFx(root, S, before);
  }

  /** Keep the keyboard in the table after a redraw: the same control if it is still there and
   * can still take the focus (a pool card is a button only while it may be drawn), else the
   * decision's first control, else the hand, else the player's own area, else the board. */
  function restoreFocus(key) {
    const same = key ? [...boardEl.querySelectorAll(`[data-key="${CSS.escape(key)}"]`)] : [];
    const candidates = same.concat(
      [...boardEl.querySelectorAll("#action-bar button:not(:disabled), #ready-btn, .hand button.card:not(:disabled), button.can-pick")],
      [...boardEl.querySelectorAll("#my-area")], [boardEl]);
    for (const el of candidates) {
      if (!canFocus(el)) continue;
      el.focus({ preventScroll: true });
      if (document.activeElement === el) return;
    }
  }

  /** An element the keyboard can be put on: a control or a tabindex, enabled, shown, not inert. */
  function canFocus(el) {
    if (!el || el.disabled || el.closest("[inert], [hidden]")) return false;
    if (!(el.tabIndex >= 0 || el.hasAttribute("tabindex"))) return false;
    return el.getClientRects().length > 0;
  }

  // where the keyboard is: in the table (kept across redraws) or elsewhere on the page (left there)
  boardEl.setAttribute("tabindex", "-1");
  function onFocusIn(ev) {
    const inBoard = boardEl.contains(ev.target);
    if (ev.target === document.body) return;
    S.kbInBoard = inBoard;
    S.kbKey = inBoard && ev.target.dataset ? ev.target.dataset.key || null : null;
  }
  document.addEventListener("focusin", onFocusIn);

  function keydown(ev) {
    if (ev.key === "Escape" && !talk.panel.hidden) { talk.toggle(false); ev.preventDefault(); return; }
    if (ev.key === "Escape" && !coach.panel.hidden) { coach.toggle(false); ev.preventDefault(); return; }
    if (ev.key === "Escape" && S.signalsOpen) { closeSignals(S, { focus: true }); ev.preventDefault(); return; }
    if (ev.key === "Escape" && S.sideOpen && getComputedStyle(sideEl).position === "fixed") { toggleSide(false); ev.preventDefault(); return; }
    if (!S.mod || !S.state || ev.target.closest("input, select, textarea, summary")) return;
    if (S.status !== "open" || S.state.round_break) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (S.mod.onKey && S.mod.onKey(ev, { state: S.state, ui: S.ui, decide, rerender: draw, root: boardEl })) ev.preventDefault();
  }
  document.addEventListener("keydown", keydown);

  const offLang = onLang((lang) => {
    if (S.conn) {
      clear(logList);
      S.conn.restart({ lang, resetEvents: true });
    }
    if (S.table && !S.conn) { if (S.linkToken) drawLinkConfirm(ctx, myInfo()); else drawJoin(ctx); }
    else draw();
  });
  tick = setInterval(() => {
    updateClock();
    if (S.mod && S.mod.onTick && S.state) S.mod.onTick({ ui: S.ui, rerender: draw, state: S.state });
  }, 500);

  start();
  return () => {
    alive = false;
    offLang();
    talk.destroy();
    coach.destroy();
    clearInterval(tick);
    document.removeEventListener("keydown", keydown);
    document.removeEventListener("focusin", onFocusIn);
    document.removeEventListener("pointerdown", closeSignalsOutside, true);
    document.body.classList.remove("route-table", "fit");
    if (S.conn) S.conn.close();
  };
}