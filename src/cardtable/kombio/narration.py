"""Kombio in words: the "why" line of a decision, one line per event, the end of a round and
the tie-break, for every front end (the terminal, the game server's log, the replay viewer).

Everything here reads only views (`KombioState.view(seat)`, NOTATION.md "The state as JSON"),
so what a line says never goes beyond what its viewer may see: a card a seat has not seen is
`"?"` in its view. Cards on the table are named `P.S` (seat P, slot S), as in the notation
(KO-2, KO-3); `web=True` names them as the browser shows them ("your card 3").
"""

from __future__ import annotations

from cardtable.i18n import join, t
from cardtable.narration import plain_names, you_key

# -- small helpers --------------------------------------------------------------------------------
def is_known(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def secs_text(x: float) -> str:
    return f"{x:g}"


#: English says "an" before these values' names (eight, eleven, eighteen)
_AN = (8, 11, 18)


def _acard(lang: str, v) -> str:
    """'a 7', 'an 8', 'an 11' (German: 'eine 7')."""
    return t(lang, "ko.an" if v in _AN else "ko.a", card=v)


def _notcard(lang: str, v) -> str:
    """'not a 7', 'not an 8' (German: 'keine 7', never 'nicht eine 7')."""
    return t(lang, "ko.not_an" if v in _AN else "ko.not_a", card=v)


def cards_text(n: int, lang: str) -> str:
    return t(lang, "ko.cards", n=n)



def parse_pos(text: str) -> tuple[int, int]:
    p, s = text.split(".")
    return int(p), int(s)


def _grid_value(view, p: int, s: int):
    grids = view["grids"]
    if 0 <= p < len(grids) and 1 <= s <= len(grids[p]):
        return grids[p][s - 1]
    return None



def card_words(p: int, s: int, actor, viewer, names, lang, web: bool = False) -> str:
    """A card in words: 'your 0.3', 'their own 1.2', "Caro's 2.1" (the notation the terminal
    types); `web`: as the browser shows the grids, 'your card 3', "Caro's card 1"."""
    pos = t(lang, "ko.slot_word", s=s) if web else f"{p}.{s}"
    if viewer is not None and p == viewer:
        return t(lang, "ko.card.yours", pos=pos)
    if p == actor:
        return t(lang, "ko.card.own", pos=pos)
    return t(lang, "ko.card.of", pos=pos, name=names[p])


def _slot(p: int, s: int, viewer, names, lang, web: bool) -> str:
    """A slot as a place: '1.2' (notation), or 'your slot 2', "Caro's slot 2" (`web`)."""
    if not web:
        return f"{p}.{s}"
    if viewer is not None and p == viewer:
        return t(lang, "ko.slot.yours", s=s)
    return t(lang, "ko.slot.of", s=s, name=names[p])


def _obj(seat, viewer, names, lang) -> str:
    """A seat as an object ('to you' / 'an dich', else the name)."""
    if viewer is not None and seat == viewer:
        return t(lang, "ko.you_obj")
    return names[seat]


def action_what(act: int, lang: str, short: bool = False) -> str:
    key = ("peek_own" if act <= 8 else "peek_other" if act <= 10 else "swap" if act <= 12
           else str(act))
    return t(lang, ("ko.act.short." if short else "ko.act.") + key)


def action_how(act: int) -> str:
    return ("peek P.S" if act <= 10 or act == 13 else "swap P.S P.S" if act <= 12
            else "peek P.S P.S")


# -- why ------------------------------------------------------------------------------------------
def why(view, seat, names, lang) -> str:
    """Whose decision it is and why, in words, for the viewer `seat`."""
    if view.get("over") or view.get("to_move") is None:
        return t(lang, "ko.why.over")
    tm, aw = view["to_move"], view["awaiting"]
    me = seat is not None and tm == seat
    name = names[tm]
    top = view.get("top")
    if aw == "turn":
        if not me:
            return t(lang, "ko.why.turn", name=name)
        legal = view.get("legal") or []
        options = []
        if "draw" in legal:
            options.append(t(lang, "ko.opt_draw"))
        if any(d.startswith("take ") for d in legal):
            options.append(t(lang, "ko.opt_take", top=top))
        if "kombio" in legal:
            options.append(t(lang, "ko.opt_kombio"))
        text = ", ".join(options[:-1]) + t(lang, "ko.or") + options[-1] if len(options) > 1 \
            else "".join(options)
        return t(lang, "ko.why.turn.you", options=text)
    if aw == "drawn":
        drawn = view.get("drawn")
        if me and drawn is not None:
            action = (t(lang, "ko.why.drawn.action", what=action_what(drawn, lang))
                      if drawn >= 7 else "")
            return t(lang, "ko.why.drawn.you", acard=_acard(lang, drawn), action=action)
        return t(lang, "ko.why.drawn", name=name)
    if aw == "action":
        act = view.get("action") or top
        if me:
            return t(lang, "ko.why.action.you", act=act, what=action_what(act, lang),
                     how=action_how(act))
        return t(lang, "ko.why.action", name=name, act=act, what=action_what(act, lang, True))
    if aw == "action_swap":
        peeked = [parse_pos(x) for x in view.get("peeked") or []]
        cards = [card_words(p, s, tm, seat, names, lang) for p, s in peeked]
        if me and len(cards) == 1:
            return t(lang, "ko.why.swap13.you", card=cards[0])
        if me and len(cards) == 2:
            return t(lang, "ko.why.swap14.you", c1=cards[0], c2=cards[1])
        return t(lang, "ko.why.swap", name=name, cards=join(cards, lang))
    if aw == "snap":
        if me:
            return t(lang, "ko.why.snap.you", top=top, atop=_acard(lang, top))
        w = view.get("window") or {"answered": 0, "order": []}
        return t(lang, "ko.why.snap", top=top, name=name, k=w["answered"], n=len(w["order"]))
    snap = view.get("snap") or {}
    if aw == "give" and snap:
        p, s = parse_pos(snap["card"])
        card = card_words(p, s, tm, seat, names, lang)
        if me:
            return t(lang, "ko.why.give.you", card=card, pos=snap["card"])
        return t(lang, "ko.why.give", name=name, card=card, pos=snap["card"])
    if aw == "hand_over" and snap:
        w = snap["seat"]
        p, s = parse_pos(snap["card"])
        kw = dict(snapper=names[w], snapper_obj=_obj(w, seat, names, lang), name=name,
                  pos=snap["card"], card=card_words(p, s, w, seat, names, lang),
                  avalue=_acard(lang, snap["value"]), notop=_notcard(lang, top))
        return t(lang, "ko.why.hand_over.you" if me else "ko.why.hand_over", **kw)
    return t(lang, "ko.why.turn", name=name)


def web_why(view, seat, names, lang, window=None, legal_any=False) -> str:
    """Whose decision it is and why, in the browser's words (no notation: the page's buttons
    and cards say how), for the viewer `seat`. In a snap window `window` is the state
    message's part for this viewer (`eligible`, `answered`) and `legal_any` tells that it may
    answer now; the replay has neither (everybody else decides)."""
    if view.get("over"):
        return t(lang, "ko.why.over")
    tm, aw, top = view.get("to_move"), view.get("awaiting"), view.get("top")
    me = seat is not None and tm == seat
    name = plain_names(names, view["players"], lang)[tm] if tm is not None else ""
    if aw == "turn":
        return t(lang, "web.ko.why.turn.you") if me else t(lang, "ko.why.turn", name=name)
    if aw == "drawn":
        if not me:
            return t(lang, "ko.why.drawn", name=name)
        drawn = view.get("drawn")
        text = t(lang, "web.ko.why.drawn.you", card=drawn)
        if drawn >= 7:
            text += t(lang, "web.ko.why.drawn.action", what=action_what(drawn, lang))
        return text
    if aw == "action":
        act = view.get("action")
        what = action_what(act, lang)
        return (t(lang, "web.ko.why.action.you", card=act, what=what) if me
                else t(lang, "web.ko.why.action", name=name, card=act, what=what))
    if aw == "action_swap":
        if not me:
            return t(lang, "web.ko.why.swap", name=name)
        return t(lang, "web.ko.why.swap14.you" if view.get("action") == 14
                 else "web.ko.why.swap13.you")
    if aw == "snap":
        if window and window.get("eligible") and not window.get("answered") and legal_any:
            return t(lang, "web.ko.why.snap.you", top=top)
        if window and window.get("answered"):
            return t(lang, "ko.why.snap.done", top=top)
        return t(lang, "web.ko.why.snap", top=top)
    if aw == "give":
        return t(lang, "web.ko.why.give.you") if me else t(lang, "web.ko.why.give", name=name)
    if aw == "hand_over":
        if not me:
            return t(lang, "web.ko.why.hand_over", name=name)
        snap = view.get("snap")
        return t(lang, "web.ko.why.hand_over.you", pos=snap["card"].split(".")[1] if snap else "")
    return ""


# -- log lines ------------------------------------------------------------------------------------
def describe(before, decision, after, actor, viewer, names, lang, web: bool = False,
             round_words: bool = True) -> str:
    """One log line (or a few, at a window's close and a round's end) for `decision` of
    `actor`, from the viewer's views before and after it. Another seat's answer in an open
    snap window is hidden until the window closes (KO-10): then the line is empty.

    `web` (the game server's words): positions as the browser shows them ("your card 3"), and
    no line for a seat's own pass or snap in a window: the server closes a window in one go,
    and the line of its result (who snapped what, right or wrong, or nobody) follows at once.
    `round_words` false (the terminal, whose `interlude` explains a round's end under its
    revealed grids): no round-end lines."""
    words = decision.split()
    kind, args = (words[0], words[1:]) if words else ("", [])
    you = viewer is not None and actor == viewer
    full = viewer is None
    name = names[actor]
    ended = after["round"] != before["round"] or (after["over"] and not before["over"])
    mem = bool(after.get("memory"))

    def cw(p, s):
        return card_words(p, s, actor, viewer, names, lang, web)

    lines: list[str] = []
    if kind == "draw":
        drawn = after.get("drawn")
        if drawn is not None and (you or full):
            lines.append(t(lang, "ko.log.draw.you" if you else "ko.log.draw.seen", name=name,
                           acard=_acard(lang, drawn)))
        else:
            lines.append(t(lang, "ko.log.draw", name=name))
    elif kind == "replace":
        pos = args[0] if web else f"{actor}.{args[0]}"
        card = before.get("drawn")
        key = ("ko.log.replace.you" if you else "ko.log.replace.seen" if card is not None
               else "ko.log.replace")
        lines.append(t(lang, key, name=name, card=card, pos=pos, old=after["top"]))
    elif kind == "discard":
        card = after["top"]
        line = t(lang, you_key("ko.log.discard", actor, viewer), name=name, card=card,
                 acard=_acard(lang, card))
        if after.get("awaiting") == "action":
            line += t(lang, "ko.log.action", what=action_what(card, lang, True))
        lines.append(line)
    elif kind == "take":
        lines.append(t(lang, you_key("ko.log.take", actor, viewer), name=name, card=before["top"],
                       pos=args[0] if web else f"{actor}.{args[0]}", old=after["top"]))
    elif kind == "kombio":
        line = t(lang, you_key("ko.log.kombio", actor, viewer), name=name)
        if after["players"] > 2:
            line += t(lang, you_key("ko.log.taboo", actor, viewer), name=name)
        lines.append(line)
    elif kind == "peek":
        cards = [parse_pos(a) for a in args]
        vals = [_grid_value(after, p, s) for p, s in cards] if not ended else [None] * len(cards)
        shown = (you or full) and all(is_known(v) for v in vals)
        suffix = ("you_memory" if you and mem else "you" if you else "seen") if shown else ""
        if len(cards) == 1:
            key = "ko.log.peek" + ("." + suffix if suffix else "")
            lines.append(t(lang, key, name=name, card=cw(*cards[0]),
                           avalue=_acard(lang, vals[0])))
        else:
            key = "ko.log.peek2" + ("." + suffix if suffix else "")
            lines.append(t(lang, key, name=name, c1=cw(*cards[0]), c2=cw(*cards[1]),
                           v1=_acard(lang, vals[0]), v2=_acard(lang, vals[1])))
    elif kind == "swap":
        if len(args) == 2:
            pair = [parse_pos(a) for a in args]
        else:
            pair = [parse_pos(x) for x in before.get("peeked") or []] + [parse_pos(a) for a in args]
        if len(pair) == 2:
            lines.append(t(lang, you_key("ko.log.swap", actor, viewer), name=name,
                           c1=cw(*pair[0]), c2=cw(*pair[1])))
        else:
            lines.append(t(lang, you_key("ko.log.swap", actor, viewer), name=name, c1="?",
                           c2="?"))
    elif kind == "keep":
        lines.append(t(lang, you_key("ko.log.keep", actor, viewer), name=name))
    elif kind == "skip":
        lines.append(t(lang, you_key("ko.log.skip", actor, viewer), name=name,
                       act=before.get("action") or before.get("top")))
    elif kind in ("pass", "snap"):
        if (you or full) and not web:                     # KO-10: others' answers are hidden
            if kind == "pass":
                lines.append(t(lang, you_key("ko.log.pass", actor, viewer), name=name))
            else:
                lines.append(t(lang, you_key("ko.log.snap", actor, viewer), name=name,
                               card=cw(*parse_pos(args[0]))))
        if ended or after.get("awaiting") != "snap":
            lines.extend(_window_closed(before, after, ended, viewer, names, lang, web))
    elif kind == "give":
        victim = (before.get("snap") or {}).get("card", "?")
        if web and victim != "?":
            lines.append(t(lang, you_key("ko.log.give_web", actor, viewer), name=name,
                           card=cw(actor, int(args[0])),
                           pos=_slot(*parse_pos(victim), viewer, names, lang, True)))
        else:
            lines.append(t(lang, you_key("ko.log.give", actor, viewer), name=name,
                           card=cw(actor, int(args[0])), pos=victim))
    elif kind in ("hand-over", "penalty"):
        snap = before.get("snap") or {}
        w = snap.get("seat", actor)
        into = ""
        if not ended and after["counts"][w] > before["counts"][w]:
            into = t(lang, "ko.log.into", pos=_slot(w, len(after["grids"][w]), viewer, names,
                                                    lang, web))
        card = cw(*parse_pos(snap["card"])) if snap else "?"
        key = "ko.log.hand_over" if kind == "hand-over" else "ko.log.penalty"
        line = t(lang, you_key(key, actor, viewer), name=name, card=card,
                 snapper_obj=_obj(w, viewer, names, lang), into=into)
        if kind == "penalty" and not into and not ended:
            line += t(lang, "ko.log.no_penalty")
        lines.append(line)
    else:
        lines.append(f"{name}: {decision}")
    if ended and round_words:
        lines.extend(round_end(before, after, viewer, names, lang))
    return "\n".join(line for line in lines if line)


def _window_closed(before, after, ended, viewer, names, lang, web=False) -> list[str]:
    """The result of a snap window, once it is closed (KO-8..KO-10)."""
    top = before.get("top")
    snap = None if ended else after.get("snap")
    if snap is None:
        if ended:
            return []
        return [t(lang, "ko.log.nobody", top=top)]
    w = snap["seat"]
    p, s = parse_pos(snap["card"])
    right = snap["right"]
    key = you_key("ko.log.right" if right else "ko.log.wrong", w, viewer)
    line = t(lang, key, name=names[w], card=card_words(p, s, w, viewer, names, lang, web),
             avalue=_acard(lang, snap["value"]), notop=_notcard(lang, top))
    others = [c["seat"] for c in snap.get("claims", []) if c["seat"] != w]
    if others:
        line += t(lang, you_key("ko.log.first", w, viewer), others=join([names[o] for o in others], lang),
                  name=names[w])
    if right and p == w:
        line += t(lang, "ko.log.right_own")
    elif right:
        line += t(lang, you_key("ko.log.right_other", w, viewer), name=names[w],
                  pos=_slot(p, s, viewer, names, lang, web) if web else snap["card"])
    elif p == w:
        if after["counts"][w] > before["counts"][w]:
            line += t(lang, you_key("ko.log.penalty_own", w, viewer), name=names[w],
                      pos=_slot(w, len(after["grids"][w]), viewer, names, lang, web))
        else:
            line += t(lang, "ko.log.no_penalty")
    else:
        key = "ko.log.wrong_other.you" if viewer is not None and p == viewer else \
            "ko.log.wrong_other"
        line += t(lang, key, owner=names[p], name_obj=_obj(w, viewer, names, lang))
    return [line]


def round_end(before, after, viewer, names, lang, brief: bool = False) -> list[str]:
    """The end of a round in words: why, sums and scores with the KO-15 rule, totals, and the
    next round's start (KO-4) or the end of the game (KO-16). `brief`: without each seat's
    cards and score rows (shown beside it, as in `revealed`)."""
    r = before["round"]
    rows = after["round_scores"]
    if len(rows) < r:
        return []
    scores = rows[r - 1]
    n = len(scores)
    last = after["last_round"]                  # KO-15: the finished round, as revealed
    caller, sums = last["caller"], last["sums"]
    case = None if caller is None else (
        "failed" if scores[caller] == sums[caller] + 15 else "alone")
    if caller is not None and (before.get("turns_left") or 0) <= 1:
        reason = t(lang, "ko.round.reason_call")
    else:
        reason = t(lang, "ko.round.reason_empty")
    lines = [t(lang, "ko.round.over", round=r, reason=reason)]
    for q in range(0 if brief else n):
        cards = " ".join(str(v) for v in last["grids"][q] if v is not None) or "—"
        lines.append(t(lang, you_key("ko.round.cards", q, viewer), name=names[q], cards=cards))
    for q in range(0 if brief else n):
        extra = scores[q] - sums[q]
        lines.append(t(lang, "ko.round.row", name=names[q], sum=sums[q],
                       extra=f" +{extra}" if extra else "", score=scores[q],
                       total=after["totals"][q]))
    if case is None:
        lines.append(t(lang, "ko.round.none"))
    elif case == "alone":
        line = t(lang, you_key("ko.round.alone", caller, viewer), name=names[caller],
                 sum=sums[caller])
        if any(scores[q] == 0 and q != caller for q in range(n)):
            line += t(lang, "ko.round.empty_zero")
        lines.append(line)
    else:
        low = min(sums[q] for q in range(n) if q != caller)
        lines.append(t(lang, you_key("ko.round.not_alone", caller, viewer), name=names[caller],
                       sum=sums[caller], low=low))
    totals = " · ".join(f"{names[q]} {after['totals'][q]}" for q in range(n))
    lines.append(t(lang, "ko.totals", list=totals, target=after["target"]))
    if after["over"]:
        seats = [q for q in range(n) if after["totals"][q] >= after["target"]]
        lines.append(t(lang, "ko.round.target", target=after["target"],
                       names=join([names[q] for q in seats], lang), n=len(seats),
                       you="alone" if viewer is not None and seats == [viewer] else "other"))
    else:
        st = after["round_start"]
        lines.append(t(lang, you_key("ko.round.next", st, viewer), round=after["round"],
                       name=names[st]))
    return lines


def tie_break(view) -> str | None:
    """None (one lowest total), 'last' (KO-16: the last round's score decided) or 'still'."""
    totals, winners = view.get("totals"), view.get("winners")
    if not totals or winners is None:
        return None
    best = min(totals)
    tied = [s for s in range(len(totals)) if totals[s] == best]
    if len(tied) == 1:
        return None
    return "last" if len(winners) < len(tied) else "still"


# -- the game server's words ----------------------------------------------------------------------
def web_line(before, decision, after, actor, viewer, names, lang, every_step: bool = False
             ) -> str:
    """One decision in the game server's words (server/tables/views.py `describe`): cards named as
    the browser shows them ("your card 3"), and a snap window's answers as one line with its
    result (`describe`'s `web`).

    `every_step` (the replay viewer, one line per decision): a snap-window answer that the
    table leaves to the window's result line gets a line of its own, the answer itself where
    the viewer may see it (their own answer; everything in the full view, viewer None) and
    else only that the seat answered (KO-10: hidden until the window closes)."""
    line = describe(before, decision, after, actor, viewer, names, lang, web=True)
    if every_step:
        line = _with_answer(line, before, decision, after, actor, viewer, names, lang)
    return line


def web_option(view, decision, seat, names, lang) -> str:
    """A decision `seat` may take at its own `view` in the table log's words (`web_line`),
    without what it would reveal: a card not yet seen stays unnamed (the card a draw brings,
    the one a replace or take throws off, the one a peek shows)."""
    words = decision.split()
    kind, args = (words[0], words[1:]) if words else ("", [])
    after = view
    if kind == "draw":
        return t(lang, "ko.choice.draw")
    if kind in ("replace", "take") and args:
        card = view.get("drawn") if kind == "replace" else view.get("top")
        old = _grid_value(view, seat, int(args[0]))
        if not is_known(old):
            return t(lang, "ko.choice." + kind, card=card, pos=args[0])
        after = dict(view, top=old)
    elif kind == "discard":
        after = dict(view, top=view.get("drawn"))
    elif kind == "peek":
        cards = [parse_pos(a) for a in args]
        if not all(is_known(_grid_value(view, p, s)) for p, s in cards):
            named = [card_words(p, s, seat, seat, names, lang, True) for p, s in cards]
            return (t(lang, "ko.choice.peek", card=named[0]) if len(named) == 1
                    else t(lang, "ko.choice.peek2", c1=named[0], c2=named[1]))
    elif kind in ("hand-over", "penalty"):
        snap = view.get("snap") or {}
        card = (card_words(*parse_pos(snap["card"]), seat, seat, names, lang, True) if snap
                else "?")
        key = "ko.log.hand_over.you" if kind == "hand-over" else "ko.log.penalty.you"
        return t(lang, key, card=card, into="",
                 snapper_obj=_obj(snap.get("seat", seat), seat, names, lang))
    return web_line(view, decision, after, seat, seat, names, lang, every_step=True)


def _with_answer(line: str, before: dict, decision: str, after: dict, actor: int,
                 viewer: int | None, names: list[str], lang: str) -> str:
    """`line` with the snap-window answer of `actor` in front: alone while the window is open;
    before the window's result when the answer closed it and the result does not already say
    it (a pass, or a snap that was not the first), where the viewer may see the answer."""
    if not line:
        return _answer(decision, actor, viewer, names, lang)
    kind = decision.split()[0] if decision.split() else ""
    if kind not in ("pass", "snap") or before.get("awaiting") != "snap":
        return line
    if viewer is not None and viewer != actor:
        return line
    snap = after.get("snap") or {}
    if kind == "snap" and snap.get("seat") == actor:
        return line
    return _answer(decision, actor, viewer, names, lang) + "\n" + line


def _answer(decision: str, actor: int, viewer: int | None, names: list[str], lang: str) -> str:
    """A snap-window answer in words (the terminal narration's catalog keys)."""
    words = decision.split()
    if not words or words[0] not in ("pass", "snap"):
        return ""
    if viewer is not None and viewer != actor:
        return t(lang, "ko.log.answered", name=names[actor])
    key = "ko.log." + words[0] + (".you" if viewer is not None else "")
    if words[0] == "pass":
        return t(lang, key, name=names[actor])
    p, s = (int(x) for x in words[1].split("."))
    card = card_words(p, s, actor, viewer, names, lang, True)
    return t(lang, key, name=names[actor], card=card)
