"""``random.Random.randrange(n)``, ``choice`` and ``shuffle`` as the standard library draws them, in compiled code.

Self-play draws a random decision at every step; ``Random.choice`` and ``randrange`` are Python functions of the
standard library, which the compiled simulator would call through the interpreter. :func:`randbelow` repeats
CPython's ``Random._randbelow_with_getrandbits`` (rejection sampling on ``getrandbits`` of ``n``'s bit length) and
:func:`shuffle` its Fisher-Yates loop, so the same seed draws the same numbers: ``tests/test_sim_draw.py`` compares
them with the library and notices a change."""

from __future__ import annotations

import random
from typing import TypeVar

T = TypeVar("T")


def randbelow(rng: random.Random, n: int) -> int:
    """What ``rng.randrange(n)`` returns for ``n > 0`` (and ``rng.choice(seq)`` indexes a sequence of ``n`` with),
    drawing the same bits from ``rng``."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle(rng: random.Random, cards: list[T]) -> None:
    """What ``rng.shuffle(cards)`` does, drawing the same bits from ``rng``."""
    for i in range(len(cards) - 1, 0, -1):
        j = randbelow(rng, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
