"""Abluxxen in words: the "why" line of a decision, one line per event, the end of a game and
its tie-break, and the cards written as the notation writes them, for every front end (the
terminal, the game server's log, the replay viewer).

Everything here reads only views (`AbluxxenState.view(seat)`, NOTATION.md "The state as
JSON"), so what a line says can never go beyond what its viewer may see.
"""

from __future__ import annotations

from collections import Counter

from cardtable.i18n import join, t
from cardtable.narration import plain_names, you_key

JOKER = "X"


# -- formatting helpers ---------------------------------------------------------------------------
def card(c) -> str:
    return JOKER if c == JOKER else str(c)


def _sorted(cards) -> list:
    return sorted(cards, key=lambda c: 14 if c == JOKER else c)


def fmt_set(cards) -> str:
    """A played set in words: '2×12', '3×12 (12 12 X)', '2×X', a single card as itself."""
    cards = _sorted(cards)
    if len(cards) == 1:
        return card(cards[0])
    nums = [c for c in cards if c != JOKER]
    if not nums:
        return f"{len(cards)}×X"
    if len(nums) == len(cards):
        return f"{len(cards)}×{nums[0]}"
    return f"{len(cards)}×{nums[0]} ({' '.join(card(c) for c in cards)})"


def fmt_item(item) -> str:
    """A pool item as in the notation: '8', or a duel group bottom first: '3+13+X'."""
    return "+".join(card(c) for c in item)


def fmt_stack(stack) -> str:
    """A shadow stack: count × number."""
    return f"{len(stack)}×{stack[0]}"


def set_value(cards) -> int:
    nums = [c for c in cards if c != JOKER]
    return nums[0] if nums else 14



def hand_count(view, s: int) -> int:
    counts = view.get("hand_counts")
    if counts is not None:
        return counts[s]
    h = view["hands"][s]
    return h if isinstance(h, int) else len(h)



def _whose(cards, victim, viewer, names, lang) -> str:
    if viewer is not None and victim == viewer:
        return t(lang, "ab.whose.you", set=fmt_set(cards))
    return t(lang, "ab.whose", name=names[victim], set=fmt_set(cards))


def _top(view, s):
    d = view["displays"][s]
    return d[-1] if d else []


def why(view, seat, names, lang) -> str:
    """Whose decision it is and why, in words, for the viewer `seat`."""
    if view.get("over") or view.get("to_move") is None:
        return t(lang, "ab.why.over")
    tm = view["to_move"]
    aw = view["awaiting"]
    me = seat is not None and tm == seat
    name = names[tm]
    active = view["active"]
    played = _top(view, active)
    pending = view.get("pending")
    if aw == "play":
        return t(lang, "ab.why.play.you") if me else t(lang, "ab.why.play", name=name)
    if aw == "shadow":
        if me:
            return t(lang, "ab.why.shadow.you", set=fmt_set(played), size=len(played),
                     value=set_value(played))
        return t(lang, "ab.why.shadow", name=name, set=fmt_set(played))
    if aw == "take" and pending:
        victim = pending["victim"]
        kw = dict(name=name, victim=names[victim], set=fmt_set(played),
                  vset=fmt_set(pending["cards"]), n=len(pending["cards"]))
        if me:
            return t(lang, "ab.why.take.you", **kw)
        if seat is not None and victim == seat:
            return t(lang, "ab.why.take.victim", **kw)
        return t(lang, "ab.why.take", **kw)
    if aw == "keep" and pending:
        kw = dict(name=names[active], victim=names[tm], vset=fmt_set(pending["cards"]),
                  n=len(pending["cards"]))
        return t(lang, "ab.why.keep.you" if me else "ab.why.keep", **kw)
    if aw == "draw":
        owed = view.get("owed") or 1
        key = "ab.why.draw" + (".you" if me else "")
        text = t(lang, key, name=name, n=owed)
        if view["deck"] == 0:
            text += t(lang, "ab.why.deck_empty")
        return text
    if aw == "optional_draw":
        text = t(lang, "ab.why.optional.you") if me else t(lang, "ab.why.optional", name=name)
        if view["deck"] == 0:
            text += t(lang, "ab.why.deck_empty")
        return text
    return t(lang, "ab.why.play", name=name)


def cards_text(cards, lang) -> str:
    """Cards as the browser words them (cards.js `cardsText`): in the given order, a joker by
    its name: '2 Joker'."""
    return " ".join(t(lang, "card.joker") if c == JOKER else str(c) for c in cards)


def web_why(view, seat, names, lang, window=None, legal_any=False) -> str:
    """Whose decision it is and why, in the browser's words (the table and the replay show
    the cards, so the line names fewer of them than `why`), for the viewer `seat`; `window`
    and `legal_any` are for games with simultaneous decisions (Abluxxen has none)."""
    aw = view.get("awaiting")
    names = plain_names(names, view["players"], lang)
    if view.get("over") or view.get("to_move") is None or aw == "draw":
        return why(view, seat, names, lang)           # the same words as the terminal's
    tm = view["to_move"]
    me = seat is not None and tm == seat
    name = names[tm]
    p = view.get("pending")
    if aw == "play":
        return t(lang, "web.ab.why.play.you") if me else t(lang, "ab.why.play", name=name)
    if aw == "shadow":
        return t(lang, "web.ab.why.shadow.you") if me else t(lang, "web.ab.why.shadow",
                                                               name=name)
    if aw in ("take", "keep") and p:
        vset, n = cards_text(p["cards"], lang), len(p["cards"])
        victim = names[p["victim"]]
        if aw == "keep":
            return (t(lang, "web.ab.why.keep.you", vset=vset, n=n) if me
                    else t(lang, "web.ab.why.keep", victim=victim, vset=vset, n=n))
        if me:
            return t(lang, "web.ab.why.take.you", victim=victim, vset=vset, n=n)
        if seat is not None and p["victim"] == seat:
            return t(lang, "web.ab.why.take.victim", name=name, vset=vset)
        return t(lang, "web.ab.why.take", name=name, victim=victim, vset=vset)
    if aw == "optional_draw":
        return t(lang, "ab.why.optional.you") if me else t(lang, "web.ab.why.optional",
                                                             name=name)
    return ""


def describe(before, decision, after, actor, viewer, names, lang) -> str:
    """One log line for `decision` of `actor`, from the viewer's views before and after it."""
    words = decision.split()
    kind = words[0] if words else ""
    name = names[actor]
    if kind == "play":
        cards = [JOKER if w.upper() == JOKER else int(w) for w in words[1:]]
        line = t(lang, you_key("ab.log.play", actor, viewer), name=name, set=fmt_set(cards))
        if hand_count(after, actor) == 0:
            line += t(lang, you_key("ab.log.hand_empty", actor, viewer))
        return line
    if kind == "shadow":                    # DU-4: as many cards as the set has, maybe part
        v = int(words[1])
        stack = next((st for st in before.get("shadow") or [] if st and st[0] == v), [v])
        taken = min(len(_top(before, actor)), len(stack))
        line = t(lang, you_key("ab.log.shadow", actor, viewer), name=name,
                 set=fmt_stack([v] * taken))
        if len(stack) > taken:
            rest = len(stack) - taken
            line += t(lang, "ab.log.shadow_rest", rest=fmt_stack([v] * rest), n=rest)
        return line
    pending = before.get("pending")
    if kind in ("take", "leave") and pending:
        victim = pending["victim"]
        return t(lang, you_key(f"ab.log.{kind}", actor, viewer), name=name,
                 whose=_whose(pending["cards"], victim, viewer, names, lang),
                 victim=t(lang, "ab.to_you") if victim == viewer else names[victim],
                 n=len(pending["cards"]))
    if kind in ("keep", "discard") and pending:
        return t(lang, you_key(f"ab.log.{kind}", actor, viewer), name=name,
                 set=fmt_set(pending["cards"]), n=len(pending["cards"]))
    if kind == "draw" and len(words) == 3 and words[1] == "pool":
        return t(lang, you_key("ab.log.draw_pool", actor, viewer), name=name, item=words[2])
    if kind == "draw":
        hb, ha = before["hands"][actor], after["hands"][actor]
        if (viewer is None or viewer == actor) and isinstance(hb, list) and isinstance(ha, list):
            new = Counter(ha) - Counter(hb)
            if sum(new.values()) == 1:
                c = next(iter(new))
                return t(lang, you_key("ab.log.draw_deck_seen", actor, viewer), name=name,
                         card=card(c))
        return t(lang, you_key("ab.log.draw_deck", actor, viewer), name=name)
    if kind == "pass":
        return t(lang, you_key("ab.log.pass", actor, viewer), name=name)
    return t(lang, "ab.log.other", name=name, decision=decision)


def web_option(view, decision, seat, names, lang) -> str:
    """A decision `seat` may take at its own `view` in the log's words (`describe`), without
    its outcome (the card a draw from the deck would bring is not told)."""
    return describe(view, decision, view, seat, seat, names, lang)


def end_reason(view) -> tuple[str, int | None]:
    """('hand', seat) for AB-7 / CL-3 (a hand emptied), ('supply', None) for AB-14 / CL-3."""
    n = view["players"]
    if view.get("ended_by") == "supply":
        return "supply", None
    empty = [s for s in range(n) if hand_count(view, s) == 0]
    if empty:
        return "hand", empty[0]
    return "supply", None


def tie_break(view) -> str | None:
    """None (one top score), 'fewer_hand' (AB-18), 'still' (AB-18, still tied) or 'shared'
    (CL-4: ties not broken)."""
    scores, winners = view.get("scores"), view.get("winners")
    if not scores or winners is None:
        return None
    best = max(scores)
    tied = [s for s in range(len(scores)) if scores[s] == best]
    if len(tied) == 1:
        return None
    if len(winners) < len(tied):
        return "fewer_hand"
    counts = {hand_count(view, s) for s in tied}
    if len(counts) > 1 or view.get("variant") == "classic":
        return "shared"
    return "still"


def web_line(before, decision, after, actor, viewer, names, lang, every_step: bool = False
             ) -> str:
    """One decision in the game server's words (server/tables/views.py `describe`): the terminal's
    line; every decision has its own line, in the replay viewer (`every_step`) too."""
    return describe(before, decision, after, actor, viewer, names, lang)
