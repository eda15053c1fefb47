// Reporting a player to the moderators (docs/api.md, "Moderation": POST /api/reports): the
// dialog with a reason and an optional note, opened from a profile (ratings.js) or from a line
// of table talk (chat.js: then the report names the table, the move and the line, and the
// server keeps the lines around it as the evidence).
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { api } from "./api.js";
import { openDialog } from "./account.js";

export const REASONS = ["abuse", "cheating", "spam", "name", "other"];

/** Report `name`: `evidence` ({table, move, line} or nothing) goes with it; `done()` runs once
 * the server has taken the report (an API error stays in the dialog). */
export function openReport(opener, name, { evidence = {}, reason = "abuse", done = () => {} } = {}) {
  openDialog({
    id: "report-dialog", opener, title: t("mod.report_title", { name }), submitLabel: t("mod.report_send"),
    fill: (form) => form.append(
      evidence.quote ? h("blockquote", { class: "mod-warning-text", id: "report-quote" }, evidence.quote) : null,
      h("div", { class: "field" }, h("label", { for: "report-reason" }, t("mod.report_reason")),
        h("select", { id: "report-reason", name: "report-reason" },
          REASONS.map((r) => h("option", { value: r, selected: r === reason }, t("mod.reason." + r))))),
      h("div", { class: "field" }, h("label", { for: "report-note" }, t("mod.report_note")),
        h("textarea", { id: "report-note", name: "report-note", maxlength: 500, rows: 3 }))),
    submit: async (form) => {
      const body = { name, reason: form.querySelector("#report-reason").value,
        note: form.querySelector("#report-note").value };
      for (const k of ["table", "move", "line"]) if (evidence[k] !== undefined && evidence[k] !== null) body[k] = evidence[k];
      await api("POST", "/api/reports", body);
      done();
    },
  });
}
