"""What an imported edition adds is shown to readers: 補足 in the entry and in the verification report, a
character's 特記事項, the trump list's introduction, a frame's picture, its parent frame and its characters."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from sphinx.testing.util import SphinxTestApp

from blackpoker.core.loader import load_rules
from blackpoker.core.paths import DEFINITIONS
from sphinxroots import book_root, page, warnings_of

PNG = (Path(__file__).parent / "data" / "official" / "full" / "images" / "entry16.png").read_bytes()


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"fixture out of date: {old!r} not in {path.name}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_rulebook_shows_the_fields_an_import_brings(tmp_path: Path, make_app: Callable[..., SphinxTestApp]) -> None:
    """On a small book (sphinxroots.book_root: every list, and the report, here of no scenario)."""
    defs = tmp_path / "defs"
    shutil.copytree(DEFINITIONS, defs)
    _edit(defs / "actions.yaml", "    updated: [v8.0]\n    formats: [lite, std, pro, mast]\n",
          "    updated: [v8.0]\n    design_note: \"v8.0: 手札の上限を7枚に統一。\"\n    formats: [lite, std, pro, mast]\n")
    _edit(defs / "characters.yaml", "    size: キーカードの数字\n", "    size: キーカードの数字\n    note: 表向きで場に出す。\n")
    _edit(defs / "trumps.yaml", "trumps:\n", "about:\n  description: 切札は戦略性をもたらす拡張要素です。\n"
          "  design_note: v8.1 で第一弾を再集録。\ntrumps:\n")
    _edit(defs / "frames.yaml", "    actions: [pack-open, rare-draw, rare-summon, trap-counter]\n",
          "    actions: [pack-open, rare-draw, rare-summon, trap-counter]\n    inherits: pack\n    image: images/rare.png\n")
    (defs / "images").mkdir()
    (defs / "images" / "rare.png").write_bytes(PNG)
    load_rules(defs)
    (tmp_path / "no-scenarios").mkdir()
    app = make_app("html", srcdir=book_root(tmp_path / "root", ("verification",)), freshenv=True, confoverrides={
        "blackpoker_definitions": str(defs), "blackpoker_report": str(tmp_path / "no-scenarios")})
    app.build()
    assert warnings_of(app) == []
    fmt = page(app, "format")
    assert "補足" in fmt and "v8.0: 手札の上限を7枚に統一。" in fmt
    assert "※表向きで場に出す。" in fmt
    frame = page(app, "frame")
    assert "切札は戦略性をもたらす拡張要素です。" in frame and "v8.1 で第一弾を再集録。" in frame
    assert 'class="bp-frame-image"' in frame and "継承元" in frame
    report = page(app, "verification")
    notes = report[report.index("補足 (設計メモ)"):]
    assert "エンド" in notes and "v8.0: 手札の上限を7枚に統一。" in notes


def test_the_action_lists_of_an_imported_edition(tmp_path: Path) -> None:
    """The v9-style fixture's lists: key units shown, the two-card trump character on the Extra list and not
    on the format pages, unnamed abilities without an empty name."""
    from blackpoker.official.importer import definitions_texts, import_official
    from blackpoker.official.reader import read_official
    from blackpoker.render.actionlist.html import render_pages

    official, problems = read_official(Path(__file__).parent / "data" / "official" / "full")
    assert problems == []
    result = import_official(official, DEFINITIONS)
    defs = tmp_path / "defs"
    defs.mkdir()
    for name, text in definitions_texts(result).items():
        (defs / name).write_text(text, encoding="utf-8")
    for ours, source in result.pictures.items():
        (defs / ours).parent.mkdir(parents=True, exist_ok=True)
        (defs / ours).write_bytes(source.read_bytes())
    pages = render_pages(load_rules(defs))
    extra, mast, everything = pages["html/extra.html"], pages["html/mast.html"], pages["html/all.html"]
    assert "<dt>キーユニット条件</dt><dd><span class=\"label\">&lt;スラッシュ&gt;</span> を持つ兵士1体</dd>" in extra
    assert "char-darklord" in extra and "フレームキャラクターリスト" in extra
    assert "char-darklord" not in mast and "char-soldier" in mast
    assert everything.count('id="char-darklord"') == 1
    assert "<b></b>" not in everything
