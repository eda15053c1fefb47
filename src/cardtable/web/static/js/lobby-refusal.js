// The lobby's refusals (lobby.js): a name left empty, or the server's refusal of a new table
// or a seat (its reason in words: api.js), shown in the create form's error line. `L` is the
// lobby (lobby.js).
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { apiMessage } from "./api.js";

/** A name is needed (and the form is drawn again to say so). */
export function nameNeeded(L) {
  L.error = t("lobby.name_needed");
  L.draw();
}

/** The server refused (an HTTP error of api.js): its reason in words. */
export function refused(L, e) {
  L.error = t("lobby.error", { msg: apiMessage(e) });
}

/** The error line (null: none). */
export function errorLine(L) {
  return L.error ? h("p", { class: "error", role: "alert" }, L.error) : null;
}
