// Table talk (docs/protocol.md "Table talk"): the chat of a table and its quick
// reactions, and a finished game's chat in its replay.
//   tableChat({code, send, state, table}) -> {button(), panel, onMessage(msg), redraw()}:
//     button(): the status bar's "Chat" button (a fresh one for every redraw of the bar);
//     panel: the chat's drawer (kept across redraws); onMessage: true if the message was the
//     chat's (chat, chat_log, chat_removed, a chat error). A line a moderator removed (kind
//     `removed`) shows "removed by a moderator".
//   replayChat(code) -> a <details> with the game's chat (both channels), loaded when opened.
// Every text goes into the page with textContent: HTML stays the characters typed, a link is
// not a link. Muting is this browser's (localStorage per table): the muted seat or spectator's
// messages are hidden here, and only here; the server sends everything. A logged-in player may
// report a player's or spectator's line (report.js): the report names the table, the move and the line.
// `C`, a table's chat, is what its functions share: {S (its state), code, send, state, table,
// and its elements: panel, head, list, status, reacts, form's input and sendBtn, mutedBox}.
import { t, onLang, getLang } from "./i18n.js";
import { h, clear, announce } from "./dom.js";
import { account, onAccount } from "./account.js";
import { openReport } from "./report.js";

export const REACTIONS = ["thumbs", "laugh", "wow", "oops", "clap", "gg", "wp", "thanks", "sorry", "hello"];
const EMOTES = { thumbs: "👍", laugh: "😄", wow: "😮", oops: "😬", clap: "👏" };
const MAX = 300;
const KEEP = 200;                                     // messages kept in the panel
const CHAT_ERRORS = ["chat_rate_limited", "chat_too_long", "chat_empty", "chat_off", "chat_muted", "wrong_channel"];

/** A moment (epoch seconds) in the page's language: date and time. */
function when(at) {
  return new Intl.DateTimeFormat(getLang() === "de" ? "de-DE" : "en-GB",
    { dateStyle: "medium", timeStyle: "short" }).format(new Date(at * 1000));
}

function muteKey(code) { return `cardtable.mute.${code}`; }
function loadMuted(code) {
  try { return new Set(JSON.parse(localStorage.getItem(muteKey(code)) || "[]")); } catch (e) { return new Set(); }
}
function saveMuted(code, set) {
  try { localStorage.setItem(muteKey(code), JSON.stringify([...set])); } catch (e) { /* ignore */ }
}

/** Who wrote a row: "s0" (a seat) or "v3" (spectator 3): the key muting uses. */
export function who(m) { return m.seat !== null && m.seat !== undefined ? `s${m.seat}` : `v${m.spectator}`; }

function senderName(m) {
  if (m.seat !== null && m.seat !== undefined) return m.name || t("chat.seat", { n: m.seat + 1 });
  return t("chat.spectator", { n: m.spectator });
}

/** A reaction's words in the page's language (an emote is itself). */
export function reactionText(code) { return EMOTES[code] || t(`chat.react.${code}`); }

/** One row as a list item (text only). */
function rowItem(m, { mine = false, onMute = null, onReport = null } = {}) {
  const li = h("li", { class: `chat-row chat-k-${m.kind}` + (mine ? " chat-mine" : "") + (m.channel === "spectators" ? " chat-spec" : ""),
    data: { seq: String(m.seq), who: who(m) } });
  const name = senderName(m);
  if (m.kind === "off" || m.kind === "on") {
    li.appendChild(h("span", { class: "chat-note" }, t(m.kind === "off" ? "chat.event_off" : "chat.event_on", { name })));
    return li;
  }
  li.appendChild(h("span", { class: "chat-name" }, name + (mine ? ` (${t("seat.you")})` : "")));
  li.appendChild(document.createTextNode(" "));
  const body = h("span", { class: "chat-text" });
  body.textContent = m.kind === "react" ? reactionText(m.text)
    : m.kind === "removed" ? t("chat.removed") : m.text;                    // never HTML
  if (m.kind === "react") body.classList.add("chat-reaction");
  if (m.kind === "removed") body.classList.add("chat-removed");
  li.appendChild(body);
  if (onMute) {
    li.appendChild(h("button", { type: "button", class: "chat-mute", title: t("chat.mute", { name }),
      "aria-label": t("chat.mute", { name }), onclick: () => onMute(m) }, "🔇"));
  }
  if (onReport) {
    li.appendChild(h("button", { type: "button", class: "chat-report", title: t("chat.report", { name }),
      "aria-label": t("chat.report", { name }), onclick: (e) => onReport(m, e.currentTarget) }, "⚑"));
  }
  return li;
}

export function tableChat({ code, send, state, table }) {
  const S = { rows: new Map(), off: false, spectator: null, open: false, unread: 0, error: "", note: "", muted: loadMuted(code), names: {} };
  const C = { S, code, send, state, table, ...chatPanel(() => post(C)) };
  const offLang = onLang(() => redraw(C));
  const offAccount = onAccount(() => redraw(C));      // (the page's session is known after the log may be)
  redraw(C);
  return { button: () => button(C), panel: C.panel, onMessage: (msg) => onMessage(C, msg), redraw: () => redraw(C),
    toggle: (open) => toggle(C, open), destroy: () => { offLang(); offAccount(); } };
}

/** The drawer's elements (drawn by the functions below): its head, the list, the status line,
 * the reactions, the form (`onPost` on submit) and the muted ones. */
function chatPanel(onPost) {
  const list = h("ol", { class: "chat-list", id: "chat-list", "aria-live": "polite", "aria-relevant": "additions" });
  const input = h("input", { type: "text", id: "chat-input", class: "chat-input", maxlength: String(MAX), autocomplete: "off",
    enterkeyhint: "send" });
  const sendBtn = h("button", { type: "submit", class: "btn btn-small", id: "chat-send" });
  const form = h("form", { class: "chat-form", id: "chat-form", onsubmit: (ev) => { ev.preventDefault(); onPost(); } }, input, sendBtn);
  const reacts = h("div", { class: "chat-reacts", id: "chat-reacts", role: "group" });
  const status = h("p", { class: "chat-status", id: "chat-status", role: "status" });
  const mutedBox = h("div", { class: "chat-muted", id: "chat-muted" });
  const head = h("div", { class: "chat-head" });
  const panel = h("section", { class: "chat-panel", id: "chat-panel", hidden: true, "aria-labelledby": "chat-h" },
    head, list, status, reacts, form, mutedBox);
  return { list, input, sendBtn, reacts, status, mutedBox, head, panel };
}

function me(C) { const st = C.state(); return st ? st.seat : null; }
function isHost(C) {
  const tb = C.table(), seat = me(C);
  return seat !== null && tb && tb.host !== undefined && tb.host !== null && seat === tb.host;
}
function channel(C) { return me(C) === null ? "spectators" : "table"; }
function mine(C, m) { return me(C) !== null ? m.seat === me(C) : m.seat === null && m.spectator === C.S.spectator; }

/** Sends the field's line; while the table's connection is not open (the page still
 * connecting, or connecting again) the line stays in the field and the status line says so. */
function post(C) {
  const text = C.input.value.trim();
  if (!text || C.S.off) return;
  if (C.send({ type: "chat", channel: channel(C), text }) == null) {
    C.S.error = t("chat.not_sent");
    drawControls(C);
    return;
  }
  C.input.value = "";
}
function react(C, c) { if (!C.S.off) C.send({ type: "react", channel: channel(C), code: c }); }

function mute(C, m) {
  const { S } = C;
  S.muted.add(who(m));
  S.names[who(m)] = senderName(m);
  saveMuted(C.code, S.muted);
  drawList(C); drawMuted(C);
}
/** Report a player's or a spectator's line, a guest's too (logged in only: the report is an
 * account's; a guest's line is reported as its writer, whom a moderator can mute through it). */
function reportable(C, m) {
  return !!account() && (m.kind === "text" || m.kind === "react");
}
function report(C, m, opener) {
  const name = senderName(m);
  const quote = `${name}: ${m.kind === "react" ? reactionText(m.text) : m.text}`;
  openReport(opener, name, { evidence: { table: C.code, move: m.n, line: m.seq, quote },
    done: () => { C.S.note = t("mod.reported", { name }); C.S.error = ""; drawControls(C); } });
}
function unmute(C, k) { C.S.muted.delete(k); saveMuted(C.code, C.S.muted); drawList(C); drawMuted(C); }

/** The drawer's head: its title, the host's switch (chat on / off), its close button. */
function drawHead(C) {
  const { S } = C;
  clear(C.head).append(...[
    h("h2", { class: "side-h", id: "chat-h" }, t(me(C) === null ? "chat.title_spectators" : "chat.title")),
    isHost(C) ? h("button", { type: "button", class: "btn btn-small", id: "chat-switch", "aria-pressed": S.off ? "true" : "false",
      onclick: () => C.send({ type: "chat_mode", off: !S.off }) }, t(S.off ? "chat.turn_on" : "chat.turn_off")) : null,
    h("button", { type: "button", class: "btn btn-small chat-close", id: "chat-close", "aria-label": t("chat.close"),
      onclick: () => toggle(C, false) }, "✕")].filter(Boolean));
}

/** The messages (the muted ones' left out), kept at its end when it was there. */
function drawList(C) {
  const { S, list } = C;
  const at = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  clear(list);
  const rows = [...S.rows.values()].sort((a, b) => a.seq - b.seq);
  let shown = 0;
  for (const m of rows) {
    const own = mine(C, m);
    if (S.muted.has(who(m)) && !own && m.kind !== "off" && m.kind !== "on") continue;
    const other = !own && m.kind !== "off" && m.kind !== "on";
    list.appendChild(rowItem(m, { mine: own, onMute: other ? (r) => mute(C, r) : null,
      onReport: other && reportable(C, m) ? (r, opener) => report(C, r, opener) : null }));
    shown++;
  }
  if (!shown) list.appendChild(h("li", { class: "chat-empty muted" }, t("chat.empty")));
  if (at || S.open) list.scrollTop = list.scrollHeight;
}

/** The muted ones, each a button that unmutes them. */
function drawMuted(C) {
  const { S, mutedBox } = C;
  clear(mutedBox);
  if (!S.muted.size) return;
  mutedBox.append(h("span", { class: "muted" }, t("chat.muted")), " ",
    ...[...S.muted].map((k) => h("button", { type: "button", class: "chip chat-unmute", data: { who: k },
      onclick: () => unmute(C, k) }, "🔈 ", S.names[k] || nameOfKey(C, k))));
}
function nameOfKey(C, k) {
  const m = [...C.S.rows.values()].find((r) => who(r) === k);
  return m ? senderName(m) : k;
}

/** The form, the reactions and the status line (chat off, or the last refusal). */
function drawControls(C) {
  const { S, input, sendBtn, reacts, status } = C;
  input.placeholder = t("chat.placeholder");
  input.setAttribute("aria-label", t("chat.placeholder"));
  sendBtn.textContent = t("chat.send");
  reacts.setAttribute("aria-label", t("chat.reactions"));
  clear(reacts).append(...REACTIONS.map((c) => h("button", { type: "button", class: "chat-react" + (EMOTES[c] ? " chat-emote" : ""),
    data: { react: c }, title: t(`chat.say.${c}`), "aria-label": t(`chat.say.${c}`), onclick: () => react(C, c) }, reactionText(c))));
  input.disabled = sendBtn.disabled = S.off;
  for (const b of reacts.querySelectorAll("button")) b.disabled = S.off;
  status.textContent = S.off ? t("chat.off") : S.error || S.note || "";
  status.classList.toggle("error", !S.off && !!S.error);
}

function redraw(C) { drawHead(C); drawControls(C); drawMuted(C); drawList(C); }      // the list last: it scrolls to its end

/** Opens or closes the drawer (the status bar's button says which). */
function toggle(C, open) {
  const { S, panel, list } = C;
  S.open = open;
  panel.hidden = !open;
  if (open) { S.unread = 0; list.scrollTop = list.scrollHeight; C.input.focus({ preventScroll: true }); }
  const b = document.getElementById("chat-toggle");
  if (b) { b.setAttribute("aria-expanded", open ? "true" : "false"); b.replaceWith(button(C)); }
  if (!open) { const nb = document.getElementById("chat-toggle"); if (nb) nb.focus(); }
}

/** The status bar's "Chat" button, with the count of unread messages. */
function button(C) {
  const { S } = C;
  return h("button", { type: "button", class: "btn btn-small icon-btn chat-toggle", id: "chat-toggle", "aria-controls": "chat-panel",
    title: t("chat.open"),
    "aria-expanded": S.open ? "true" : "false", onclick: () => toggle(C, !S.open) },
  h("span", { "aria-hidden": "true" }, "💬"), h("span", { class: "chat-label" }, " ", t("chat.open")), S.unread ? h("span", { class: "chat-unread", id: "chat-unread", "aria-label": t("chat.unread", { n: S.unread }) }, String(S.unread)) : null);
}

/** A message kept (a live one counted as unread while the drawer is closed, and read out). */
function add(C, m, live) {
  const { S } = C;
  if (S.rows.has(m.seq)) return;
  S.rows.set(m.seq, m);
  if (S.rows.size > KEEP) S.rows.delete(Math.min(...S.rows.keys()));
  if (m.kind === "off" || m.kind === "on") S.off = m.kind === "off";
  if (live && !mine(C, m) && !(S.muted.has(who(m)))) {
    if (!S.open) {
      S.unread++;
      const b = document.getElementById("chat-toggle");
      if (b) b.replaceWith(button(C));
    }
    if (m.kind === "text" || m.kind === "react") announce(`${senderName(m)}: ${m.kind === "react" ? reactionText(m.text) : m.text}`);
  }
}

/** The connection's message if it is the chat's (then true): its log, a message, a refusal. */
function onMessage(C, msg) {
  const { S } = C;
  if (msg.type === "chat_log") {
    S.off = msg.off;
    S.spectator = msg.spectator;
    for (const m of msg.messages) add(C, m, false);
    S.error = "";
    redraw(C);
    return true;
  }
  if (msg.type === "chat") {
    add(C, msg, true);
    if (mine(C, msg)) S.error = "";
    redraw(C);
    return true;
  }
  if (msg.type === "chat_removed") {                 // a moderator removed a line
    const m = S.rows.get(msg.seq);
    if (m) { m.kind = "removed"; m.text = null; redraw(C); }
    return true;
  }
  if (msg.type === "error" && CHAT_ERRORS.includes(msg.code)) {
    S.note = "";
    const until = msg.params && typeof msg.params.until === "number" ? when(msg.params.until) : "";
    const reason = msg.params && typeof msg.params.reason === "string" ? msg.params.reason : "";
    S.error = reason && msg.code === "chat_muted" ? t("chat.err.chat_muted_why", { until, reason })
      : t(`chat.err.${msg.code}`, { n: MAX, until });
    drawControls(C);
    return true;
  }
  return false;
}

/** A finished game's chat (both channels) for its replay: a <details>, loaded when opened. */
export function replayChat(code) {
  const box = h("details", { class: "replay-chat", id: "replay-chat" });
  const list = h("ol", { class: "chat-list" });
  box.append(h("summary", {}, t("chat.replay")), list);
  let loaded = false;
  box.addEventListener("toggle", async () => {
    if (!box.open || loaded) return;
    loaded = true;
    list.replaceChildren(h("li", { class: "muted" }, t("replay.loading")));
    try {
      const r = await fetch(`/api/tables/${encodeURIComponent(code)}/chat`);
      if (!r.ok) throw new Error(String(r.status));
      const data = await r.json();
      list.replaceChildren();
      for (const m of data.messages) {
        const li = rowItem(m);
        li.prepend(h("span", { class: "chat-at muted" }, (m.n ? t("chat.at_move", { n: m.n }) : t("chat.at_start")) + (m.channel === "spectators" ? " · " + t("chat.spectators_short") : ""), " "));
        list.appendChild(li);
      }
      if (!data.messages.length) list.appendChild(h("li", { class: "muted" }, t("chat.empty")));
    } catch (e) {
      loaded = false;
      list.replaceChildren(h("li", { class: "error" }, t("replay.error", { msg: e.message })));
    }
  });
  return box;
}
