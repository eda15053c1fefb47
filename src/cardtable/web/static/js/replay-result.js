// The replay's result: a table of the final scores, the winners marked (replay.js).
import { t } from "./i18n.js";
import { node } from "./dom.js";

/** The final scores of a replayed game (`d`: the replay response), the winners marked;
 * `annulled`: a moderator annulled the rated game (it no longer counts), said above them. */
export function resultTable(d, nameOf, annulled = false) {
  const wrap = node("div", "replay-result-body");
  const h = node("h2", null, t("replay.result"));
  wrap.appendChild(h);
  if (annulled) wrap.appendChild(node("p", "replay-muted", t("rt.annulled_hint")));
  if (!d.scores) {
    wrap.appendChild(node("p", "replay-muted", "—"));
    return wrap;
  }
  const table = node("table", "replay-scores");
  const thead = node("thead");
  const tr = node("tr");
  for (const k of ["replay.player", "replay.score", "replay.winner"]) {
    const th = node("th", null, t(k));
    th.scope = "col";
    tr.appendChild(th);
  }
  thead.appendChild(tr);
  table.appendChild(thead);
  const tbody = node("tbody");
  d.scores.forEach((sc, s) => {
    const r = node("tr");
    const win = (d.winners || []).includes(s);
    if (win) r.classList.add("is-winner");
    const th = node("th", null, nameOf(s));
    th.scope = "row";
    r.append(th, node("td", "replay-score", String(sc)), node("td", null, win ? t("replay.winner_mark") : ""));
    tbody.appendChild(r);
  });
  table.appendChild(tbody);
  wrap.appendChild(table);
  return wrap;
}
