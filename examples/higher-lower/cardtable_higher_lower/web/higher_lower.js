// Higher or Lower in the browser: cardtable's game-module interface (its games.js), served at
// /games/higher_lower/higher_lower.js. render(el, view, opts) draws the view it is given (a
// seat's view: the face-up card, the deck's size, everybody's points) and the seat's decisions
// as buttons that call opts.decide; the words come from the catalogs (this game's own entries
// are joined to cardtable's by its server).
import { t } from "/static/js/i18n.js";
import { h } from "/static/js/dom.js";

const nameOf = (opts, s) => (opts.names && opts.names[s]) || t("seat.name", { n: s + 1 });

export function render(el, view, opts = {}) {
  el.innerHTML = "";
  el.classList.add("hl-table");
  const deck = typeof view.deck === "number" ? view.deck : view.deck.length;
  el.appendChild(h("p", { class: "hl-up", id: "hl-up" }, t("hl.table", { up: view.up, deck })));
  if (opts.why) el.appendChild(h("p", { class: "hl-why", id: "hl-why" }, opts.why));
  const decisions = opts.readonly ? [] : (opts.decisions || []);
  if (decisions.length && opts.decide) {
    el.appendChild(h("div", { class: "hl-actions", id: "action-bar" }, decisions.map((d) => h("button", {
      type: "button", class: "btn btn-primary", data: { decision: d.text }, onclick: () => opts.decide(d.text),
    }, d.text))));
  }
  el.appendChild(scores(view, opts, !!view.scores));
}

export function scores(view, opts = {}, final = false) {
  const box = h("section", { class: "hl-scores", id: final ? "result" : "hl-scores" });
  for (let s = 0; s < view.players; s++) {
    const won = (view.winners || []).includes(s);
    box.appendChild(h("p", { class: won ? "is-winner" : "", data: { seat: s } },
      t("hl.points", { who: nameOf(opts, s), n: view.points[s] }), won ? " ★" : ""));
  }
  return box;
}
