"""The tests' own check for text drawn over text (pdfsame.overlapping) finds exactly the pairs that comparing every
two words finds, in the same order: it compares each word only with those that start under it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pdfsame import Box, overlapping


def _every_pair(words: list[Box]) -> list[tuple[int, int]]:
    """The oracle: every two words compared."""
    found = []
    for i, (ax0, ay0, ax1, ay1, _) in enumerate(words):
        for j, (bx0, by0, bx1, by1, _) in enumerate(words[i + 1:], start=i + 1):
            w, h = min(ax1, bx1) - max(ax0, bx0), min(ay1, by1) - max(ay0, by0)
            smaller = min((ax1 - ax0) * (ay1 - ay0), (bx1 - bx0) * (by1 - by0))
            if w > 1 and h > 1 and w * h > smaller / 3:
                found.append((i, j))
    return found


coordinate = st.one_of(st.integers(0, 60).map(float), st.floats(0, 60, allow_nan=False))
size = st.one_of(st.sampled_from([0.0, 0.5, 1.0, 2.0]), st.floats(0, 20, allow_nan=False))
box = st.tuples(coordinate, coordinate, size, size).map(lambda b: (b[0], b[1], b[0] + b[2], b[1] + b[3], "w"))


@given(st.lists(box, max_size=40))
def test_the_sweep_finds_what_comparing_every_pair_finds(words: list[Box]) -> None:
    assert overlapping(words) == _every_pair(words)


def test_words_set_over_each_other_are_found_and_words_side_by_side_are_not() -> None:
    words: list[Box] = [(0, 0, 10, 10, "a"), (10.5, 0, 20, 10, "b"), (2, 2, 12, 12, "c"), (30, 0, 40, 10, "d")]
    assert overlapping(words) == [(0, 2)]  # b touches c by 1.5 pt only: less than a third of either
