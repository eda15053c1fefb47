// The lobby's form to join or watch a table by its code or its link (lobby.js): joining asks the
// server for a seat (POST /api/join), keeps it in this browser and opens the table; watching
// opens the table as a spectator. The name box is the create form's name too. `L` is the lobby
// (lobby.js).
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { api } from "./api.js";
import { saveSeat, storeName } from "./store.js";
import { CODE_IN_TEXT, navigate } from "./router.js";
import { field, syncName, nameField, playerName } from "./lobby-fields.js";
import { account } from "./account.js";
import { nameNeeded, refused } from "./lobby-refusal.js";

/** Takes a seat at the table `code` under `name` and opens it. */
export async function joinBy(L, code, typed) {
  const name = playerName(typed).trim();
  if (!name) { nameNeeded(L); return; }
  if (!account()) storeName(name);
  try {
    const j = await api("POST", "/api/join", { table: code, name });
    saveSeat(j.table.code, { token: j.token, seat: j.seat, name: j.name, game: j.table.game });
    navigate(`/t/${j.table.code}`);
  } catch (e) {
    refused(L, e);
    L.draw();
  }
}

/** Opens the table of the code (or the link) typed, as a spectator. */
function watch() {
  const raw = (document.getElementById("j-code").value || "").trim();
  const m = raw.match(CODE_IN_TEXT);
  if (m) navigate(`/t/${m[1].toUpperCase()}`);
}

export function joinForm(L) {
  const { form } = L;
  return h("form", { class: "panel join-form", "aria-labelledby": "join-h",
    onsubmit: (e) => { e.preventDefault(); joinBy(L, L.joinCode || document.getElementById("j-code").value, form.name); } },
    h("h2", { id: "join-h" }, t("lobby.join")),
    field(t("lobby.code"), h("input", { id: "j-code", type: "text", maxlength: 300, placeholder: "K7PQ2MXA", value: L.joinCode,
      oninput: (e) => { L.joinCode = e.target.value; } }), "j-code"),
    nameField("j-name", form.name, (e) => { form.name = e.target.value; syncName("f-name", form.name); syncName("pn-name", form.name); }),
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "btn btn-primary", id: "join-btn" }, t("lobby.join_btn")),
      h("button", { type: "button", class: "btn", id: "watch-btn", onclick: watch }, t("lobby.watch_btn"))),
  );
}
