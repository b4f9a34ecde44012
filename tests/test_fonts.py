"""The font stacks live in one module (render/fonts.py, issue 23): no other file of the toolkit names a font
family, and every stylesheet takes its fonts from the custom properties that module writes."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from blackpoker.render import fonts

ROOT = Path(__file__).resolve().parents[1]
CHECKED = (".py", ".css", ".html", ".js", ".svg", ".toml", ".cfg")
FAMILIES = sorted({*fonts.SANS, *fonts.EVEN, *fonts.PLOTS})
# a font-family declaration or SVG attribute whose value is not a custom property or a Python/Jinja expression
DECLARED = re.compile(r"""font-family\s*(?::(?!\s*(?:var\(|inherit))|=\s*["'](?!\{))""", re.IGNORECASE)


def _files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "tools", "templates", "source", "scripts"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.split()
    return [ROOT / name for name in listed if name.endswith(CHECKED) and (ROOT / name) != Path(fonts.__file__)]


def test_only_the_fonts_module_names_a_font_family() -> None:
    files = _files()
    assert any(p.name == "print.css" for p in files) and any(p.name == "report.py" for p in files)
    found = []
    for path in files:
        text = path.read_text(encoding="utf-8")
        found += [f"{path.relative_to(ROOT)}: {name}" for name in FAMILIES if name.lower() in text.lower()]
        found += [f"{path.relative_to(ROOT)}: {m.group(0)!r}" for m in DECLARED.finditer(text)]
    assert not found, "font families spelled outside render/fonts.py:\n" + "\n".join(found)


def test_the_stylesheet_defines_the_stacks_with_a_japanese_font_first() -> None:
    css = fonts.stylesheet()
    assert css.startswith(":root {")
    for prop, stack in (("--bp-font-sans", fonts.SANS), ("--bp-font-even", fonts.EVEN)):
        value = re.search(prop + r":\s*([^;]+);", css)
        assert value and value.group(1) == fonts.css_family(stack)
        assert stack[0].startswith("BIZ UD") and value.group(1).endswith(fonts.GENERIC)


def test_every_custom_property_a_stylesheet_uses_is_defined() -> None:
    defined = set(re.findall(r"(--bp-font-[a-z]+):", fonts.stylesheet()))
    used = {m for p in _files() if p.suffix in (".css", ".html", ".py")
            for m in re.findall(r"var\((--bp-font-[a-z]+)\)", p.read_text(encoding="utf-8"))}
    assert used and used <= defined, used - defined
