// The table page's panels around a game (table.js): taking a seat by a link or by a name, the
// waiting room (seats, the invite link, the host's controls) and the end's actions (replay,
// rematch). `ctx`: {S (the page's state), code, root, boardEl, connect(token), names(), myInfo(),
// drawStatus()}.
import { t } from "./i18n.js";
import { h, clear } from "./dom.js";
import { seatNames, seatStatus } from "./seats.js";
import { personMarks, peopleAt } from "./person.js";
import { api, apiMessage } from "./api.js";
import { saveSeat, storedName, storeName } from "./store.js";
import { navigate } from "./router.js";
import { inviteBox } from "./friends.js";
import { account, onAccount } from "./account.js";

/** A seat's chip on the join page: a bot's name with its level ("Bot 3 · expert"), the one
 * thing a newcomer cannot see elsewhere before taking a seat. */
function botLevel(seat, name) {
  return seat && seat.kind === "bot" && seat.bot ? `${name} · ${t("level." + seat.bot)}` : name;
}

export function drawLinkConfirm(ctx, mine) {
  const { S, code, root, connect } = ctx;
  clear(root);
  const token = S.linkToken;
  root.appendChild(h("div", { class: "panel join-table", id: "link-confirm", role: "region", "aria-labelledby": "lc-h" },
    h("h1", { id: "lc-h" }, `${t("game." + S.table.game)} · ${t("table.code", { code })}`),
    h("p", {}, t("table.link_seat")),
    h("p", { class: "muted" }, t("table.link_warn")),
    mine ? h("p", { class: "muted" }, t("table.link_replaces", { name: mine.name || t("seat.name", { n: (mine.seat || 0) + 1 }) })) : null,
    h("div", { class: "actions" },
      h("button", { type: "button", class: "btn btn-primary", id: "take-linked-seat", onclick: () => {
        S.linkToken = null;
        saveSeat(code, { token, game: S.table.game });
        connect(token);
      } }, t("table.link_take")),
      h("button", { type: "button", class: "btn", id: "watch-instead", onclick: () => { S.linkToken = null; connect(mine ? mine.token : null); } },
        mine ? t("table.link_keep") : t("table.watch")))));
}

/** What a newcomer agrees to by taking a seat: the rule set (a game with one names none) and
 * the pace (a turn-based table's time per move). */
function joinFacts(table) {
  const move = table.move_seconds ? t(`pace.move_${table.move_seconds}`) : "";
  return h("ul", { class: "join-facts", id: "join-facts" },
    table.variant ? h("li", { id: "join-variant" }, t("table.join_variant", { variant: t("variant." + table.variant) })) : null,
    h("li", { id: "join-pace" }, table.pace === "turn"
      ? t("table.join_pace_turn", { move: move === `pace.move_${table.move_seconds}` ? `${table.move_seconds} s` : move })
      : t("table.join_pace_live")));
}

export function drawJoin(ctx) {
  const { S, code, root, connect } = ctx;
  clear(root);
  const names = seatNames(S.table.seats);
  let name = storedName();
  const me = account();               // logged in: the account's name, no name box
  const form = h("form", { class: "panel join-table", onsubmit: async (e) => {
    e.preventDefault();
    const as = (me ? me.name : name).trim();
    if (!as) { S.joinError = t("lobby.name_needed"); drawJoin(ctx); return; }
    if (!me) storeName(as);
    try {
      const j = await api("POST", `/api/tables/${code}/join`, { name: as });
      saveSeat(code, { token: j.token, seat: j.seat, name: j.name, game: S.table.game });
      connect(j.token);
    } catch (err) { S.joinError = t("lobby.error", { msg: apiMessage(err) }); drawJoin(ctx); }
  } },
  h("h1", {}, `${t("game." + S.table.game)} · ${t("table.code", { code })}`),
  joinFacts(S.table),
  S.table.rated ? h("p", { class: "rated-hint" }, h("span", { class: "chip chip-rated" }, t("lobby.rated_chip")), " ", t("rt.join_hint")) : null,
  h("ul", { class: "seat-chips" }, names.map((n, i) => h("li", { class: "chip" + (S.table.free_seats.includes(i) ? " chip-free" : "") },
    S.table.free_seats.includes(i) ? `${t("seat.name", { n: i + 1 })}: ${t("seat.open")}` : botLevel(S.table.seats[i], n)))),
  me ? h("p", { class: "muted small as-account", id: "tj-name-as" }, t("lobby.as_account", { name: me.name }))
    : h("div", { class: "field" }, h("label", { for: "tj-name" }, t("lobby.name")),
      h("input", { id: "tj-name", type: "text", maxlength: 32, value: name, autocomplete: "nickname", oninput: (e) => { name = e.target.value; } })),
  S.joinError ? h("p", { class: "error", role: "alert" }, S.joinError) : null,
  h("div", { class: "actions" },
    h("button", { type: "submit", class: "btn btn-primary", id: "take-seat" }, t("table.join_here")),
    h("button", { type: "button", class: "btn", id: "just-watch", onclick: () => connect(null) }, t("table.watch"))));
  root.appendChild(form);
  // the account known later (GET /api/me answers after a reload): the form without a name box
  const off = onAccount(() => { off(); if (form.isConnected) drawJoin(ctx); });
}

export function drawWaiting(ctx) {
  const { S, code, boardEl } = ctx;
  const link = `${location.origin}/t/${code}`;
  const st = S.state;
  const free = st.seats.filter((s) => s.kind === "human" && !s.joined).length;
  const nm = ctx.names();
  const host = st.seat !== null && st.seat === (S.table.host === undefined ? firstHuman(st.seats) : S.table.host);
  const levels = ["easy", "medium", "hard", "expert"];
  const seatRow = (s, i) => {
    const open = s.kind === "human" && !s.joined;
    const row = h("li", { class: "wait-seat" + (open ? " is-open" : ""), data: { seat: i } },
      h("span", { class: "seat-n" }, t("seat.name", { n: i + 1 })),
      h("span", { class: "wait-name" }, open ? t("seat.open") : [personMarks(peopleAt(code)[i], seatNames(st.seats)[i]), nm[i]]),
      // the host's bot seat says its level in its own menu, not a second time beside the name
      open || (host && s.kind === "bot") ? null : seatStatus({ seats: st.seats }, i));
    if (host && open) {
      row.appendChild(h("button", { type: "button", class: "btn btn-small", id: `to-bot-${i}`, onclick: () => S.conn.send({ type: "seat", seat: i, kind: "bot", bot: "medium" }) }, t("wait.to_bot")));
    } else if (host && s.kind === "bot") {
      const sel = h("select", { id: `bot-level-${i}`, "aria-label": t("wait.level", { n: i + 1 }),
        onchange: (e) => S.conn.send({ type: "seat", seat: i, kind: "bot", bot: e.target.value }) },
      levels.map((l) => h("option", { value: l, selected: s.bot === l }, t("level." + l))));
      row.append(sel, h("button", { type: "button", class: "btn btn-small", id: `to-human-${i}`, onclick: () => S.conn.send({ type: "seat", seat: i, kind: "human" }) }, t("wait.to_human")));
    }
    return row;
  };
  boardEl.appendChild(h("div", { class: "panel waiting" },
    h("h2", {}, t("table.waiting", { n: free })),
    h("ul", { class: "wait-seats", id: "wait-seats" }, st.seats.map(seatRow)),
    h("p", {}, t("table.share")),
    h("div", { class: "share" }, h("input", { type: "text", readonly: true, value: link, id: "share-link", "aria-label": t("table.share"),
      onfocus: (e) => e.target.select() }),
    h("button", { type: "button", class: "btn", onclick: async (e) => {
      try { await navigator.clipboard.writeText(link); e.target.textContent = t("table.copied"); } catch (err) { document.getElementById("share-link").select(); }
    } }, t("table.copy"))),
    free && st.seat !== null ? inviteBox(code) : null,
    host ? h("div", { class: "actions" }, h("button", { type: "button", class: "btn", id: "cancel-table", onclick: () => {
      if (window.confirm(t("wait.cancel_confirm"))) S.conn.send({ type: "cancel" });
    } }, t("wait.cancel"))) : null,
  ));
}

export function endActions(ctx) {
  const { S, code } = ctx;
  const st = S.state;
  const mine = ctx.myInfo();
  const box = h("div", { class: "end-actions" },
    h("a", { class: "btn", href: `/replay/${code}`, "data-link": "", id: "replay-link" }, t("table.replay")),
    h("a", { class: "btn", href: "/", "data-link": "" }, t("table.back_lobby")));
  if (st.rematch) {
    box.prepend(h("button", { type: "button", class: "btn btn-primary", id: "to-rematch", onclick: () => {
      if (mine) saveSeat(st.rematch, Object.assign({}, mine));
      navigate(`/t/${st.rematch}`);
    } }, t("table.to_rematch")));
  } else if (mine && st.seat !== null) {
    box.prepend(h("button", { type: "button", class: "btn btn-primary", id: "rematch-btn", onclick: async () => {
      try {
        const tb = await api("POST", `/api/tables/${code}/rematch`, { token: mine.token });
        saveSeat(tb.code, Object.assign({}, mine));
        navigate(`/t/${tb.code}`);
      } catch (e) { S.error = t("lobby.error", { msg: apiMessage(e) }); ctx.drawStatus(); }
    } }, t("table.rematch")));
  }
  return box;
}

function firstHuman(seats) {
  const s = seats.find((x) => x.kind === "human");
  return s ? s.seat : null;
}
