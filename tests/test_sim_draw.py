"""The compiled simulator's random draws are the standard library's: the same seeds give the same games."""

from __future__ import annotations

import random

from blackpoker.sim.draw import randbelow, shuffle


def test_randbelow_draws_what_randrange_and_choice_draw() -> None:
    for seed in range(50):
        ours, library, by_choice = random.Random(seed), random.Random(seed), random.Random(seed)
        for n in (*range(1, 70), 127, 128, 129, 1000, 2**31 + 7):
            options = range(n)
            assert randbelow(ours, n) == library.randrange(n) == by_choice.choice(options)
        assert ours.getstate() == library.getstate() == by_choice.getstate()  # and consumed the same bits


def test_shuffle_shuffles_as_the_library_does() -> None:
    for seed in range(50):
        ours, library = random.Random(seed), random.Random(seed)
        for n in (0, 1, 2, 3, 7, 20, 54, 200):
            mine, theirs = list(range(n)), list(range(n))
            shuffle(ours, mine)
            library.shuffle(theirs)
            assert mine == theirs
        assert ours.getstate() == library.getstate()
