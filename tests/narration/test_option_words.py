"""A decision a seat may take, in the table log's words (narration `option_words`, each game's
`web_option`): the coach's options and the review's choices show these instead of the
notation. Every legal decision of seeded random games of both games gets words in English and
German from the deciding seat's own view; nothing a decision would reveal is named (the card
a draw brings, the card a Kombio replace throws off unseen)."""

from __future__ import annotations

import pytest

from cardtable import new_game
from cardtable.core.rng import Rng
from cardtable.narration import option_words, plain_names

NAMES = ["Ann", "Ben", "Caro"]


def _names(lang):
    return plain_names(NAMES, 3, lang)


@pytest.mark.parametrize("game", ["abluxxen", "kombio"])
def test_every_legal_decision_has_words_in_both_languages(game):
    kinds = set()
    for seed in range(4):
        g = new_game(game, seed=seed, players=3)
        rng = Rng(seed)
        while not g.over:
            legal = g.legal_decisions()
            seat = g.to_move
            view = g.view(seat)
            for d in legal:
                en, de = (option_words(game, view, d.text, seat, _names(lang), lang)
                          for lang in ("en", "de"))
                assert en.startswith("You ") and de.startswith("Du "), (d.text, en, de)
                assert "{" not in en + de and "None" not in en + de
                kinds.add(d.kind)
            g.apply(legal[rng.below(len(legal))])
    assert len(kinds) >= 5, kinds


def test_abluxxen_words_as_the_table_log():
    g = new_game("abluxxen", seed=1, players=3)
    seat, view = g.to_move, g.view(g.to_move)
    card = view["hands"][seat][0]
    assert option_words("abluxxen", view, f"play {card}", seat, _names("en"), "en") \
        == f"You play {card}"
    assert option_words("abluxxen", view, f"play {card}", seat, _names("de"), "de") \
        == f"Du spielst {card}"
    # a draw from the deck does not say which card it would bring
    assert option_words("abluxxen", view, "draw deck", seat, _names("de"), "de") \
        == "Du ziehst vom Nachziehstapel"


def test_kombio_words_name_no_unseen_card():
    g = new_game("kombio", seed=3, players=3)
    seat = g.to_move
    view = g.view(seat)
    assert option_words("kombio", view, "draw", seat, _names("de"), "de") == "Du ziehst eine Karte"
    g.apply("draw")
    view = g.view(seat)
    drawn = view["drawn"]
    unseen = next(s for s, v in enumerate(view["grids"][seat], 1) if v == "?")
    assert option_words("kombio", view, f"replace {unseen}", seat, _names("en"), "en") == (
        f"You put the {drawn} into your slot {unseen} and discard the card there")
    assert option_words("kombio", view, f"replace {unseen}", seat, _names("de"), "de") == (
        f"Du legst die {drawn} in dein Feld {unseen} und wirfst die Karte von dort ab")


def test_a_game_without_words_gives_none():
    assert option_words("no-such-game", {}, "play 1", 0, NAMES, "en") == ""
