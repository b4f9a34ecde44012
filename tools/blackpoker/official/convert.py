"""The official files' string conventions, both ways: ids, readings, versions, formats, frame bullets, key cards,
costs, labels and notes. Each ``read_*`` returns the value in our form or raises :class:`Unmappable` with what
was expected; each ``write_*`` is its inverse (up to the normalisations the README lists)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from blackpoker.core.keycard import KeyCardSyntaxError, parse_key_card, render_key_card

FORMAT_ORDER = ("lite", "std", "pro", "mast")
TRIGGERS = {"直接": "direct", "誘発": "triggered"}
SPEEDS = {"通常": "normal", "即時": "instant"}
TIMINGS = {"メイン": "main", "クイック": "quick"}
COST_LETTERS = frozenset("BLDSKC")
RARE_KEY = "レアカード1枚"  # the official actKey of the actions whose key card is the rare card (implicit_key: rare)
NOTE_MARK = "※"


class Unmappable(ValueError):
    """A value the importer cannot map; the message says what was expected."""


@dataclass(frozen=True)
class Normalised:
    """A value the importer changed without changing its meaning (reported as a note)."""

    before: str
    after: str
    what: str


# --- ids --------------------------------------------------------------------------------------------

_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
_OFFICIAL_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")


def kebab(official: str) -> str:
    """``summonsSoldier`` → ``summons-soldier``, ``sA`` → ``s-a``, ``c10`` → ``c10``."""
    if not _OFFICIAL_ID.match(official):
        raise Unmappable(f"'{official}' is not an official id; expected letters and digits, starting with a letter")
    text = re.sub(r"(?<=[A-Za-z0-9])(?=[A-Z])", "-", official.replace("_", "-")).lower()
    if not _ID.match(text):
        raise Unmappable(f"'{official}' gives the id '{text}'; expected camelCase letters and digits")
    return text


def camel(id: str) -> str:
    """Our kebab id in camelCase: the official id by default (as core/kinds.py ``official_id``)."""
    head, *rest = id.split("-")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


# --- readings ---------------------------------------------------------------------------------------

_DIGITS = ("ぜろ", "いち", "に", "さん", "よん", "ご", "ろく", "なな", "はち", "きゅう")
_READING = re.compile(r"^[ぁ-ゖー]+$")


def _number_reading(number: int) -> str:
    if number < 10:
        return _DIGITS[number]
    tens, ones = divmod(number, 10)
    return ("" if tens == 1 else _DIGITS[tens]) + "じゅう" + (_DIGITS[ones] if ones else "")


def hiragana(text: str) -> str:
    """Katakana as hiragana, spaces dropped, numbers below 100 spelled out (エントリー 20 → えんとりーにじゅう)."""
    text = re.sub(r"[0-9]{1,2}", lambda m: _number_reading(int(m[0])), text.replace(" ", "").replace("\u3000", ""))
    return "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in text)


def excerpt(text: str, limit: int = 40) -> str:
    """A value quoted in a message: at most ``limit`` characters of it."""
    return f"'{text}'" if len(text) <= limit else f"'{text[:limit]}…'"


def read_reading(ruby: str | None, name: str) -> tuple[str, Normalised | None]:
    """Our reading (hiragana and ー) from the official ruby, or from the name when there is no ruby."""
    source = ruby if ruby is not None else name
    reading = hiragana(source)
    if not _READING.match(reading):
        if ruby is None:
            raise Unmappable(f"no ruby, and the name '{name}' cannot be read out; add 'ruby' in hiragana")
        raise Unmappable(f"'{ruby}' is not a reading; expected hiragana or katakana (and ー)")
    if reading == source:
        return reading, None
    return reading, Normalised(source, reading, "reading in hiragana" if ruby is not None else "reading from the name")


def default_reading(name: str) -> str | None:
    """The reading the importer derives from a name, if it can (then the export needs no ruby)."""
    reading = hiragana(name)
    return reading if _READING.match(reading) else None


# --- versions ----------------------------------------------------------------------------------------

_VERSION = re.compile(r"^(v[0-9]+\.[0-9]+|ex[0-9]+\.[0-9]+\.[0-9]+)$")


def read_version(text: str) -> tuple[str, Normalised | None]:
    """``v8.0`` or ``ex3.4.0`` as is; ``8.0`` → ``v8.0`` (a note)."""
    text = text.strip()
    if _VERSION.match(text):
        return text, None
    if re.match(r"^[0-9]+\.[0-9]+$", text):
        return f"v{text}", Normalised(text, f"v{text}", "version with its v")
    raise Unmappable(f"'{text}' is not a version; expected v<major>.<minor> (8.0 is read as v8.0) or "
                     "ex<major>.<minor>.<patch>")


def read_versions(text: str) -> tuple[list[str], list[Normalised]]:
    """The comma list of ``update`` (``v8.1, v9.0``; spacing free)."""
    out: list[str] = []
    notes: list[Normalised] = []
    for piece in text.split(","):
        if not piece.strip():
            continue
        version, note = read_version(piece)
        out.append(version)
        if note:
            notes.append(note)
    if not out:
        raise Unmappable(f"'{text}' names no version; expected a comma list such as 'v8.1, v9.0'")
    if len(set(out)) != len(out):
        raise Unmappable(f"'{text}' names a version twice")
    return out, notes


def write_versions(versions: tuple[str, ...]) -> str:
    """The official files list versions comma-separated; the import reads them back with any spacing."""
    return ", ".join(versions)


# --- formats and frames ---------------------------------------------------------------------------

def read_formats(text: str) -> tuple[list[str], Normalised | None]:
    """``lite,std,pro,mast``; the older positional form with blanks (``,,pro,mast``) gives the same list."""
    pieces = [p.strip() for p in text.split(",")]
    named = [p for p in pieces if p]
    unknown = [p for p in named if p not in FORMAT_ORDER]
    if unknown or not named:
        raise Unmappable(f"'{text}' is not a format list; expected a comma list of {', '.join(FORMAT_ORDER)}")
    if len(set(named)) != len(named):
        raise Unmappable(f"'{text}' names a format twice")
    formats = [f for f in FORMAT_ORDER if f in named]
    canonical = write_formats(tuple(formats))
    return formats, (Normalised(text, canonical, "format list") if canonical != text else None)


def write_formats(formats: tuple[str, ...]) -> str:
    """The official comma form, always in format order, so a round trip gives the same text."""
    return ",".join(f for f in FORMAT_ORDER if f in formats)


def read_bullets(text: str, marks: str = "・") -> list[str]:
    """``・パック\\n・レアパック`` → [パック, レアパック] (also ``*`` lists, as frame.yaml writes them)."""
    items = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line[0] not in marks:
            raise Unmappable(f"the line '{line[:30]}' is not a bullet; expected one line per item, each starting "
                             f"with {' or '.join(repr(m) for m in marks)}")
        items.append(line[1:].strip())
    if not items:
        raise Unmappable("the list is empty; expected one line per item, e.g. '・パック'")
    return items


def write_bullets(items: list[str], mark: str = "・") -> str:
    """Back to the official bullet text: ``・`` lists as act.yaml writes them, other marks with a space as frame.yaml
    does."""
    return "\n".join(f"{mark}{item}" if mark == "・" else f"{mark} {item}" for item in items)


# --- key cards ------------------------------------------------------------------------------------

_OFFICIAL_GLYPHS = str.maketrans({"〜": "~", "～": "~", "♢": "◇", "♦": "◇", "♥": "♡"})
_WIDE_DIGITS = str.maketrans({chr(0xFF10 + i): str(i) for i in range(10)})


def read_key_card(text: str) -> tuple[str, Normalised | None]:
    """The official key-card text respaced to our canonical form (``♠A〜10 を 2枚`` → ``♠A~10 を2枚``): it must
    read the same, so only spaces and glyphs may change."""
    narrow = text.strip().translate(_WIDE_DIGITS)
    glyphs = narrow.translate(_OFFICIAL_GLYPHS)
    spaced = re.sub(r"\s*を\s*", " を", re.sub(r"\s*と\s*", " と ", glyphs))
    spaced = re.sub(r"同じ(スート|数字) を", r"同じ\1を", re.sub(r"同じスートの\s*", "同じスートの ", spaced))
    spaced = re.sub(r"全て\s*[(（]裏向き[)）]", "全て (裏向き)", spaced)
    canonical = None
    for candidate in (glyphs, spaced):
        try:
            canonical = render_key_card(parse_key_card(candidate))
            break
        except (KeyCardSyntaxError, KeyError) as exc:
            problem = exc
    if canonical is None:
        raise Unmappable(f"key card '{text}' does not parse: {problem}")
    if re.sub(r"\s", "", canonical) != re.sub(r"\s", "", glyphs):
        raise Unmappable(f"key card '{text}' is written differently from the canonical '{canonical}'; "
                         f"write it as '{to_official_key(canonical)}'")
    what = "key card with half-width digits" if narrow != text.strip() else "key card respaced"
    return canonical, (Normalised(text, canonical, what) if canonical != text else None)


def to_official_key(text: str) -> str:
    """Our canonical key-card text as the official files write it (〜 and ♢)."""
    return text.replace("~", "〜").replace("◇", "♢")


# --- costs, notes, labels ------------------------------------------------------------------------

def read_cost(text: str) -> list[str]:
    """``actCost`` letters, one per payment; anything else is refused here, with the expected form, rather than
    later as a vague schema error."""
    letters = [c for c in text if not c.isspace()]
    bad = [c for c in letters if c not in COST_LETTERS]
    if bad or not letters:
        raise Unmappable(f"'{text}' is not a cost; expected letters B, L, D, S, C (or K), one per payment, e.g. 'BBL'")
    return letters


def read_note(text: str) -> str:
    """特記事項 without its leading ※ (our lists print the mark)."""
    text = text.strip()
    return text[len(NOTE_MARK):].strip() if text.startswith(NOTE_MARK) else text


_LABEL = re.compile(r"^(?P<name>[^（）()]+?)\s*(?:[（(](?P<condition>.+)[）)])?$")


def read_labels(text: str) -> list[str | dict[str, str]]:
    """``アタッカー, ブロッカー, 速攻（キーカードに A が含まれる場合のみ）`` → names, a condition in brackets."""
    out: list[str | dict[str, str]] = []
    for piece in re.split(r"[,、]", text):
        piece = piece.strip()
        if not piece:
            continue
        match = _LABEL.match(piece)
        if not match:
            raise Unmappable(f"'{piece}' is not a label; expected a name, with its condition in （） if it has one")
        name, condition = match["name"].strip().strip("<>"), match["condition"]
        out.append({"name": name, "condition": condition} if condition else name)
    return out


def write_labels(labels: list[tuple[str, str | None]]) -> str:
    """``charLabel``: a conditional label keeps its condition in full-width brackets, as the official files write
    it."""
    return ", ".join(f"{name}（{condition}）" if condition else name for name, condition in labels)


_ABILITY = re.compile(r"^【(?P<name>[^】]+)】\s*(?P<text>.+)$", re.S)
# 「魔力増加（このキャラクターが場にいる間、…）」: a short name (no sentence mark) with its text in brackets
_ABILITY_BRACKETED = re.compile(r"^(?P<name>[^（(【。、\s]{1,16})[（(](?P<text>.+)[）)]$", re.S)


def read_abilities(text: str) -> list[str | dict[str, str]]:
    """charAbility: one ability per ``・`` line (a line without it continues the one above); ``【name】text`` and
    ``name（text）`` are named abilities."""
    items: list[str] = []
    for line in text.strip().splitlines():
        if line.startswith("・") or not items:
            items.append(line.removeprefix("・").strip())
        elif line.strip():
            items[-1] += "\n" + line.strip()
    out: list[str | dict[str, str]] = []
    for item in items:
        match = _ABILITY.match(item) or _ABILITY_BRACKETED.match(item)
        out.append({"name": match["name"], "text": match["text"]} if match else item)
    return out


def write_abilities(abilities: list[tuple[str, str]]) -> str:
    """``charAbility``/``trumpAbility``: one ``・`` line per ability, a named one as ``【name】text``."""
    return "\n".join(f"・【{name}】{text}" if name else f"・{text}" for name, text in abilities)
