"""The batched Kombio simulator, as far as it goes (issue 35; rl/batch/kombio_rules.py is
unfinished and unexported): the first round's deal is the engine's, card for card, for every
player count (grids, deck order, each seat's knowledge of its slots 3 and 4, KO-2), and every
seat's observation there is the codec's."""

from __future__ import annotations

import numpy as np
import pytest

from cardtable import new_game
from cardtable.kombio.cards import VALUE
from cardtable.rl.batch import kombio_rules as KR
from cardtable.rl.batch.rng import MT_WORDS
from cardtable.rl.kombio_codec import KombioCodec


@pytest.mark.parametrize("players", range(2, 7))
def test_the_first_deal_is_the_engines(players):
    g = np.zeros(KR.ROW, np.int16)
    known = np.zeros((KR.SEATS + 1, 2), np.uint64)
    mt = np.zeros(MT_WORDS, np.uint64)
    cards = np.zeros(KR.CARDS, np.int16)
    for seed in [*range(60), 2**33 + 1, 2**62 - 5]:
        st = new_game("kombio", players=players, seed=seed)
        KR.deal_round(g, known, players, 0, np.uint64(seed), mt, cards)
        for s in range(players):
            grid = g[KR.GRIDS + s * KR.SLOTS:KR.GRIDS + s * KR.SLOTS + 4].tolist()
            assert grid == st.grids[s]
            assert g[KR.COUNTS + s] == st.counts[s] == 4
            bits = int(known[s, 0]) | (int(known[s, 1]) << 64)
            assert bits == st.known[s]
        assert g[KR.DECK:KR.DECK + g[KR.DECK_N]].tolist() == st.deck
        assert g[KR.ACTIVE] == g[KR.TO_MOVE] == st.to_move == 0
        for max_cards, target in ((12, 100), (4, 30)):
            codec = KombioCodec(players, max_cards=max_cards, target=target)
            obs = np.zeros(codec.obs_size, np.float32)
            for s in range(players):
                KR.encode(g, known, players, max_cards, target, s, obs)
                assert np.array_equal(obs, codec.encode(st.view(s))), (seed, s)


def test_card_values():
    assert [KR.value_of(c) for c in range(KR.CARDS)] == list(VALUE)
