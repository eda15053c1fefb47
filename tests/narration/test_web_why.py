"""The browser's "whose turn and why" line, written once in Python (narration `web_why`; issue
30): the server sends it with each state and replay step, and the browser shows it as sent.

Each awaiting phase of each game gives the expected sentence in English and German (the words
the browser's own `whyText` gave before it moved here); over seeded random games the line is
built from the viewer's own view only, so it never names a card that viewer cannot see."""

from __future__ import annotations

import pytest

from cardtable.narration import plain_names, web_why
from cardtable.server.tables.views import public_view
from random_games import walk

NAMES = ["Ann", "Ben", "Caro"]


def ab_view(awaiting, to_move, *, active=None, pending=None, owed=0, deck=20, over=False):
    """A hand-made Abluxxen view with what the line reads (docs/notation.md keys)."""
    return {"game": "abluxxen", "players": 3, "over": over, "awaiting": awaiting,
            "to_move": None if over else to_move, "active": to_move if active is None else active,
            "pending": pending, "owed": owed, "deck": deck, "hands": [[5], 4, 4],
            "displays": [[], [], []], "shadow": None}


PENDING = {"victim": 2, "cards": [5, "X"]}

AB_CASES = [
    # (view, viewer, English, German)
    (ab_view("play", 0), 0, "Your turn: play a set.", "Du bist dran: spiele Karten aus."),
    (ab_view("play", 0), 1, "Ann's turn: Ann plays a set.",
     "Ann ist dran und spielt Karten aus."),
    (ab_view("shadow", 0), 0,
     "Your set shadowluxxes: take as many cards of one lower number from the shadow display as "
     "your set has (DU-4).",
     "Deine Karten schattenluxxen: nimm so viele Karten einer niedrigeren Zahl aus der "
     "Schattenauslage auf die Hand, wie du ausgespielt hast (DU-4)."),
    (ab_view("shadow", 0), None,
     "Ann's set shadowluxxes: Ann takes cards of one number from the shadow display (DU-4).",
     "Die Karten von Ann schattenluxxen: Ann nimmt Karten einer Zahl aus der Schattenauslage "
     "(DU-4)."),
    (ab_view("take", 0, pending=PENDING), 0,
     "You abluxx Caro: your set beats Caro's 5 Joker. Take them (Caro then draws 2) or leave "
     "them to Caro (AB-11).",
     "Du abluxxt Caro: deine Karten schlagen die 5 Joker von Caro. Nimm sie (Caro zieht dann 2 "
     "nach) oder lass sie Caro (AB-11)."),
    (ab_view("take", 0, pending=PENDING), 2,
     "Ann abluxxes you: Ann's set beats your 5 Joker. Ann takes them or leaves them to you "
     "(AB-11).",
     "Ann abluxxt dich: die Karten von Ann schlagen deine 5 Joker. Ann nimmt sie oder lässt sie "
     "dir (AB-11)."),
    (ab_view("take", 0, pending=PENDING), 1,
     "Ann abluxxes Caro: beats 5 Joker. Ann takes them or leaves them to Caro (AB-11).",
     "Ann abluxxt Caro: schlägt 5 Joker. Ann nimmt sie oder lässt sie Caro (AB-11)."),
    (ab_view("keep", 2, active=0, pending=PENDING), 2,
     "Your 5 Joker were left to you: keep them (back into your hand) or discard them and draw 2 "
     "(AB-11).",
     "Deine 5 Joker wurden dir gelassen: nimm sie zurück auf die Hand oder lege sie ab und "
     "ziehe 2 nach (AB-11)."),
    (ab_view("keep", 2, active=0, pending=PENDING), None,
     "The 5 Joker were left to Caro: Caro keeps them or discards them and draws 2 (AB-11).",
     "Caro wurden die 5 Joker gelassen: Caro nimmt sie zurück oder legt sie ab und zieht 2 nach "
     "(AB-11)."),
    (ab_view("draw", 1, active=0, owed=2), 1,
     "You owe 2 more draws: a pool card or the top card of the deck (AB-12).",
     "Du musst noch 2 Karten nachziehen: je eine Karte aus dem Vorrat oder die oberste des "
     "Nachziehstapels (AB-12)."),
    (ab_view("draw", 1, active=0, owed=1, deck=0), 0,
     "Ben owes 1 more draw (AB-12). The deck is empty: only the pool is left (AB-13).",
     "Ben muss noch 1 Karte nachziehen (AB-12). Der Nachziehstapel ist leer: nur der Vorrat "
     "bleibt (AB-13)."),
    (ab_view("optional_draw", 0), 0, "You abluxxed nobody: draw one card or pass (AB-15).",
     "Du hast niemanden abgeluxxt: ziehe eine Karte oder passe (AB-15)."),
    # the browser's words say nothing of an empty deck here (the terminal's do)
    (ab_view("optional_draw", 0, deck=0), 1,
     "Ann abluxxed nobody: Ann may draw one card or pass (AB-15).",
     "Ann hat niemanden abgeluxxt: Ann darf eine Karte ziehen oder passen (AB-15)."),
    (ab_view("play", 0, over=True), 0, "The game is over.", "Die Partie ist vorbei."),
]


def ko_view(awaiting, to_move, *, drawn=None, action=None, top=6, snap=None, over=False):
    """A hand-made Kombio view with what the line reads (docs/notation.md keys)."""
    return {"game": "kombio", "players": 3, "over": over, "awaiting": awaiting,
            "to_move": None if over else to_move, "drawn": drawn, "action": action, "top": top,
            "snap": snap, "peeked": [], "window": None}


WRONG = {"seat": 1, "card": "0.3", "value": 8, "right": False, "claims": []}
RIGHT = {"seat": 1, "card": "2.1", "value": 6, "right": True, "claims": []}
OPEN = {"eligible": True, "answered": None}

KO_CASES = [
    # (view, viewer, window, legal_any, English, German)
    (ko_view("turn", 0), 0, None, True,
     "Your turn: draw a card, take the top discard card into a slot, or call Kombio (KO-5).",
     "Du bist dran: ziehe eine Karte, nimm die oberste Karte des Ablagestapels in ein Feld "
     "oder rufe Kombio (KO-5)."),
    (ko_view("turn", 0), 1, None, False,
     "Ann's turn: draw, take the top discard card or call Kombio (KO-5).",
     "Ann ist dran: ziehen, die oberste Karte des Ablagestapels nehmen oder Kombio rufen "
     "(KO-5)."),
    (ko_view("drawn", 0, drawn=5), 0, None, True,
     "You drew a 5: put it into one of your slots (that card goes to the discard pile) or "
     "discard it (KO-5.1).",
     "Du hast eine 5 gezogen: lege sie in eines deiner Felder (die Karte dort kommt auf den "
     "Ablagestapel) oder lege sie ab (KO-5.1)."),
    (ko_view("drawn", 0, drawn=9), 0, None, True,
     "You drew a 9: put it into one of your slots (that card goes to the discard pile) or "
     "discard it (KO-5.1). If you discard it, you may use its action: look at a card of another "
     "player.",
     "Du hast eine 9 gezogen: lege sie in eines deiner Felder (die Karte dort kommt auf den "
     "Ablagestapel) oder lege sie ab (KO-5.1). Legst du sie ab, darfst du ihre Aktion nutzen: "
     "eine Karte eines anderen Spielers ansehen."),
    (ko_view("drawn", 0), 2, None, False, "Ann drew a card and looks at it.",
     "Ann hat eine Karte gezogen und schaut sie an."),
    (ko_view("action", 0, action=11, top=11), 0, None, True,
     "Use the action of the 11: swap any two cards on the table without looking – or skip it "
     "(KO-6).",
     "Nutze die Aktion der 11: zwei beliebige Karten auf dem Tisch ungesehen tauschen – oder "
     "verzichte (KO-6)."),
    (ko_view("action", 0, action=7, top=7), None, None, False,
     "Ann may use the action of the 7: look at one of your own cards (KO-6).",
     "Ann darf die Aktion der 7 nutzen: eine eigene Karte ansehen (KO-6)."),
    (ko_view("action_swap", 0, action=13), 0, None, True,
     "You looked at a card: swap it with any other card, or keep things as they are (KO-6).",
     "Du hast eine Karte angesehen: tausche sie mit einer beliebigen anderen Karte oder lass "
     "alles, wie es ist (KO-6)."),
    (ko_view("action_swap", 0, action=14), 0, None, True,
     "You looked at two cards: swap them, or keep things as they are (KO-6).",
     "Du hast zwei Karten angesehen: tausche sie oder lass alles, wie es ist (KO-6)."),
    (ko_view("action_swap", 0, action=14), 1, None, False, "Ann looked and may swap (KO-6).",
     "Ann hat Karten angesehen und darf tauschen (KO-6)."),
    # a snap window: an eligible seat that has not answered and may answer now ...
    (ko_view("snap", 0), 1, OPEN, True,
     "Snap window on the 6: if you think a card on the table is a 6, click it to snap; "
     "otherwise pass (KO-8..KO-10).",
     "Klopfen auf die 6: wenn du glaubst, dass eine Karte auf dem Tisch eine 6 ist, klicke sie "
     "an; sonst passe (KO-8..KO-10)."),
    # ... one that passed ...
    (ko_view("snap", 0), 1, {"eligible": True, "answered": "pass"}, False,
     "Snap window on the 6: you passed; waiting for the others.",
     "Klopfen auf die 6: du hast gepasst; warte auf die anderen."),
    # ... and everybody else: a seat out of the window, one without decisions, a spectator,
    # the replay (no window part at all)
    (ko_view("snap", 0), 0, {"eligible": False, "answered": None}, False,
     "Snap window on the 6: the others decide (KO-10).",
     "Klopfen auf die 6: die anderen entscheiden (KO-10)."),
    (ko_view("snap", 0), 1, OPEN, False,
     "Snap window on the 6: the others decide (KO-10).",
     "Klopfen auf die 6: die anderen entscheiden (KO-10)."),
    (ko_view("snap", 0), None, None, False,
     "Snap window on the 6: the others decide (KO-10).",
     "Klopfen auf die 6: die anderen entscheiden (KO-10)."),
    (ko_view("give", 1, snap=RIGHT), 1, None, True,
     "You snapped right: give one of your cards into the emptied slot (KO-8).",
     "Du hast richtig geklopft: gib eine deiner Karten in das leere Feld (KO-8)."),
    (ko_view("give", 1, snap=RIGHT), 0, None, False,
     "Ben snapped right and gives a card into the emptied slot (KO-8).",
     "Ben hat richtig geklopft und gibt eine eigene Karte in das leere Feld (KO-8)."),
    (ko_view("hand_over", 0, snap=WRONG), 0, None, True,
     "A wrong snap on your card 3: hand it over to the snapper, or they get a penalty card "
     "(KO-8).",
     "Falsch auf deine Karte 3 geklopft: gib sie ab oder gib eine Strafkarte (KO-8)."),
    (ko_view("hand_over", 0, snap=WRONG), 1, None, False,
     "Ann decides about a wrong snap (KO-8).",
     "Ann entscheidet über ein falsches Klopfen (KO-8)."),
    (ko_view("turn", 0, over=True), 0, None, False, "The game is over.",
     "Die Partie ist vorbei."),
]


@pytest.mark.parametrize("view, viewer, en, de", AB_CASES,
                         ids=[f"{c[0]['awaiting']}-{c[1]}" for c in AB_CASES])
def test_abluxxen_why_in_both_languages(view, viewer, en, de):
    assert web_why("abluxxen", view, viewer, NAMES, "en") == en
    assert web_why("abluxxen", view, viewer, NAMES, "de") == de


@pytest.mark.parametrize("view, viewer, window, legal_any, en, de", KO_CASES,
                         ids=[f"{c[0]['awaiting']}-{c[1]}" for c in KO_CASES])
def test_kombio_why_in_both_languages(view, viewer, window, legal_any, en, de):
    assert web_why("kombio", view, viewer, NAMES, "en", window, legal_any) == en
    assert web_why("kombio", view, viewer, NAMES, "de", window, legal_any) == de


def test_seats_without_a_name_are_counted_from_one():
    """As the browser's plainName: a seat without a name is "Seat N" / "Platz N"."""
    assert plain_names(["Ann", ""], 3, "de") == ["Ann", "Platz 2", "Platz 3"]
    view = ab_view("play", 1)
    assert web_why("abluxxen", view, 0, ["Ann", ""], "en") == \
        "Seat 2's turn: Seat 2 plays a set."
    assert web_why("kombio", ko_view("turn", 2), None, [], "de").startswith("Platz 3 ist dran")


def test_a_game_without_words_for_it_gets_an_empty_line():
    """A game without a narration module (the toy game of tests/toygame) or without
    `web_why` in it gets "", not an error."""
    assert web_why("toy", {"to_move": 0}, 0, NAMES, "en") == ""
    assert web_why("no_such_game", {}, None, NAMES, "de") == ""


# -- over seeded random games ---------------------------------------------------------------------
CONFIGS = [("abluxxen", {"players": 2, "variant": "duel"}),
           ("abluxxen", {"players": 4, "variant": "basic"}),
           ("abluxxen", {"players": 3, "variant": "classic"}),
           ("kombio", {"players": 2}), ("kombio", {"players": 4})]


def _positions():
    """(game, state) at many points of seeded random games."""
    for game, opts in CONFIGS:
        for seed in range(4):
            for steps in (0, 3, 9, 17, 30, 55, 90):
                yield game, walk(game, opts, seed, steps)


POSITIONS = list(_positions())


def test_every_phase_met_has_words_for_every_viewer():
    """Real views (not only hand-made ones) of every phase these games met give a line for
    each seat and for a spectator, in both languages."""
    phases = set()
    for game, st in POSITIONS:
        for viewer in [*range(st.players), None]:
            view = st.view(viewer) if viewer is not None else public_view(st)
            phases.add((game, view["awaiting"]))
            for lang in ("en", "de"):
                assert web_why(game, view, viewer, NAMES + ["Dora"], lang), (game, view)
    assert {("abluxxen", a) for a in ("play", "take", "keep", "draw")} <= phases
    assert {("kombio", a) for a in ("turn", "snap")} <= phases


def test_the_line_never_says_what_the_viewer_cannot_see():
    """A seat's line is the same in every state that seat cannot tell apart: a twin
    (`determinize`) with the hidden cards dealt anew gives the same words, for that seat and
    for a spectator, while the twins do differ in cards the seat has not seen."""
    names = NAMES + ["Dora"]
    differing = 0
    for k, (game, st) in enumerate(POSITIONS):
        for seat in range(st.players):
            twin = st.determinize(seat, 1000 + k)
            differing += twin.view(None) != st.view(None)
            for lang in ("en", "de"):
                assert web_why(game, twin.view(seat), seat, names, lang) == \
                    web_why(game, st.view(seat), seat, names, lang), (game, seat)
                assert web_why(game, public_view(twin), None, names, lang) == \
                    web_why(game, public_view(st), None, names, lang), (game, seat)
    # the twins are not copies: the comparison above is between different deals
    assert differing > len(POSITIONS)
