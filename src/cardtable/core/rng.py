"""Seeded randomness. Every game owns exactly one `Rng`; all its random choices come from it.

Only `random.Random.getrandbits` is used (Mersenne Twister seeded from an int), and shuffling
and range sampling are implemented here, so the sequence is the same on every machine and
Python version."""

from __future__ import annotations

import random


class Rng:
    """The generator. `copy()` is copy-on-write: the copy shares the Mersenne Twister state
    until either side draws, so copying a game state (search bots copy thousands) costs no
    generator copy unless the copy really draws."""

    __slots__ = ("_r", "_shared")

    def __init__(self, seed: int | None = 0):
        self._r = random.Random(seed)
        self._shared = False

    def _own(self) -> None:
        """Take a private copy of a shared state before drawing from it."""
        r = random.Random.__new__(random.Random)   # no OS seeding: the state is set next
        r.setstate(self._r.getstate())
        self._r = r
        self._shared = False

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        if self._shared:
            self._own()
        k = n.bit_length()
        getrandbits = self._r.getrandbits
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def shuffle(self, items: list) -> None:
        """Fisher-Yates in place: the draws of `below(i + 1)` for i from the top down, inlined
        (determinizations shuffle the deck for every bot decision)."""
        if self._shared:
            self._own()
        getrandbits = self._r.getrandbits
        for i in range(len(items) - 1, 0, -1):
            n = i + 1
            k = n.bit_length()
            j = getrandbits(k)
            while j >= n:
                j = getrandbits(k)
            items[i], items[j] = items[j], items[i]

    def spawn(self) -> "Rng":
        """A new generator seeded from this one (for determinizations, bots)."""
        if self._shared:
            self._own()
        return Rng(self._r.getrandbits(64))

    def copy(self) -> "Rng":
        """An independent generator in the same state (copy-on-write, see the class)."""
        new = Rng.__new__(Rng)
        new._r = self._r
        new._shared = self._shared = True
        return new
