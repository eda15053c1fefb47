// "Learn to play" (docs/learn.md): the lobby's list of lessons (GET /api/lessons;
// a button starts one: POST /api/lessons/{id} makes a private table of the lesson's prepared
// deal with this player seated, and the table page opens), and at a lesson's table the step
// panel above the board (the state's `lesson`: the step due, the last done, free or left; its
// words are the catalog's learn.<key>.do / .done, their clause references and the step's rule
// links to the rules page, never a bare clause id) and the friendly refusal of a decision the
// step does not ask for (the server refuses it too).
// Nothing here names a game: the lessons are what the server lists.
import { t } from "./i18n.js";
import { h, clear, announce } from "./dom.js";
import { api, apiMessage } from "./api.js";
import { withRefs } from "./seats.js";
import { saveSeat, storedName } from "./store.js";
import { navigate } from "./router.js";

// -- the lobby's panel ------------------------------------------------------------------------------
/** The lobby's "Learn to play" panel (drawn once, filled when the server has answered). */
export function learnPanel(nameOf) {
  const box = h("section", { class: "panel learn-panel", id: "learn-panel", "aria-labelledby": "learn-h" });
  let lessons = null;
  let error = "";
  let busy = false;

  async function start(ls) {
    if (busy) return;
    busy = true;
    const name = ((nameOf && nameOf()) || storedName() || "").trim() || t("seat.player", { n: 1 });
    try {
      const r = await api("POST", `/api/lessons/${ls.id}`, { name });
      const j = r.join;
      saveSeat(r.table.code, { token: j.token, seat: j.seat, name: j.name, game: r.table.game, lesson: ls.id });
      navigate(`/t/${r.table.code}`);
    } catch (e) {
      error = t("lobby.error", { msg: apiMessage(e) });
      busy = false;
      draw();
    }
  }

  function draw() {
    clear(box).append(h("h2", { id: "learn-h" }, t("learn.title")));
    if (!lessons) return;
    box.append(h("p", { class: "muted" }, t("learn.lobby_intro")),
      h("ul", { class: "learn-list" }, lessons.map((ls) => h("li", {},
        h("button", { type: "button", class: "btn learn-btn", id: `learn-${ls.id.replace(".", "-")}`, onclick: () => start(ls) },
          t(`learn.lesson.${ls.id}`), h("span", { class: "muted small" }, ` · ${t("learn.step_count", { n: ls.steps })}`))))));
    if (error) box.append(h("p", { class: "error", role: "alert" }, error));
  }

  api("GET", "/api/lessons").then((ls) => { lessons = ls; draw(); }).catch(() => { lessons = []; draw(); });
  draw();
  return { el: box, redraw: draw };
}

// -- at a lesson's table ----------------------------------------------------------------------------------
/** The words of a refusal when `text` is not what the state's step asks for (null: send it). */
export function lessonRefusal(st, text) {
  const ls = st && st.lesson;
  const step = ls && ls.step;
  if (!step || text === step.decision.text) return null;
  return t("learn.refuse", { step: t(`learn.${step.key}.do`) });
}

/** The step's rule on the rules page: the words say "the rule", the clause id is its address. */
function clauseLink(game, clause) {
  const name = t("rule.link", { id: clause });
  return h("a", { class: "clause-ref", href: `/rules/${game}#${clause}`, target: "_blank", rel: "noopener",
    title: name, "aria-label": name, data: { clause } }, t("learn.rule_web"));
}

/** Whether the words of the step done (its number `n`) are opened on a phone. */
const doneOpen = { n: -1, open: false };

/** The step panel of the learner's state (null at other tables and for spectators). */
export function lessonPanel(st, game, note) {
  const ls = st && st.lesson;
  if (!ls) return null;
  const parts = [];
  const done = ls.done && st.status !== "over" && (!ls.step || ls.step.n > ls.done.n) ? ls.done : null;
  if (done) {
    // on a phone the words of the step done take one line until opened (learn.css), so that the
    // cards the next step talks about stay in view
    if (doneOpen.n !== done.n) { doneOpen.n = done.n; doneOpen.open = false; }
    const text = h("p", { class: "learn-done" + (doneOpen.open ? " is-open" : ""), id: "learn-done" }, "✓ ", withRefs(t(`learn.${done.key}.done`)));
    const more = h("button", { type: "button", class: "btn btn-small learn-more", id: "learn-more", "aria-expanded": doneOpen.open ? "true" : "false",
      "aria-controls": "learn-done", onclick: () => {
        doneOpen.open = !doneOpen.open;
        text.classList.toggle("is-open", doneOpen.open);
        more.setAttribute("aria-expanded", String(doneOpen.open));
        more.textContent = t(doneOpen.open ? "learn.less" : "learn.more");
      } }, t(doneOpen.open ? "learn.less" : "learn.more"));
    parts.push(h("div", { class: "learn-done-row" }, text, more));
    // words that fit their line need no "more"
    requestAnimationFrame(() => { if (!doneOpen.open && text.scrollWidth <= text.clientWidth + 1) more.style.display = "none"; });
  }
  let head = t("learn.panel");
  if (ls.step) {
    head = t("learn.step", { i: ls.step.n + 1, n: ls.steps });
    parts.push(h("p", { class: "learn-do", id: "learn-do" }, h("strong", {}, withRefs(t(`learn.${ls.step.key}.do`))), " ", clauseLink(game, ls.step.clause)));
  } else if (st.status === "over") {
    parts.push(h("p", { class: "learn-do", id: "learn-over" }, h("strong", {}, t("learn.over"))));
  } else if (ls.free) {
    parts.push(h("p", { class: "learn-do", id: "learn-free" }, withRefs(t(`learn.free.${ls.id}`))));
  } else if (ls.left) {
    parts.push(h("p", { class: "learn-do", id: "learn-left" }, t("learn.left")));
  } else {
    parts.push(h("p", { class: "learn-wait muted", id: "learn-wait" }, t("learn.wait")));
  }
  if (note) parts.push(h("p", { class: "learn-refused", id: "learn-refused", role: "alert" }, withRefs(note)));
  return h("section", { class: "learn-step", id: "learn-step", "aria-label": t("learn.panel"),
    data: { step: ls.step ? String(ls.step.n) : "", free: ls.free ? "1" : "" } },
  h("h2", { class: "learn-head" }, head), ...parts);
}

/** Say a refusal aloud as well (screen readers). */
export function sayRefusal(text) { announce(text); }
