// Friends in the browser (docs/api.md, "Friends"): the lobby's friends panel
// (invitations to tables, requests to me, my friends with who is online, adding one by name,
// my requests, invitations as notifications) and, in a table's waiting room, one button per
// friend that invites them to the table.
//
// Both poll GET /api/friends (every POLL_MS while shown and logged in): that is also what
// makes this account "online" for its friends. Online is told by a dot and in words.
import { t, getLang, onLang } from "./i18n.js";
import { h, clear, announce } from "./dom.js";
import { api, apiMessage } from "./api.js";
import { account, onAccount, openSignIn } from "./account.js";
import { storedName, storeName } from "./store.js";
import { navigate } from "./router.js";
import { pushSupported, subscribe } from "./push.js";

const POLL_MS = 5000;
const PUSH_KEY = "cardtable.push.invites";

let data = null;            // the last GET /api/friends
let loading = null;
const seenInvites = new Set();
const listeners = new Set();

async function load() {
  if (!account()) { data = null; return null; }
  if (!loading) {
    loading = api("GET", "/api/friends").then((d) => {
      for (const i of d.invites) {
        if (!seenInvites.has(i.id)) {
          seenInvites.add(i.id);
          announce(t("friends.new_invite", { name: i.from, game: t("game." + i.game) }));
        }
      }
      data = d;
      return d;
    }).catch((e) => { if (e.status === 401) data = null; return data; })
      .finally(() => { loading = null; for (const f of [...listeners]) f(); });
  }
  return loading;
}

/** Poll while `isShown()`; stops by itself once it is not. */
function poller(isShown) {
  let timer = null;
  const tick = () => {
    if (!isShown()) { clearInterval(timer); timer = null; return; }
    load();
  };
  return () => { if (!timer) { timer = setInterval(tick, POLL_MS); load(); } };
}

/** Keep the keyboard where it was across a redraw of `box` (its controls carry data-key). */
function redrawKeepingFocus(box, draw) {
  const a = document.activeElement;
  const key = a && box.contains(a) && a.dataset ? a.dataset.key : null;
  draw();
  if (key) {
    const again = box.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again && !again.disabled) again.focus();
  }
}

function presence(online) {
  return h("span", { class: "fr-presence " + (online ? "is-online" : "is-offline") },
    h("span", { class: "fr-dot", "aria-hidden": "true" }), online ? t("friends.online") : t("friends.offline"));
}

// -- the lobby's panel ---------------------------------------------------------------------------
const panel = h("section", { class: "panel friends", id: "friends", "aria-labelledby": "friends-h", hidden: true });
const note = h("p", { class: "fr-note", id: "fr-note", role: "status", tabindex: "-1" });
const lists = h("div", { class: "fr-lists" });
let noteText = "";
let noteError = false;
let addName = "";
let pushNote = "";

function say(text, error = false) {
  noteText = text;
  noteError = error;
  note.textContent = text;
  note.classList.toggle("error", error);
}

async function act(fn, done) {
  try {
    const r = await fn();
    if (done) say(done(r));
  } catch (e) {
    say(apiMessage(e), true);
  }
  await load();
  // the button pressed went with its line (an answered request): the keyboard goes to the note
  if (panel.isConnected && (!document.activeElement || document.activeElement === document.body)) note.focus();
}

function addForm() {
  return h("form", { class: "fr-add", id: "fr-add", onsubmit: (e) => {
    e.preventDefault();
    const name = addName.trim();
    if (!name) return;
    act(() => api("POST", "/api/friends/requests", { name }), (r) => {
      addName = "";
      const input = document.getElementById("fr-name");
      if (input) input.value = "";
      return r.status === "friends" ? t("friends.now_friends", { name: r.name }) : t("friends.sent_note", { name: r.name });
    });
  } },
  h("label", { for: "fr-name" }, t("friends.add_label")),
  h("div", { class: "fr-add-row" },
    h("input", { id: "fr-name", type: "text", maxlength: 32, autocomplete: "off", autocapitalize: "none", spellcheck: "false",
      value: addName, "aria-describedby": "fr-note", oninput: (e) => { addName = e.target.value; } }),
    h("button", { type: "submit", class: "btn btn-primary", id: "fr-send" }, t("friends.add_btn"))));
}

function pushBox() {
  if (!pushSupported()) return null;
  let on = false;
  try { on = !!localStorage.getItem(PUSH_KEY); } catch (e) { /* ignore */ }
  return h("div", { class: "fr-push" },
    h("label", { class: "check" }, h("input", { type: "checkbox", id: "fr-push", checked: on, onchange: async (e) => {
      pushNote = "";
      try {
        if (e.target.checked) await pushOn(); else await pushOff();
        pushNote = e.target.checked ? t("friends.push_on") : "";
      } catch (err) {
        pushNote = err.denied ? t("push.denied") : t("push.failed", { why: err.status ? apiMessage(err) : (err.message || String(err)) });
        e.target.checked = false;
      }
      drawPanel(true);
    } }), " ", t("friends.push_label")),
    pushNote ? h("p", { class: "muted small", id: "fr-push-note" }, pushNote) : null);
}

async function pushOn() {
  const sub = await subscribe();
  await api("POST", "/api/friends/push", { lang: getLang(), subscription: sub.toJSON() });
  try { localStorage.setItem(PUSH_KEY, sub.endpoint); } catch (e) { /* ignore */ }
}

async function pushOff() {
  let endpoint = null;
  try { endpoint = localStorage.getItem(PUSH_KEY); localStorage.removeItem(PUSH_KEY); } catch (e) { /* ignore */ }
  if (endpoint) await api("DELETE", "/api/friends/push", { endpoint });
}

function section(id, title, items) {
  return h("div", { class: "fr-section", id }, h("h3", { id: `${id}-h` }, title),
    h("ul", { class: "fr-list", "aria-labelledby": `${id}-h` }, items));
}

function drawLists() {
  clear(lists);
  if (!data) return;
  const out = [];
  if (data.invites.length) {
    out.push(section("fr-invites", t("friends.invites"), data.invites.map((i) => h("li", { class: "fr-item fr-invite", data: { code: i.code } },
      h("span", { class: "fr-text" }, t("friends.invite_text", { name: i.from, game: t("game." + i.game), code: i.code }),
        i.rated ? [" ", h("span", { class: "chip chip-rated" }, t("lobby.rated_chip"))] : null),
      h("span", { class: "fr-actions" },
        h("button", { type: "button", class: "btn btn-small btn-primary", data: { key: `go-${i.id}` }, "aria-label": t("friends.invite_go_label", { name: i.from, code: i.code }),
          onclick: () => acceptInvite(i) }, t("friends.invite_go")),
        h("button", { type: "button", class: "btn btn-small", data: { key: `dismiss-${i.id}` }, "aria-label": t("friends.invite_dismiss_label", { name: i.from }),
          onclick: () => act(() => api("DELETE", `/api/friends/invites/${i.id}`)) }, t("friends.invite_dismiss")))))));
  }
  if (data.incoming.length) {
    out.push(section("fr-incoming", t("friends.incoming"), data.incoming.map((r) => h("li", { class: "fr-item", data: { name: r.name } },
      h("strong", { class: "fr-name" }, r.name),
      h("span", { class: "fr-actions" },
        h("button", { type: "button", class: "btn btn-small btn-primary", data: { key: `accept-${r.id}` }, "aria-label": t("friends.accept_label", { name: r.name }),
          onclick: () => act(() => api("POST", `/api/friends/requests/${r.id}/accept`), () => t("friends.now_friends", { name: r.name })) }, t("friends.accept")),
        h("button", { type: "button", class: "btn btn-small", data: { key: `decline-${r.id}` }, "aria-label": t("friends.decline_label", { name: r.name }),
          onclick: () => act(() => api("POST", `/api/friends/requests/${r.id}/decline`), () => t("friends.declined", { name: r.name })) }, t("friends.decline")))))));
  }
  out.push(h("div", { class: "fr-section", id: "fr-friends" }, h("h3", { id: "fr-friends-h" }, t("friends.list")),
    data.friends.length ? h("ul", { class: "fr-list", id: "friend-list", "aria-labelledby": "fr-friends-h" }, data.friends.map((f) => h("li", {
      class: "fr-item", data: { name: f.name, online: f.online ? "true" : "false" } },
    h("strong", { class: "fr-name" }, f.name), presence(f.online),
    h("span", { class: "fr-actions" }, h("button", { type: "button", class: "btn btn-small", data: { key: `remove-${f.name}` },
      "aria-label": t("friends.remove_label", { name: f.name }), onclick: () => {
        if (window.confirm(t("friends.remove_confirm", { name: f.name }))) {
          act(() => api("DELETE", `/api/friends/people/${encodeURIComponent(f.name)}`), () => t("friends.removed", { name: f.name }));
        }
      } }, t("friends.remove"))))))
      : h("p", { class: "muted" }, t("friends.none"))));
  if (data.sent.length) {
    out.push(section("fr-sent", t("friends.sent"), data.sent.map((r) => h("li", { class: "fr-item", data: { name: r.name } },
      h("strong", { class: "fr-name" }, r.name), h("span", { class: "muted small" }, t("friends.pending")),
      h("span", { class: "fr-actions" }, h("button", { type: "button", class: "btn btn-small", data: { key: `withdraw-${r.id}` },
        "aria-label": t("friends.withdraw_label", { name: r.name }),
        onclick: () => act(() => api("DELETE", `/api/friends/requests/${r.id}`)) }, t("friends.withdraw")))))));
  }
  lists.append(...out);
}

async function acceptInvite(i) {
  try {
    const r = await api("POST", `/api/friends/invites/${i.id}/accept`);
    const me = account();
    if (me && !storedName()) storeName(me.name);        // the join form asks for a name
    navigate(r.link);
  } catch (e) {
    say(apiMessage(e), true);
    await load();
  }
}

function drawPanel(full = false) {
  const me = account();
  panel.hidden = !me;
  if (!me) { clear(panel); data = null; return; }
  if (full || !panel.firstChild) {
    redrawKeepingFocus(panel, () => {
      clear(panel).append(h("h2", { id: "friends-h" }, t("friends.title")), lists, addForm(), note,
        ...[pushBox(), h("p", { class: "muted small fr-why" }, t("friends.why"))].filter(Boolean));
      note.textContent = noteText;
      note.classList.toggle("error", noteError);
    });
  }
  redrawKeepingFocus(lists, drawLists);
}

const startPanel = poller(() => panel.isConnected && !!account());

/** The lobby's friends panel (hidden while logged out). */
export function friendsPanel() {
  drawPanel(true);
  startPanel();
  return panel;
}

listeners.add(() => { if (panel.isConnected) drawPanel(); });
onAccount(() => {
  data = null;
  say("");
  drawPanel(true);
  if (panel.isConnected) { startPanel(); load(); }
});
onLang(() => { if (panel.isConnected) drawPanel(true); });

// -- a table's waiting room: invite a friend with one click -----------------------------------------
const atTables = new Map();          // code -> {box, invited: Set, note}

/** The "invite a friend" box of table `code` (the waiting room of a seated player). */
export function inviteBox(code) {
  let it = atTables.get(code);
  if (!it) {
    it = { box: h("section", { class: "fr-table", id: "fr-table", "aria-labelledby": "fr-table-h" }), invited: new Set(), note: "", error: false };
    atTables.set(code, it);
    const start = poller(() => it.box.isConnected && !!account());
    listeners.add(() => { if (it.box.isConnected) drawBox(code); });
    onAccount(() => { if (it.box.isConnected) { drawBox(code); start(); } });
    it.start = start;
  }
  drawBox(code);
  it.start();
  return it.box;
}

function drawBox(code) {
  const it = atTables.get(code);
  redrawKeepingFocus(it.box, () => {
    clear(it.box).append(h("h3", { id: "fr-table-h" }, t("friends.at_table")));
    if (!account()) {
      it.box.append(h("p", { class: "muted" }, t("friends.table_login"), " ",
        h("button", { type: "button", class: "linklike", id: "fr-table-login", onclick: (e) => openSignIn(e.currentTarget) }, t("acct.sign_in"))));
      return;
    }
    if (!data) return;
    if (!data.friends.length) { it.box.append(h("p", { class: "muted" }, t("friends.table_none"))); return; }
    it.box.append(h("ul", { class: "fr-list", id: "invite-list", "aria-labelledby": "fr-table-h" }, data.friends.map((f) => {
      const done = it.invited.has(f.name);
      return h("li", { class: "fr-item", data: { name: f.name, online: f.online ? "true" : "false" } },
        h("strong", { class: "fr-name" }, f.name), presence(f.online),
        h("span", { class: "fr-actions" }, h("button", { type: "button", class: "btn btn-small" + (done ? "" : " btn-primary"), disabled: done,
          data: { key: `invite-${f.name}` }, "aria-label": done ? `${f.name}: ${t("friends.invited")}` : t("friends.invite_label", { name: f.name }),
          onclick: async () => {
            try {
              await api("POST", "/api/friends/invites", { table: code, to: f.name });
              it.invited.add(f.name);
              it.note = t("friends.invited_note", { name: f.name });
              it.error = false;
            } catch (e) { it.note = apiMessage(e); it.error = true; }
            drawBox(code);
            const next = it.box.querySelector(".fr-actions button:not(:disabled)");
            if (next) next.focus(); else it.box.querySelector("#fr-table-note").focus();
          } }, done ? t("friends.invited") : t("friends.invite_btn"))));
    })), h("p", { class: "fr-note" + (it.error ? " error" : ""), id: "fr-table-note", role: "status", tabindex: "-1" }, it.note));
  });
}
