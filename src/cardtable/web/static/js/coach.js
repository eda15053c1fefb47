// The coach at a bot table (the server: POST /api/tables/CODE/coach, docs/protocol.md
// "Coach and review"). Off by default: the status bar's "Coach" button (only where the coach may
// help: a player's seat at a table where every other seat is a bot's, not a rated table) opens
// its panel; "Ask the coach" there asks the server, which computes the expert level's estimates
// from this seat's view in its bot pool, and the panel lists every option with its win chance
// and play-outs, best first. The answer is for one decision: once the game moves on it is
// marked as old.
//
//   tableCoach({code, state, table, token}) -> {button(), panel, redraw(), destroy()}
import { t, getLang, formatPercent } from "./i18n.js";
import { h, clear, announce } from "./dom.js";
import { api, apiMessage } from "./api.js";
import { plainText } from "./seats.js";

/** Whether the coach may help at this table (the server decides again: coach_allowed). */
export function coachAllowed(st, table) {
  if (!st || st.seat === null || st.seat === undefined || st.status !== "playing") return false;
  if ((table && table.rated) || st.rated) return false;
  return (st.seats || []).every((s) => s.seat === st.seat || s.kind === "bot");
}

/** An option in the table's words (the server's, in the page's language, without their clause
 * references: a row of a table, not a rule's text), its notation as its title; the notation
 * alone where the server has no words for it. */
export function optionWords(o) {
  const words = o.text && o.text[getLang()];
  return words ? h("span", { class: "coach-words", title: o.decision }, plainText(words)) : h("code", {}, o.decision);
}

export function tableCoach({ code, state, table, token }) {
  const S = { open: false, busy: false, answer: null, error: "" };
  // a region the keyboard can scroll (a long list of options)
  const list = h("div", { class: "coach-list", id: "coach-list", tabindex: "0", role: "region" });
  const status = h("p", { class: "coach-status", id: "coach-status", role: "status" });
  const ask = h("button", { type: "button", class: "btn btn-primary coach-ask", id: "coach-ask", onclick: () => request() });
  const close = h("button", { type: "button", class: "btn btn-small", id: "coach-close", onclick: () => toggle(false) }, "✕");
  const title = h("h2", { class: "side-h", id: "coach-h" });
  const panel = h("section", { class: "coach-panel", id: "coach-panel", hidden: true, "aria-labelledby": "coach-h" },
    h("div", { class: "coach-head" }, title, close), ask, status, list);

  function toggle(open) {
    S.open = open;
    panel.hidden = !open;
    const b = document.getElementById("coach-toggle");
    if (b) b.replaceWith(button());
    if (open) { redraw(); ask.focus({ preventScroll: true }); } else {
      const nb = document.getElementById("coach-toggle");
      if (nb) nb.focus();
    }
  }

  function button() {
    if (!coachAllowed(state(), table())) {
      if (S.open) { S.open = false; panel.hidden = true; }
      return null;
    }
    return h("button", { type: "button", class: "btn btn-small coach-toggle", id: "coach-toggle", "aria-controls": "coach-panel",
      "aria-pressed": S.open ? "true" : "false", title: t("coach.toggle_note"), onclick: () => toggle(!S.open) },
    h("span", { "aria-hidden": "true" }, "🎓 "), h("span", { class: "coach-label" }, t("coach.button")));
  }

  async function request() {
    const st = state();
    const mine = token();
    if (!st || !mine || S.busy) return;
    S.busy = true; S.error = ""; S.answer = null;
    redraw();
    try {
      S.answer = await api("POST", `/api/tables/${encodeURIComponent(code)}/coach`, { token: mine });
      announce(t("coach.title"));
    } catch (e) {
      S.error = apiMessage(e);
      announce(S.error);
    } finally {
      S.busy = false;
      redraw();
    }
  }

  function redraw() {
    const st = state();
    title.textContent = t("coach.title");
    list.setAttribute("aria-label", t("coach.title"));
    close.setAttribute("aria-label", t("coach.close"));
    ask.textContent = S.busy ? t("coach.thinking") : t("coach.ask");
    ask.disabled = S.busy || !st || !st.your_turn;
    panel.setAttribute("aria-busy", S.busy ? "true" : "false");
    status.textContent = S.error || (S.busy ? t("coach.thinking") : "");
    status.classList.toggle("error", !!S.error);
    clear(list);
    const a = S.answer;
    if (!a) return;
    const old = !st || st.index !== a.index;
    if (old) list.appendChild(h("p", { class: "coach-stale", id: "coach-stale" }, t("coach.stale")));
    const rows = a.options.map((o, i) => h("tr", { class: "coach-row" + (i === 0 ? " coach-best" : ""), data: { decision: o.decision } },
      h("td", { class: "coach-n" }, String(i + 1)),
      h("td", { class: "coach-option" }, optionWords(o),
        o.level_choice ? h("span", { class: "coach-own", title: t("coach.own") }, " ★", h("span", { class: "sr-only" }, " " + t("coach.own"))) : null),
      h("td", { class: "coach-win" }, o.rollouts >= 10 ? formatPercent(o.win_chance, 1) : "—"),
      h("td", { class: "coach-rollouts" }, String(o.rollouts))));
    const total = a.options.reduce((n, o) => n + o.rollouts, 0);
    list.append(
      h("table", { class: "coach-table" + (old ? " is-old" : ""), id: "coach-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "#"), h("th", { scope: "col" }, t("coach.col_option")),
          h("th", { scope: "col" }, t("coach.col_win")), h("th", { scope: "col" }, t("coach.col_rollouts")))),
        h("tbody", {}, ...rows)),
      h("p", { class: "coach-note" }, t("coach.note", { n: total }), " ★ ", t("coach.own")));
  }

  function destroy() { S.open = false; }

  return { button, panel, redraw, destroy, toggle };
}
