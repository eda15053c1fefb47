"""Seeded randomness. Every game owns exactly one `Rng`; all its random choices come from it.

Only `random.Random.getrandbits` is used (Mersenne Twister seeded from an int), and shuffling
and range sampling are implemented here, so the sequence is the same on every machine and
Python version."""

from __future__ import annotations

import random


class Rng:
    __slots__ = ("_r",)

    def __init__(self, seed: int | None = 0):
        self._r = random.Random(seed)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        k = n.bit_length()
        getrandbits = self._r.getrandbits
        r = getrandbits(k)
        while r >= n:
            r = getrandbits(k)
        return r

    def choice(self, seq):
        return seq[self.below(len(seq))]

    def shuffle(self, items: list) -> None:
        """Fisher-Yates in place."""
        below = self.below
        for i in range(len(items) - 1, 0, -1):
            j = below(i + 1)
            items[i], items[j] = items[j], items[i]

    def spawn(self) -> "Rng":
        """A new generator seeded from this one (for determinizations, bots)."""
        return Rng(self._r.getrandbits(64))

    def copy(self) -> "Rng":
        new = Rng.__new__(Rng)
        new._r = random.Random.__new__(random.Random)  # no OS seeding: the state is set next
        new._r.setstate(self._r.getstate())
        return new
