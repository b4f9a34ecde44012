"""The search index's words: exactly TinySegmenter's, remembered between builds in the environment's folder."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from sphinx.search.ja import DefaultSplitter

from blackpoker.sphinxext import search

TEXTS = ["兵士召喚アクションでは、キーカードの数字が兵士の数字になります。", "BlackPoker 公式ルール v8.1", ""]


def test_the_words_are_tinysegmenters(tmp_path: Path) -> None:
    app = SimpleNamespace(doctreedir=str(tmp_path))
    search.load_words(app)
    splitter = search.RememberingSplitter({})
    for text in TEXTS:
        assert splitter.split(text) == DefaultSplitter({}).split(text)
        assert splitter.split(text) == DefaultSplitter({}).split(text)  # the second time from memory


def test_words_are_kept_for_the_next_build_and_not_rewritten_when_nothing_is_new(tmp_path: Path) -> None:
    app = SimpleNamespace(doctreedir=str(tmp_path))
    search.load_words(app)
    search.RememberingSplitter({}).split(TEXTS[0])
    search.save_words(app, None)
    saved = tmp_path / "bp-search-words.json"
    assert json.loads(saved.read_text(encoding="utf-8"))[TEXTS[0]] == DefaultSplitter({}).split(TEXTS[0])

    # the next build: nothing new is split, so the file is left alone
    saved.write_text(saved.read_text(encoding="utf-8").replace(TEXTS[0], "marker"), encoding="utf-8")
    search.load_words(app)
    search.RememberingSplitter({}).split("marker")
    search.save_words(app, None)
    assert "marker" in saved.read_text(encoding="utf-8")

    # a failed build keeps nothing
    search.RememberingSplitter({}).split("新しい言葉")
    search.save_words(app, RuntimeError("failed"))
    assert "新しい言葉" not in saved.read_text(encoding="utf-8")


def test_a_damaged_file_only_costs_time(tmp_path: Path) -> None:
    (tmp_path / "bp-search-words.json").write_text("{not json", encoding="utf-8")
    app = SimpleNamespace(doctreedir=str(tmp_path))
    search.load_words(app)
    assert search.RememberingSplitter({}).split(TEXTS[0]) == DefaultSplitter({}).split(TEXTS[0])


def test_a_name_is_a_word_whole_beside_tinysegmenters_words(tmp_path: Path) -> None:
    """Issue 22, item 5: TinySegmenter cuts 世代交代 into 世代 and 交代, and the search page looks a typed name up
    whole: every entry name and 索引 term a text contains is one of its words too (once, and only if it is there)."""
    search.load_words(SimpleNamespace(doctreedir=str(tmp_path)))
    search._WHOLE[:] = ["世代交代", "兵士召喚", "B・J"]
    try:
        splitter = search.RememberingSplitter({})
        text = "世代交代では、世代交代を2回できない。"
        words = splitter.split(text)
        assert words[:-1] == DefaultSplitter({}).split(text) and "世代交代" not in words[:-1]
        assert words[-1] == "世代交代"
        assert splitter.split(TEXTS[0])[-1] == "兵士召喚" and "B・J" not in splitter.split(TEXTS[0])
    finally:
        search._WHOLE.clear()
