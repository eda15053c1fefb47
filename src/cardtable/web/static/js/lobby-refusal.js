// The lobby's refusals (lobby.js): a name left empty, or the server's refusal of a new table
// or a seat (its reason in words, with what the player can do: api.js and the catalogs),
// shown in the create form's error line, just above the "Create table" button, and scrolled
// into view (on a phone the form is longer than the screen). `L` is the lobby (lobby.js).
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { apiMessage } from "./api.js";

/** A name is needed (and the form is drawn again to say so). */
export function nameNeeded(L) {
  L.error = t("lobby.name_needed");
  L.draw();
  inView();
}

/** The server refused (an HTTP error of api.js): its reason in words. */
export function refused(L, e) {
  L.error = t("lobby.error", { msg: apiMessage(e) });
}

/** The error line (null: none). */
export function errorLine(L) {
  return L.error ? h("p", { class: "error", role: "alert", id: "create-error" }, L.error) : null;
}

/** The error line and the button under it scrolled into view (after the form was drawn). */
export function inView() {
  const line = document.getElementById("create-error");
  if (!line) return;
  const button = document.getElementById("create-btn");
  (button || line).scrollIntoView({ block: "nearest" });
  line.scrollIntoView({ block: "nearest" });
}
