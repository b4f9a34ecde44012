"""A trump's イメージ (issue 14, item 7): an optional picture under images/ in the definitions, embedded in the
rulebook; without one the card is drawn from its key card (its back for the face-down trump)."""

from __future__ import annotations

import base64
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from sphinx.testing.util import SphinxTestApp

from blackpoker import load_rules
from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.loader import definition_files
from blackpoker.core.paths import DEFINITIONS
from sphinxroots import page, root_copy

PICTURE = b'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 14"><rect width="10" height="14"/></svg>'


def _with_image(tmp_path: Path, value: str, picture: bytes | None = PICTURE) -> Path:
    defs = tmp_path / "definitions"
    shutil.copytree(DEFINITIONS, defs)
    if picture is not None:
        (defs / "images").mkdir()
        (defs / "images" / "slash.svg").write_bytes(picture)
    trumps = defs / "trumps.yaml"
    text = trumps.read_text(encoding="utf-8")
    assert "    introduced: ex3.4.0\n" in text
    trumps.write_text(text.replace("    introduced: ex3.4.0\n", f"    introduced: ex3.4.0\n    image: {value}\n", 1),
                      encoding="utf-8")
    return defs


def test_without_a_picture_each_trump_is_drawn(built_rulebook: tuple[Path, Path]) -> None:
    frame = (built_rulebook[0] / "frame.html").read_text(encoding="utf-8")
    cards = re.findall(r'<svg [^>]*class="bp-svg bp-card".*?</svg>', frame, re.S)
    assert len(cards) == len(load_rules().trumps) == 5
    assert ">♠2<" in cards[0] and "スラッシュ" in cards[0]
    assert "♠" not in cards[-1] and "裏切札" in cards[-1]  # the face-down trump: its back


def test_a_picture_is_read_with_the_ruleset_and_embedded_in_the_rulebook(
        tmp_path: Path, make_app: Callable[..., SphinxTestApp]) -> None:
    """The rulebook's list of trumps, on the lists' root (tests/roots/test-lists), not the whole book."""
    defs = _with_image(tmp_path, "images/slash.svg")
    rules = load_rules(defs)
    slash = rules.trumps[0]
    assert slash.image is not None and slash.image.media_type == "image/svg+xml" and slash.image.data == PICTURE
    assert defs / "images" / "slash.svg" in definition_files(defs)  # a build input: an edit rebuilds
    app = make_app("html", srcdir=root_copy("lists", tmp_path / "root"), freshenv=True,
                   confoverrides={"blackpoker_definitions": str(defs)})
    app.build()
    frame = page(app, "frame")
    assert f'src="data:image/svg+xml;base64,{base64.b64encode(PICTURE).decode()}"' in frame
    assert frame.count('class="bp-svg bp-card"') == 4


@pytest.mark.parametrize(("value", "message"), [
    ("images/missing.png", "'images/missing.png' is not a file in the definitions folder"),
    ("slash.gif", "is not valid"),
])
def test_a_bad_picture_is_a_located_error(tmp_path: Path, value: str, message: str) -> None:
    defs = _with_image(tmp_path, value)
    with pytest.raises(DefinitionErrors) as raised:
        load_rules(defs)
    errors = [e for e in raised.value.errors if e.path[-1:] == ("image",)]
    assert len(errors) == 1 and errors[0].file.endswith("trumps.yaml") and message in errors[0].message, raised.value
    assert errors[0].line > 1


def test_a_picture_linked_from_outside_the_folder_is_refused(tmp_path: Path) -> None:
    defs = _with_image(tmp_path, "images/slash.svg", picture=None)
    outside = tmp_path / "secret.svg"
    outside.write_bytes(PICTURE)
    (defs / "images").mkdir()
    (defs / "images" / "slash.svg").symlink_to(outside)
    with pytest.raises(DefinitionErrors) as raised:
        load_rules(defs)
    assert "is not a file in the definitions folder" in str(raised.value)
