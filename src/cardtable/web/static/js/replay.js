// The replay viewer of a finished game: /replay/CODE.
//
//   render(el, {code}) -> fetches GET /api/tables/CODE (names), then the game's steps page by
//   page from GET /api/tables/CODE/replay?seat=&from=&count= (the server replays the table's
//   own record: the record's 128-bit seed never passes through JavaScript's numbers) for the
//   chosen seat (none: the full view), and shows the game step by step. A page holds PAGE
//   steps; pages are loaded when a step on them is shown, so games of any length replay.
//
// Controls: first / back / forward / last buttons, a slider, autoplay, the list of all
// decisions (each one a button), keys ← → (one step), PageUp / PageDown (ten), Home / End,
// Space (play / pause). A seat selector switches between each player's view and the full view
// and keeps the current step. The table is drawn by the game's own module, as at the table
// (games.js: `render(el, view, {readonly: true, seat})`). Texts: i18n.js (keys "replay.*"); each decision
// in words comes from the server in both languages (the words of the table's log, server/tables/views.py
// describe, with the table's seat names counted from 1): the list of decisions and the step show
// those words in the page's language; the record's notation (seats counted from 0, as in a
// record) only in the step's folded "Notation" detail.
import { t, getLang, onLang } from "./i18n.js";
import { loadGame } from "./games.js";
import { seatNames, withRefs, plainText } from "./seats.js";
import { node } from "./dom.js";
import { resultTable } from "./replay-result.js";
import { replayChat } from "./chat.js";
import { replayReview } from "./replay-review.js";

const AUTOPLAY_MS = 900;
const PAGE = 500;

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

// -- the page -------------------------------------------------------------------------------------
export function render(el, { code } = {}) {
  const st = {
    code: String(code || "").toUpperCase(),
    table: null, record: null, names: [], seat: null,
    replays: new Map(),          // seat key -> replay response
    data: null, step: 0, timer: null, alive: true,
  };
  const seatKey = (s) => (s === null ? "full" : String(s));

  const root = node("div", "replay-page");
  root.setAttribute("aria-labelledby", "replay-title");
  el.replaceChildren(root);

  function message(text, { alert = false, retry = false } = {}) {
    const p = node("p", alert ? "replay-error" : "replay-loading", text);
    p.setAttribute("role", alert ? "alert" : "status");
    const box = node("div", "replay-message");
    box.appendChild(p);
    if (retry) {
      const b = node("button", "replay-btn", t("replay.retry"));
      b.type = "button";
      b.addEventListener("click", start);
      box.appendChild(b);
    }
    root.replaceChildren(box);
  }

  /** A seat's replay: the game's facts and its steps, loaded page by page (a sparse array). */
  function loadSeat(seat) {
    const key = seatKey(seat);
    if (!st.replays.has(key)) {
      const rep = { pages: new Map(), data: null };
      rep.first = loadPage(rep, seat, 0).then(() => rep.data)
        .catch((e) => { st.replays.delete(key); throw e; });
      st.replays.set(key, rep);
    }
    return st.replays.get(key).first;
  }

  function loadPage(rep, seat, p) {
    if (!rep.pages.has(p)) {
      const q = new URLSearchParams({ from: String(p * PAGE), count: String(PAGE) });
      if (seat !== null) q.set("seat", String(seat));
      rep.pages.set(p, getJSON(`/api/tables/${encodeURIComponent(st.code)}/replay?${q}`).then((page) => {
        if (!rep.data) {
          rep.data = { ...page, steps: new Array(page.actions + 1) };
        }
        page.steps.forEach((s) => { rep.data.steps[s.index] = s; });
        if (st.alive && ui && st.data === rep.data) fillLog(page.steps);
        return page;
      }).catch((e) => { rep.pages.delete(p); throw e; }));
    }
    return rep.pages.get(p);
  }

  /** Make sure step i of the current seat is loaded (and the page after it, ahead of time). */
  function ensure(i) {
    const rep = st.replays.get(seatKey(st.seat));
    const p = Math.floor(i / PAGE);
    const next = p + 1;
    if (next * PAGE <= st.data.actions) loadPage(rep, st.seat, next).catch(() => {});
    return loadPage(rep, st.seat, p);
  }

  async function start() {
    message(t("replay.loading"));
    try {
      const table = await getJSON(`/api/tables/${encodeURIComponent(st.code)}`).catch((e) => {
        if (e.status === 404) throw Object.assign(new Error(t("replay.not_found", { code: st.code })), { shown: true });
        throw e;
      });
      st.table = table;
      st.render = (await loadGame(table.game)).render;     // the game's module draws the board
      st.names = seatNames(table.seats || []);
      try {
        st.data = await loadSeat(st.seat);
      } catch (e) {
        if (e.status === 409) throw Object.assign(new Error(t("replay.not_over")), { shown: true });
        throw e;
      }
      if (!st.alive) return;
      st.step = Math.min(stepFromHash(), st.data.actions);
      if (!st.review) {                   // the review of a person's seat (replay-review.js)
        st.review = replayReview({ code: st.code, players: st.data.players, seats: table.seats, nameOf,
          go: (i) => go(i), step: () => st.step });
      }
      await ensure(st.step);
      if (!st.alive) return;
      build();
    } catch (e) {
      if (!st.alive) return;
      message(e.shown ? e.message : t("replay.error", { msg: e.message }), { alert: true, retry: !e.shown });
    }
  }

  function stepFromHash() {
    const m = location.hash.match(/step=(\d+)/);
    return m ? parseInt(m[1], 10) : 0;
  }

  // -- the layout (built once per language; `show()` updates it for each step) ---------------------
  let ui = null;

  function build() {
    const d = st.data;
    const last = d.actions;
    ui = {};
    const header = node("header", "replay-header");
    const h1 = node("h1", null, t("replay.title", { code: st.code }));
    h1.id = "replay-title";
    header.appendChild(h1);
    const game = t(`game.${d.game}`) === `game.${d.game}` ? d.game : t(`game.${d.game}`);
    const facts = [game, t("replay.players", { n: d.players })];
    if (d.variant) facts.push(t("replay.variant", { v: t(`variant.${d.variant}`) === `variant.${d.variant}` ? d.variant : t(`variant.${d.variant}`) }));
    header.appendChild(node("p", "replay-facts", facts.join(" · ")));
    const links = node("p", "replay-links");
    const back = node("a", null, t("replay.to_table"));
    back.href = `/t/${encodeURIComponent(st.code)}`;
    const rules = node("a", null, t("replay.rules"));
    rules.href = `/rules/${d.game}`;
    const dl = node("a", null, t("replay.download"));
    dl.href = `/api/tables/${encodeURIComponent(st.code)}/record`;
    dl.setAttribute("download", `cardtable-${st.code}.json`);
    links.append(back, rules, dl);
    header.appendChild(links);

    // seat selector
    const seatBox = node("div", "replay-seat-select");
    const lab = node("label", null, t("replay.seat_select"));
    lab.htmlFor = "replay-seat";
    const sel = node("select");
    sel.id = "replay-seat";
    const optFull = node("option", null, t("replay.full_view"));
    optFull.value = "full";
    sel.appendChild(optFull);
    for (let s = 0; s < d.players; s++) {
      const o = node("option", null, t("replay.seat_view", { name: nameOf(s) }));
      o.value = String(s);
      sel.appendChild(o);
    }
    sel.value = seatKey(st.seat);
    sel.addEventListener("change", () => switchSeat(sel.value === "full" ? null : parseInt(sel.value, 10)));
    seatBox.append(lab, sel);
    ui.viewNote = node("p", "replay-view-note");
    seatBox.appendChild(ui.viewNote);

    // controls
    const bar = node("div", "replay-controls");
    bar.setAttribute("role", "toolbar");
    bar.setAttribute("aria-label", t("replay.controls"));
    bar.setAttribute("aria-controls", "replay-board");
    const btn = (cls, icon, label, fn) => {
      const b = node("button", `replay-btn ${cls}`);
      b.type = "button";
      b.setAttribute("aria-label", label);
      b.title = label;
      const i = node("span", "replay-btn-icon", icon);
      i.setAttribute("aria-hidden", "true");
      b.appendChild(i);
      b.appendChild(node("span", "replay-btn-text", label));
      b.addEventListener("click", fn);
      return b;
    };
    ui.first = btn("replay-first", "⇤", t("replay.first"), () => go(0));
    ui.back = btn("replay-back", "◀", t("replay.back"), () => go(st.step - 1));
    ui.play = btn("replay-play", "▷", t("replay.play"), togglePlay);
    ui.forward = btn("replay-forward", "▶", t("replay.forward"), () => go(st.step + 1));
    ui.last = btn("replay-last", "⇥", t("replay.last"), () => go(last));
    bar.append(ui.first, ui.back, ui.play, ui.forward, ui.last);
    const sliderBox = node("div", "replay-slider-box");
    ui.slider = node("input", "replay-slider");
    Object.assign(ui.slider, { type: "range", min: "0", max: String(last), step: "1", id: "replay-slider" });
    ui.slider.setAttribute("aria-label", t("replay.slider"));
    ui.slider.addEventListener("input", () => go(parseInt(ui.slider.value, 10), { fromSlider: true }));
    ui.counter = node("output", "replay-counter");
    ui.counter.htmlFor = "replay-slider";
    sliderBox.append(ui.slider, ui.counter);

    // the step in words
    ui.info = node("div", "replay-info");
    ui.info.setAttribute("aria-live", "polite");
    ui.info.setAttribute("aria-atomic", "true");
    ui.info.id = "replay-info";

    ui.board = node("div", "replay-board");
    ui.board.id = "replay-board";
    ui.board.setAttribute("role", "region");
    ui.board.setAttribute("aria-label", t("replay.seat_select"));

    // decisions list
    const logBox = node("details", "replay-log-box");
    logBox.open = window.matchMedia ? window.matchMedia("(min-width: 900px)").matches : true;
    logBox.appendChild(node("summary", null, t("replay.log")));
    ui.log = node("ol", "replay-log");
    ui.log.start = 0;
    ui.logItems = Array.from({ length: last + 1 }, (_, i) => {
      const li = node("li");
      const b = node("button", "replay-log-btn");
      b.type = "button";
      b.dataset.step = String(i);
      li.value = i;
      li.appendChild(b);
      ui.log.appendChild(li);
      b.addEventListener("click", () => go(i));
      return b;
    });
    logBox.appendChild(ui.log);

    // result
    ui.result = node("details", "replay-result");
    ui.result.appendChild(node("summary", null, t("replay.show_result")));
    ui.result.appendChild(resultTable(d, nameOf));

    const keys = node("p", "replay-keys", t("replay.keys"));
    keys.id = "replay-keys";
    root.setAttribute("aria-describedby", "replay-keys");

    const side = node("aside", "replay-side");
    side.append(logBox, st.review.el, ui.result, replayChat(st.code));   // review, table talk
    st.review.redraw();
    const mainCol = node("div", "replay-main");
    mainCol.append(seatBox, bar, sliderBox, ui.info, ui.board, keys);
    const layout = node("div", "replay-layout");
    layout.append(mainCol, side);
    root.replaceChildren(header, layout);
    fillLog();
    st.review.decorate(ui.logItems);
    show();
  }

  /** Seat s's name in the page's language, as at the table ("Bot 3", "Platz 2"). */
  function nameOf(s) {
    const d = st.data;
    const byLang = d.names_by_lang && d.names_by_lang[getLang()];
    return (byLang && byLang[s]) || d.names[s];
  }

  /** A step in words: the server's words in `lang`, else (nothing it could say) who decided. */
  function stepText(s, lang) {
    if (s.index === 0) return t("replay.start");
    const words = s.text && s.text[lang];
    return words || t("replay.decided", { name: nameOf(s.seat) });
  }

  function fillLog(steps = st.data.steps) {
    const lang = getLang();
    steps.forEach((s) => {
      const i = s.index;
      const b = ui.logItems[i];
      if (!b) return;
      const text = plainText(stepText(s, lang));  // a button: clause ids left out
      const first = text.split("\n")[0];          // a round's end: its first line in the list
      b.textContent = i === 0 ? t("replay.start_short") : first;
      if (first !== text) b.title = text; else b.removeAttribute("title");
    });
  }

  function show() {
    const d = st.data;
    const last = d.actions;
    const s = d.steps[st.step];
    if (!s) {                         // on a page not loaded yet: show it when it is there
      const want = st.step, seat = st.seat;
      ui.info.replaceChildren(node("p", "replay-loading", t("replay.loading")));
      ensure(want).then(() => {
        if (st.alive && st.step === want && st.seat === seat) show();
      }).catch((e) => message(t("replay.error", { msg: e.message }), { alert: true, retry: true }));
      return;
    }
    if (st.step % PAGE > PAGE - 50) ensure(st.step);          // the next page, ahead of time
    const lang = getLang();
    ui.slider.value = String(st.step);
    const counter = t("replay.step_of", { i: st.step, n: last });
    ui.counter.textContent = counter;
    ui.slider.setAttribute("aria-valuetext", counter);
    ui.first.disabled = ui.back.disabled = st.step === 0;
    ui.forward.disabled = ui.last.disabled = st.step === last;
    if (st.step === last && st.timer) stopPlay();
    ui.viewNote.textContent = st.seat === null ? t("replay.view_full_note")
      : t("replay.view_seat_note", { name: nameOf(st.seat) });

    // the step in words
    ui.info.replaceChildren();
    ui.info.appendChild(node("p", "replay-step-no", counter));
    if (s.index === 0) {
      ui.info.appendChild(node("p", "replay-step-text", t("replay.start")));
    } else {
      const p = node("p", "replay-step-text");
      p.appendChild(node("strong")).append(...withRefs(stepText(s, lang)));
      ui.info.appendChild(p);
      // the record's own line, for those who read records (seats counted from 0 there)
      const n = node("details", "replay-notation");
      n.appendChild(node("summary", null, t("replay.notation")));
      const line = node("p");
      line.appendChild(node("code", null, s.decision));
      line.appendChild(document.createTextNode(" " + t("replay.notation_note")));
      n.appendChild(line);
      ui.info.appendChild(n);
    }
    const v = s.view;
    if (v.over) {
      ui.info.appendChild(node("p", "replay-next", t("replay.game_over")));
    } else if (v.to_move !== null && v.to_move !== undefined) {
      const what = t(`replay.awaiting.${v.awaiting}`);
      ui.info.appendChild(node("p", "replay-next", t("replay.next", {
        name: nameOf(v.to_move), what: what.startsWith("replay.") ? v.awaiting : what,
      })));
    }

    const marked = st.review.mark(st.step);         // a costly decision (the review's mark)
    if (marked) ui.info.appendChild(marked);
    ui.board.classList.toggle("is-marked", !!marked);

    // the table
    ui.board.setAttribute("aria-label", st.seat === null ? t("replay.full_view")
      : t("replay.seat_view", { name: nameOf(st.seat) }));
    ui.board.dataset.seat = seatKey(st.seat);
    ui.board.dataset.step = String(st.step);
    drawBoard(v);

    // the list and the result
    ui.logItems.forEach((b, i) => {
      if (i === st.step) b.setAttribute("aria-current", "step");
      else b.removeAttribute("aria-current");
    });
    const cur = ui.logItems[st.step];
    if (cur && cur.scrollIntoView && ui.log.closest("details")?.open) cur.scrollIntoView({ block: "nearest" });
    if (st.step === last) ui.result.open = true;
    if (!/step=\d+/.test(location.hash) || stepFromHash() !== st.step) {
      history.replaceState(history.state, "", `#step=${st.step}`);
    }
  }

  function drawBoard(view) {
    const inner = node("div", "replay-board-inner game");   // the table's felt, as at the table
    inner.dataset.renderer = st.data.game;
    ui.board.replaceChildren(inner);
    // the first step of a new round shows the round's summary (a view with `last_round`), as
    // the table does
    const prev = st.step > 0 ? st.data.steps[st.step - 1] : null;
    const summary = view.last_round && prev && prev.view && prev.view.round < view.round
      ? { final: true } : null;
    const names = Array.from({ length: st.data.players }, (_, s) => nameOf(s));
    const step = st.data.steps[st.step];                     // the server's "why" line of the step
    const why = (step && step.why && step.why[getLang()]) || "";
    st.render(inner, view, { readonly: true, seat: st.seat, names, summary, why });
  }

  function go(i, { fromSlider = false } = {}) {
    if (!st.data) return;
    const last = st.data.actions;
    const n = Math.max(0, Math.min(last, Number.isFinite(i) ? i : 0));
    if (n === st.step && !fromSlider) return;
    st.step = n;
    show();
  }

  async function switchSeat(seat) {
    stopPlay();
    st.seat = seat;
    try {
      const data = await loadSeat(seat);
      if (!st.alive || st.seat !== seat) return;
      st.data = data;
      fillLog(data.steps.filter(Boolean));
      show();
    } catch (e) {
      message(t("replay.error", { msg: e.message }), { alert: true, retry: true });
    }
  }

  function togglePlay() {
    if (st.timer) { stopPlay(); return; }
    if (st.step >= st.data.actions) st.step = 0;
    st.timer = setInterval(() => {
      if (!st.alive || !root.isConnected) { stopPlay(); return; }
      go(st.step + 1);
    }, AUTOPLAY_MS);
    ui.play.querySelector(".replay-btn-icon").textContent = "‖";
    ui.play.querySelector(".replay-btn-text").textContent = t("replay.pause");
    ui.play.setAttribute("aria-label", t("replay.pause"));
    ui.play.setAttribute("aria-pressed", "true");
  }

  function stopPlay() {
    if (st.timer) clearInterval(st.timer);
    st.timer = null;
    if (ui && ui.play) {
      ui.play.querySelector(".replay-btn-icon").textContent = "▷";
      ui.play.querySelector(".replay-btn-text").textContent = t("replay.play");
      ui.play.setAttribute("aria-label", t("replay.play"));
      ui.play.setAttribute("aria-pressed", "false");
    }
  }

  function onKey(ev) {
    if (!root.isConnected) { destroy(); return; }
    if (!st.data || !ui || ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const tgt = ev.target;
    const tag = tgt && tgt.tagName;
    if (tag === "INPUT" && tgt !== ui.slider) return;
    if (tag === "TEXTAREA" || tag === "SELECT" || (tgt && tgt.isContentEditable)) return;
    const last = st.data.actions;
    let to = null;
    switch (ev.key) {
      case "ArrowRight": to = st.step + 1; break;
      case "ArrowLeft": to = st.step - 1; break;
      case "PageDown": to = st.step + 10; break;
      case "PageUp": to = st.step - 10; break;
      case "Home": to = 0; break;
      case "End": to = last; break;
      case " ":
        if (tag === "BUTTON" || tag === "A" || tag === "SUMMARY") return;
        ev.preventDefault();
        togglePlay();
        return;
      default: return;
    }
    ev.preventDefault();
    if (st.timer) stopPlay();
    go(to);
  }

  const offLang = onLang(() => {
    if (!st.alive) return;
    if (!root.isConnected) { destroy(); return; }
    if (st.data) build(); else start();
  });
  document.addEventListener("keydown", onKey);

  function destroy() {
    st.alive = false;
    if (st.review) st.review.destroy();
    stopPlay();
    offLang();
    document.removeEventListener("keydown", onKey);
  }

  start();
  return { destroy };
}
