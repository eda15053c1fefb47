// The moderators' queue (/mod; docs/deploy.md, "Moderation"): the open reports, oldest first,
// each with its evidence (the table and move, a link to the replay, the reported line of table
// talk among the lines around it). A moderator takes a report on (claim) and acts from it:
// removes the line, mutes, warns, suspends or bans the player (of a reported line: its
// writer), then resolves the report with an outcome and a note. Every action is one call of the moderators' API (docs/api.md,
// "Moderation"); its result and the report's new state show on the report. A player who opens
// the page is told it is for moderators (the API answers 403 `not_moderator`).
import { t, getLang, onLang } from "./i18n.js";
import { h, clear, announce } from "./dom.js";
import { api, apiMessage } from "./api.js";
import { account, onAccount } from "./account.js";
import { reactionText } from "./chat.js";

const DURATIONS = ["30m", "12h", "3d", "2w"];
const OUTCOMES = ["no_action", "warned", "muted", "suspended", "banned", "renamed"];

function when(at) {
  return new Intl.DateTimeFormat(getLang() === "de" ? "de-DE" : "en-GB",
    { dateStyle: "medium", timeStyle: "short" }).format(new Date(at * 1000));
}

/** The page: `el` is #main. Returns {destroy}. */
export function render(el) {
  const P = { el, reports: null, error: null, done: {}, outcome: {}, typed: {} };
  el.className = "page-mod";
  draw(P);
  load(P);
  const offLang = onLang(() => draw(P));
  const offAccount = onAccount(() => draw(P));        // (a report I claimed shows its actions)
  return { destroy: () => { offLang(); offAccount(); } };
}

async function load(P) {
  try { P.reports = await api("GET", "/api/mod/reports?status=open"); P.error = null; } catch (e) { P.error = e; }
  draw(P);
}

function draw(P) {
  document.title = `${t("modq.title")} · cardtable`;
  const focusId = document.activeElement && P.el.contains(document.activeElement) && document.activeElement.id;
  clear(P.el).append(h("h1", {}, t("modq.title")));
  if (P.error) {
    const text = P.error.status === 403 ? t("modq.not_allowed") : P.error.status === 401 ? t("modq.log_in") : apiMessage(P.error);
    P.el.append(h("div", { class: "panel mq-refused", id: "mq-refused", role: "alert" }, h("p", {}, text),
      h("a", { href: "/", "data-link": "", class: "btn" }, t("table.back_lobby"))));
    return;
  }
  if (P.reports === null) { P.el.append(h("p", { class: "muted" }, t("rt.loading"))); return; }
  P.el.append(h("div", { class: "mq-bar" }, h("p", { class: "muted", id: "mq-count" }, t("modq.count", { n: P.reports.filter((r) => !r.handled).length })),
    h("button", { type: "button", class: "btn btn-small", id: "mq-reload", onclick: () => load(P) }, t("modq.reload"))));
  if (!P.reports.length) P.el.append(h("p", { class: "panel muted", id: "mq-empty" }, t("modq.empty")));
  P.el.append(h("ol", { class: "mq-list", id: "mq-list" }, P.reports.map((r) => h("li", {}, card(P, r)))));
  if (focusId) { const f = document.getElementById(focusId); if (f) f.focus(); }
}

/** Who wrote a line of the evidence: the seat's name, or a spectator named in the page's
 * language ("Spectator 2" as the chat names them; a report made before lines carried the
 * number: "a spectator"). */
function writer(l) {
  if (l.name) return l.name;
  return typeof l.spectator === "number" ? t("chat.spectator", { n: l.spectator }) : t("modq.spectator");
}

/** Whom a report is about, in the page's language: the reported line's writer, or the
 * reported account's name. */
function target(r) {
  const ev = r.evidence || {};
  const hit = (ev.lines || []).find((l) => l.id === ev.line);
  return hit && !hit.name && typeof hit.spectator === "number" ? writer(hit) : r.name;
}

/** One report: who reported whom and why, the evidence, its state and what may be done. */
function card(P, r) {
  const ev = r.evidence || {};
  const box = h("section", { class: "panel mq-report", id: `mq-report-${r.id}`, "aria-labelledby": `mq-h-${r.id}`, data: { id: String(r.id) } },
    h("h2", { id: `mq-h-${r.id}` }, t("modq.head", { name: target(r), reason: t("mod.reason." + r.reason) })),
    h("p", { class: "muted small mq-meta" }, t("modq.by", { reporter: r.reporter, at: when(r.created_at) })),
    r.note ? h("blockquote", { class: "mq-note" }, r.note) : null,
    r.profile_line ? h("p", { class: "mq-profile-line small", id: `mq-profile-${r.id}` }, t("modq.profile_line", { line: r.profile_line })) : null,
    evidence(r, ev),
    h("p", { class: "mq-state", id: `mq-state-${r.id}`, role: "status" }, state(r)),
    h("ul", { class: "mq-done", id: `mq-done-${r.id}` }, (P.done[r.id] || []).map((d) => h("li", {}, d()))));
  const me = account();
  if (r.handled) return box;
  if (!r.claimed_by || !me || r.claimed_by !== me.name) {
    box.append(h("button", { type: "button", class: "btn btn-primary mq-claim", id: `mq-claim-${r.id}`,
      onclick: () => act(P, r, () => api("POST", `/api/mod/reports/${r.id}/claim`), null) }, t("modq.claim")));
  } else box.append(actions(P, r, ev));
  box.append(h("p", { class: "error mq-error", id: `mq-error-${r.id}`, role: "alert" }));
  return box;
}

function state(r) {
  if (r.handled) return t("modq.state_resolved", { outcome: t("modq.outcome." + (r.outcome || "no_action")), note: r.resolution || "" });
  if (r.claimed_by) return t("modq.state_claimed", { name: r.claimed_by });
  return t("modq.state_open");
}

/** The table, the move (a link to the replay there) and the lines around the reported one. */
function evidence(r, ev) {
  const out = h("div", { class: "mq-evidence" });
  if (ev.table) {
    const href = `/replay/${encodeURIComponent(ev.table)}` + (typeof ev.move === "number" ? `#step=${ev.move}` : "");
    out.append(h("p", { class: "small" }, t(typeof ev.move === "number" ? "modq.table_move" : "modq.table", { code: ev.table, n: ev.move }), " ",
      h("a", { href, "data-link": "", id: `mq-replay-${r.id}` }, t("modq.replay"))));
  }
  if (ev.lines && ev.lines.length) {
    out.append(h("ol", { class: "mq-lines", id: `mq-lines-${r.id}`, "aria-label": t("modq.lines") }, ev.lines.map((l) => {
      const hit = l.id === ev.line;
      return h("li", { class: "mq-line" + (hit ? " mq-line-hit" : ""), data: { line: String(l.id) } },
        hit ? h("span", { class: "mq-mark" }, "▶ ", h("span", { class: "sr-only" }, t("modq.reported_line"))) : null,
        h("strong", {}, writer(l) + ": "),
        h("span", { class: "mq-text" }, l.kind === "react" ? reactionText(l.text) : (l.text || "")));
    })));
  }
  return out;
}

/** The moderator's tools for a report they hold: a reason, a duration, the actions, resolve. */
function actions(P, r, ev) {
  const id = r.id;
  const typed = P.typed[id] = P.typed[id] || {};
  const keep = (el, key) => { if (typed[key] !== undefined) el.value = typed[key]; el.addEventListener("input", () => { typed[key] = el.value; }); return el; };
  const reason = keep(h("input", { type: "text", id: `mq-reason-${id}`, maxlength: 500, autocomplete: "off" }), "reason");
  const until = keep(h("select", { id: `mq-until-${id}` }, DURATIONS.map((d) => h("option", { value: d }, t("modq.for." + d)))), "until");
  const need = () => {
    const text = reason.value.trim();
    if (!text) { reason.setAttribute("aria-invalid", "true"); reason.focus(); throw Object.assign(new Error(t("modq.need_reason")), { shown: true }); }
    reason.removeAttribute("aria-invalid");
    return text;
  };
  const name = r.name;
  // a reported line's actions go to its writer (an account, or a guest's browser at a seat or
  // watching); a report without a line names an account
  const who = () => (ev.line ? { line: ev.line } : { name });
  const btn = (key, cls, run, outcome) => h("button", { type: "button", class: "btn btn-small " + cls, id: `mq-${key}-${id}`,
    onclick: () => act(P, r, run, outcome) }, t("modq.do." + key));
  const tools = h("div", { class: "mq-tools", role: "group", "aria-label": t("modq.actions") },
    ev.line ? btn("remove", "", async () => {
      const out = await api("POST", `/api/mod/lines/${ev.line}/remove`, { reason: need() });
      return () => t(out.removed ? "modq.done.removed" : "modq.done.removed_before", { name: target(r) });
    }, null) : null,
    btn("mute", "", async () => {
      const out = await api("POST", "/api/mod/mutes", Object.assign(who(), { reason: need(), until: until.value }));
      return () => t("modq.done.muted", { name: ev.line ? target(r) : out.name, until: when(out.until) });
    }, "muted"),
    btn("warn", "", async () => {
      await api("POST", "/api/mod/warnings", Object.assign(who(), { text: need() }));
      return () => t("modq.done.warned", { name: target(r) });
    }, "warned"),
    btn("suspend", "", async () => {
      const out = await api("POST", "/api/mod/bans", Object.assign(who(), { reason: need(), until: until.value }));
      return () => t("modq.done.suspended", { name: ev.line ? target(r) : out.name, until: when(out.until) });
    }, "suspended"),
    btn("ban", "btn-danger", async () => {
      await api("POST", "/api/mod/bans", Object.assign(who(), { reason: need() }));
      return () => t("modq.done.banned", { name: target(r) });
    }, "banned"));
  const outcome = keep(h("select", { id: `mq-outcome-${id}` }, OUTCOMES.map((o) => h("option", { value: o, selected: o === (P.outcome[id] || "no_action") }, t("modq.outcome." + o)))), "outcome");
  const note = keep(h("input", { type: "text", id: `mq-note-${id}`, maxlength: 500, autocomplete: "off" }), "note");
  const resolve = h("button", { type: "button", class: "btn btn-primary btn-small", id: `mq-resolve-${id}`, onclick: () => act(P, r, async () => {
    const text = note.value.trim();
    if (!text) { note.setAttribute("aria-invalid", "true"); note.focus(); throw Object.assign(new Error(t("modq.need_note")), { shown: true }); }
    return api("POST", `/api/mod/reports/${id}/resolve`, { outcome: outcome.value, note: text });
  }, null) }, t("modq.resolve"));
  return h("div", { class: "mq-act" },
    h("div", { class: "mq-fields" },
      field(reason, t("modq.reason")), field(until, t("modq.duration"))),
    tools,
    h("div", { class: "mq-fields mq-resolve" }, field(outcome, t("modq.outcome_label")), field(note, t("modq.note"))),
    resolve);
}

function field(control, label) {
  return h("div", { class: "field" }, h("label", { for: control.id }, label), control);
}

/** Runs one action of report `r`: a report it answers replaces the shown one; a function it
 * answers (what was done, in the page's language) is added to what was done (and read out); `outcome` becomes the resolve form's choice. An
 * error is shown on the report. */
async function act(P, r, run, outcome) {
  const err = document.getElementById(`mq-error-${r.id}`);
  if (err) err.textContent = "";
  try {
    const out = await run();
    if (out && typeof out === "object") {
      const i = P.reports.findIndex((x) => x.id === r.id);
      if (i >= 0) P.reports[i] = out;
      announce(state(out));
    } else if (typeof out === "function") {
      (P.done[r.id] = P.done[r.id] || []).push(out);
      if (outcome) { P.outcome[r.id] = outcome; if (P.typed[r.id]) delete P.typed[r.id].outcome; }
      announce(out());
    }
    draw(P);
  } catch (e) {
    const text = e.shown ? e.message : apiMessage(e);
    const box = document.getElementById(`mq-error-${r.id}`);
    if (box) box.textContent = text;
    else { announce(text); await load(P); }
  }
}
