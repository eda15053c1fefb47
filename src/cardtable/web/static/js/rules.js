// The rules page of a game: /rules/abluxxen, /rules/kombio (English and German).
//
//   render(el, {game}) -> shows /games/{game}/rules.{lang}.json (the game's package's, games.js); re-renders on a language switch.
//
// Every clause is an <article id="AB-14"> with its id as a visible label and a link to its own
// anchor (/rules/abluxxen#AB-14). Interpretations of ambiguous passages are boxed and labelled
// ("Interpretation" / "Auslegung"): never colour alone. The English texts are copied verbatim
// from docs/rules.md (tests/web/test_replay_rules.py checks that they stay the same).
//
// Clause texts use a small Markdown subset: **bold**, *italic*, `code`, "- " and "1. " list
// items on their own lines (continued by indented lines), and a paragraph or parenthesis that
// starts with *Interpretation...* / *Auslegung...* marks an interpretation. Clause ids in the text
// (AB-11, KO-5.2, "AB-11..AB-14") become links to their anchors.
import { t, getLang, onLang } from "./i18n.js";
import { GAMES, GAME_IDS, CLAUSE_ALT } from "./games.js";

// clause ids of every game known (CLAUSE_ALT grows as games.js learns of games)
const clauseRE = () => new RegExp(`\\b(${CLAUSE_ALT})-(\\d+)(\\.\\d+)?\\b`, "g");
const INTERP_RE = /^\*(Interpretation|Auslegung)\b/;
const cache = new Map();

function node(tag, cls, text) {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text !== undefined) el.textContent = text;
  return el;
}

// -- inline markup --------------------------------------------------------------------------------
/** Plain text with clause ids turned into links. */
function textWithRefs(parent, text) {
  let last = 0;
  for (const m of text.matchAll(clauseRE())) {
    if (m.index > last) parent.appendChild(document.createTextNode(text.slice(last, m.index)));
    const id = `${m[1]}-${m[2]}`;
    const a = node("a", "rules-ref", m[0]);
    a.href = `#${id}`;
    parent.appendChild(a);
    last = m.index + m[0].length;
  }
  if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)));
}

/** **bold**, *italic*, `code` (no nesting except refs inside bold/italic). "DU-*" (all clauses
 * of a group) is text, not the start of an italic span. */
function inline(parent, text) {
  const re = new RegExp(`\\b((?:${CLAUSE_ALT})-\\*)|\\*\\*(.+?)\\*\\*|\`([^\`]+)\`|\\*(.+?)\\*`, "g");
  let last = 0;
  for (const m0 of text.matchAll(re)) {
    const m = [m0[0], m0[2], m0[3], m0[4]];
    m.index = m0.index;
    if (m.index > last) textWithRefs(parent, text.slice(last, m.index));
    if (m0[1] !== undefined) parent.appendChild(document.createTextNode(m0[1]));
    else if (m[1] !== undefined) textWithRefs(parent.appendChild(node("strong")), m[1]);
    else if (m[2] !== undefined) parent.appendChild(node("code", null, m[2]));
    else textWithRefs(parent.appendChild(node("em")), m[3]);
    last = m.index + m[0].length;
  }
  if (last < text.length) textWithRefs(parent, text.slice(last));
  return parent;
}

/** A paragraph's text; a "(*Interpretation:* ...)" inside it becomes a labelled inline box. */
function inlineWithInterp(parent, text) {
  const re = /\((\*(?:Interpretation|Auslegung)[^*]*\*)([^()]*(?:\([^()]*\)[^()]*)*)\)/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) inline(parent, text.slice(last, m.index));
    parent.appendChild(document.createTextNode("("));
    const span = node("span", "rules-interp-inline");
    span.appendChild(interpTag(m[1]));
    inline(span, m[2]);
    parent.appendChild(span);
    parent.appendChild(document.createTextNode(")"));
    last = m.index + m[0].length;
  }
  if (last < text.length) inline(parent, text.slice(last));
  return parent;
}

/** The visible label of an interpretation: the word itself (e.g. "Interpretation (timing):"). */
function interpTag(md) {
  const label = md.replace(/^\*|\*$/g, "");
  const tag = node("span", "rules-interp-tag");
  const icon = node("span", "rules-interp-icon", "i");
  icon.setAttribute("aria-hidden", "true");
  tag.append(icon, document.createTextNode(" " + label));
  return tag;
}

// -- blocks ---------------------------------------------------------------------------------------
/** Splits a clause's Markdown into blocks: {p}, {interp}, {ul: [..]}, {ol: [..]}. */
export function blocks(md) {
  const out = [];
  let cur = null;
  for (const line of md.split("\n")) {
    const item = line.match(/^(- |(\d+)\. )(.*)$/);
    if (item) {
      const kind = item[2] ? "ol" : "ul";
      if (!cur || cur.kind !== kind) {
        cur = { kind, items: [] };
        out.push(cur);
      }
      cur.items.push(item[3]);
    } else if (/^\s/.test(line) && cur && (cur.kind === "ul" || cur.kind === "ol")) {
      cur.items[cur.items.length - 1] += " " + line.trim();
    } else if (INTERP_RE.test(line.trim())) {
      cur = { kind: "interp", text: line.trim() };
      out.push(cur);
    } else if (cur && (cur.kind === "p" || cur.kind === "interp")) {
      cur.text += " " + line.trim();
    } else {
      cur = { kind: "p", text: line.trim() };
      out.push(cur);
    }
  }
  return out;
}

function renderBlocks(parent, md) {
  for (const b of blocks(md)) {
    if (b.kind === "p") {
      parent.appendChild(inlineWithInterp(node("p"), b.text));
    } else if (b.kind === "interp") {
      const box = node("div", "rules-interp");
      box.setAttribute("role", "note");
      const m = b.text.match(/^(\*(?:Interpretation|Auslegung)[^*]*\*)\s*(.*)$/);
      const p = node("p");
      p.appendChild(interpTag(m[1]));
      p.appendChild(document.createTextNode(" "));
      inline(p, m[2]);
      box.appendChild(p);
      box.setAttribute("aria-label", t("rules.interp"));
      parent.appendChild(box);
    } else {
      const list = node(b.kind);
      for (const it of b.items) list.appendChild(inlineWithInterp(node("li"), it));
      parent.appendChild(list);
    }
  }
}

function clauseEl(c, game) {
  const art = node("article", "rules-clause");
  art.id = c.id;
  art.dataset.clause = c.id;
  const head = node("h4", "rules-clause-head");
  const a = node("a", "rules-clause-id", c.id);
  a.href = `/rules/${game}#${c.id}`;
  a.setAttribute("aria-label", t("rules.clause_link", { id: c.id }));
  a.title = t("rules.clause_link", { id: c.id });
  a.addEventListener("click", (ev) => {
    ev.preventDefault();
    history.replaceState(null, "", `#${c.id}`);
    focusClause(c.id);
  });
  head.appendChild(a);
  if (c.name) head.appendChild(node("span", "rules-clause-name", c.name));
  art.appendChild(head);
  const body = node("div", "rules-clause-body");
  const md = String(c.md || "");        // a clause without text: an empty body
  renderBlocks(body, md);
  const whole = blocks(md);
  if (whole.length && whole[0].kind === "interp") art.classList.add("is-interpretation");
  if (/\*(Interpretation|Auslegung)/.test(md)) art.dataset.interp = "1";
  art.appendChild(body);
  art.setAttribute("aria-labelledby", `${c.id}-h`);
  head.id = `${c.id}-h`;
  return art;
}

function focusClause(id) {
  const target = document.getElementById(id);
  if (!target) return;
  document.querySelectorAll(".rules-clause.is-target").forEach((e) => e.classList.remove("is-target"));
  target.classList.add("is-target");
  target.setAttribute("tabindex", "-1");
  target.scrollIntoView({ block: "start" });
  target.focus({ preventScroll: true });
}

// -- the page -------------------------------------------------------------------------------------
async function load(game, lang) {
  const key = `${game}.${lang}`;
  if (!cache.has(key)) {
    const base = (GAMES[game] && GAMES[game].rules) || `/games/${game}/rules`;   // games.js
    cache.set(key, fetch(`${base}.${lang}.json`).then((r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      return r.json();
    }).catch((e) => { cache.delete(key); throw e; }));
  }
  return cache.get(key);
}

/** The rules page of `game` from its data (rules.<lang>.json): the header, the table of
 * contents, then the lead, the key point, the table, the glossary, the sections of clauses and
 * the notes on the page. A part left out or empty is not drawn (the format:
 * docs/adding-a-game.md, "The rules page"). */
function page(data, game) {
  const root = node("div", "rules-page");
  root.lang = data.lang;
  root.appendChild(header(data, game));
  root.setAttribute("aria-labelledby", "rules-title");
  const sections = Array.isArray(data.sections) ? data.sections.filter((x) => x && x.id) : [];
  root.appendChild(toc(data, sections));
  const main = node("div", "rules-body");
  // the game in a few words for players; the notes on this page (clause ids, interpretations,
  // how the clauses count seats) come at the end
  main.append(...[lead(data), callout(data), rulesTable(data), glossary(data)].filter(Boolean));
  for (const s of sections) main.appendChild(section(s, game));
  main.appendChild(intro(data));
  root.appendChild(main);
  return root;
}

/** The title, the subtitle and a link to every other game's rules. */
function header(data, game) {
  const el = node("header", "rules-header");
  const h1 = node("h1", null, data.title);
  h1.id = "rules-title";
  h1.tabIndex = -1;
  el.appendChild(h1);
  if (data.subtitle) el.appendChild(node("p", "rules-subtitle", data.subtitle));
  for (const other of GAME_IDS.filter((g) => g !== game)) {      // every other game's rules
    const switcher = node("a", "rules-other", t("rules.other", { game: GAMES[other].title }));
    switcher.href = `/rules/${other}`;
    el.appendChild(switcher);
  }
  return el;
}

/** One entry of the table of contents: a link, and the links to its clauses (`ids`). */
function tocItem(href, label, ids) {
  const li = node("li");
  const a = node("a", null, label);
  a.href = href;
  li.appendChild(a);
  if (ids) {
    const sub = node("ul", "rules-toc-ids");
    sub.setAttribute("aria-label", t("rules.clauses", { n: ids.length }));
    for (const id of ids) {
      const sli = node("li");
      const sa = node("a", null, id);
      sa.href = `#${id}`;
      sli.appendChild(sa);
      sub.appendChild(sli);
    }
    li.appendChild(sub);
  }
  return li;
}

/** The table of contents: the glossary, each section with its clauses, the notes. */
function toc(data, sections) {
  const nav = node("nav", "rules-toc");
  nav.setAttribute("aria-label", t("rules.toc"));
  nav.appendChild(node("h2", null, t("rules.toc")));
  const ol = node("ol");
  if (Array.isArray(data.glossary) && data.glossary.length) ol.appendChild(tocItem("#rules-glossary", t("rules.glossary")));
  for (const s of sections) ol.appendChild(tocItem(`#sec-${s.id}`, s.title || s.id, (s.clauses || []).map((c) => c.id)));
  ol.appendChild(tocItem("#rules-intro", t("rules.intro")));
  nav.appendChild(ol);
  nav.id = "rules-toc";
  return nav;
}

/** The game in a few words (null: none). */
function lead(data) {
  if (!Array.isArray(data.lead) || !data.lead.length) return null;
  const el = node("section", "rules-lead");
  el.id = "rules-lead";
  for (const p of data.lead) el.appendChild(inline(node("p"), p));
  return el;
}

/** The notes on this page (clause ids, interpretations, how the clauses count seats). */
function intro(data) {
  const el = node("section", "rules-intro");
  el.id = "rules-intro";
  el.appendChild(node("h2", null, t("rules.intro")));
  for (const p of data.intro || []) el.appendChild(inline(node("p"), p));
  const note = node("p", "rules-interp-note");
  note.appendChild(interpTag(`*${t("rules.interp")}*`));
  note.appendChild(document.createTextNode(" " + t("rules.interp_note")));
  el.appendChild(note);
  return el;
}

/** The key point, boxed (null: none). */
function callout(data) {
  if (!data.callout || !data.callout.md) return null;
  const box = node("aside", "rules-callout");
  box.setAttribute("aria-labelledby", "rules-callout-title");
  const h = node("h2", null);
  h.id = "rules-callout-title";
  const icon = node("span", "rules-callout-icon", "!");
  icon.setAttribute("aria-hidden", "true");
  h.append(icon, document.createTextNode(" " + t("rules.key_point") + ": " + data.callout.title));
  box.appendChild(h);
  box.appendChild(inline(node("p"), data.callout.md));
  return box;
}

/** The game's table (a region of its own that scrolls on a phone; null: none). */
function rulesTable(data) {
  if (!data.table || !Array.isArray(data.table.head) || !Array.isArray(data.table.rows)) return null;
  const wrap = node("div", "rules-table-wrap");
  wrap.setAttribute("role", "region");
  wrap.setAttribute("aria-label", data.table.title);
  wrap.tabIndex = 0;
  const table = node("table", "rules-table");
  table.appendChild(node("caption", null, data.table.title));
  const thead = node("thead");
  const tr = node("tr");
  for (const hd of data.table.head) {
    const th = node("th", null, hd);
    th.scope = "col";
    tr.appendChild(th);
  }
  thead.appendChild(tr);
  table.appendChild(thead);
  const tbody = node("tbody");
  for (const row of data.table.rows) {
    const r = node("tr");
    row.forEach((cell, i) => {
      const c = node(i === 0 ? "th" : "td");
      if (i === 0) c.scope = "row";
      textWithRefs(c, cell);
      r.appendChild(c);
    });
    tbody.appendChild(r);
  }
  table.appendChild(tbody);
  wrap.appendChild(table);
  return wrap;
}

/** The glossary: each term (and its German word) and its meaning (null: none). */
function glossary(data) {
  if (!Array.isArray(data.glossary) || !data.glossary.length) return null;
  const g = node("section", "rules-glossary");
  g.id = "rules-glossary";
  g.appendChild(node("h2", null, t("rules.glossary")));
  const dl = node("dl");
  for (const item of data.glossary.filter((x) => x && x.term)) {
    const dt = node("dt", null, item.term);
    if (item.de) dt.appendChild(node("span", "rules-term-de", ` (${item.de})`));
    dl.appendChild(dt);
    dl.appendChild(inline(node("dd"), item.md));
  }
  g.appendChild(dl);
  return g;
}

/** A section: its title, its introduction, its clauses and a link back to the top. */
function section(s, game) {
  const sec = node("section", "rules-section");
  sec.id = `sec-${s.id}`;
  const h2 = node("h2", null, s.title || s.id);
  h2.id = `sec-${s.id}-h`;
  sec.setAttribute("aria-labelledby", h2.id);
  sec.appendChild(h2);
  if (s.intro) sec.appendChild(inline(node("p", "rules-section-intro"), s.intro));
  for (const c of s.clauses || []) if (c && c.id) sec.appendChild(clauseEl(c, game));
  const top = node("a", "rules-top", "↑ " + t("rules.back_top"));
  top.href = "#rules-toc";
  sec.appendChild(top);
  return sec;
}

export function render(el, { game } = {}) {
  const g = String(game || "").toLowerCase();
  let alive = true;
  let token = 0;

  async function draw() {
    const mine = ++token;
    if (!GAMES[g]) {
      el.replaceChildren(node("p", "rules-error", t("rules.unknown", { game: String(game) })));
      el.querySelector(".rules-error").setAttribute("role", "alert");
      return;
    }
    document.title = `${t("nav.rules")} · ${GAMES[g].title} · cardtable`;
    if (!el.querySelector(".rules-page")) {
      const p = node("p", "rules-loading", t("rules.loading"));
      p.setAttribute("role", "status");
      el.replaceChildren(p);
    }
    let data;
    try {
      data = await load(g, getLang());
    } catch (e) {
      if (mine !== token || !alive) return;
      const p = node("p", "rules-error", t("rules.error", { msg: e.message }));
      p.setAttribute("role", "alert");
      el.replaceChildren(p);
      return;
    }
    if (mine !== token || !alive) return;
    const y = window.scrollY;
    const fresh = !el.querySelector(".rules-page");
    el.replaceChildren(page(data, g));
    const hash = decodeURIComponent(location.hash.slice(1));
    if (fresh && hash && document.getElementById(hash)) focusClause(hash);
    else if (!fresh) window.scrollTo(0, y);
  }

  const off = onLang(() => { if (alive && el.isConnected) draw(); else stop(); });
  const onHash = () => {
    const id = decodeURIComponent(location.hash.slice(1));
    if (id && document.getElementById(id)?.classList.contains("rules-clause")) focusClause(id);
  };
  window.addEventListener("hashchange", onHash);
  function stop() {
    alive = false;
    off();
    window.removeEventListener("hashchange", onHash);
  }
  draw();
  return { destroy: stop };
}
