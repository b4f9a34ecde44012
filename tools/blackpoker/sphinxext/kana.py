"""Gojūon ordering of readings for the index (索引): a sort key and the kana group heading."""

from __future__ import annotations

_SMALL = str.maketrans("ぁぃぅぇぉっゃゅょゎ", "あいうえおつやゆよわ")
_VOICED = str.maketrans(
    "がぎぐげござじずぜぞだぢづでどばびぶべぼぱぴぷぺぽゔ",
    "かきくけこさしすせそたちつてとはひふへほはひふへほう")
_ROWS = ("あいうえお", "かきくけこ", "さしすせそ", "たちつてと", "なにぬねの",
         "はひふへほ", "まみむめも", "やゆよ", "らりるれろ", "わをん")
_VOWEL = {c: v for row in _ROWS[:7] + ("らりるれろ",) for c, v in zip(row, "あいうえお", strict=False)}
_VOWEL.update({"や": "あ", "ゆ": "う", "よ": "お", "わ": "あ", "を": "お"})


def to_hiragana(text: str) -> str:
    """Katakana → hiragana (the long-vowel mark and other characters are kept)."""
    return "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in text)


def to_katakana(text: str) -> str:
    """Hiragana → katakana (other characters kept): a reading as a reader may type it, 「ヘイシショウカン」."""
    return "".join(chr(ord(c) + 0x60) if "ぁ" <= c <= "ゖ" else c for c in text)


def _plain(reading: str) -> str:
    """The reading with small kana enlarged, voicing removed and ー replaced by the vowel before it."""
    out: list[str] = []
    for c in to_hiragana(reading).translate(_SMALL).translate(_VOICED):
        if c == "ー" and out:
            c = _VOWEL.get(out[-1], out[-1])
        out.append(c)
    return "".join(out)


def sort_key(reading: str) -> tuple[str, str]:
    """Unvoiced kana first, then the exact reading: か < が < かい, as Japanese indexes order them."""
    return (_plain(reading), to_hiragana(reading))


def group_of(reading: str) -> str:
    """The index heading a reading falls under: あ か さ た な は ま や ら わ, or 英数字 for anything else."""
    first = _plain(reading)[:1]
    for row in _ROWS:
        if first in row:
            return row[0]
    return "英数字"


GROUP_ORDER = tuple(row[0] for row in _ROWS) + ("英数字",)
