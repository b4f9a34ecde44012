"""Expectations: what a scenario says the position is, compared with the game, each a PASS or FAIL line."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from blackpoker.core.cards import Card, parse_card
from blackpoker.sim.abilities import all_labels, can_attack, size
from blackpoker.sim.scenario.refs import PLAYER_INDEX, Scenario, card_at, cards_at, character_at
from blackpoker.sim.state import (
    PLAYER_NAMES,
    Character,
    GameState,
    Player,
)
from blackpoker.sim.text import TYPE_NAMES, card_list, life_answer


@dataclass(frozen=True)
class ExpectationResult:
    """One expectation of a scenario checked against the game: passed or not, expected and actual."""

    step: int  # index of the script step after which it was checked (len(script) for the final block)
    name: str
    passed: bool
    expected: object
    actual: object

    def line(self) -> str:
        """The PASS/FAIL line the scenario runner prints, with the actual value when it failed."""
        mark = "PASS" if self.passed else "FAIL"
        text = f"{mark} {self.name} = {self.expected!s}"
        return text if self.passed else f"{text}(実際: {self.actual!s})"

    def readable_line(self) -> str:
        """The line as the verification report shows it to a reader: 「✓ 場.A: ♣3(防壁)」, no Python values."""
        mark = "✓" if self.passed else "✗"
        text = f"{mark} {readable_name(self.name)}: {readable(self.expected)}"
        return text if self.passed else f"{text}(実際: {readable(self.actual)})"


NAMES = {"stage": "ステージ", "resolved": "解決済み", "field": "場", "hand": "手札", "life": "ライフ", "graveyard": "墓地",
         "fog": "フォグ", "size": "サイズ", "labels": "ラベル", "turn": "ターン", "chance": "チャンス", "winner": "勝者",
         "illegal": "拒否", "can_attack": "攻撃できる", "trumps": "切札", "cards": "カード", "kind": "種類",
         "type": "タイプ", "driven": "ドライブ", "face_up": "表向き", "card": "カード"}
WORDS = {"bulwark": "防壁", "soldier": "兵士"}


def readable_name(name: str) -> str:
    """「field.A」 → 「場.A」: each known key in Japanese."""
    return ".".join(NAMES.get(part, part) for part in name.split("."))


def readable(value: object) -> str:
    """An expected or actual value in words a reader knows: cards as ♣3, lists joined by 、, no brackets or quotes."""
    if isinstance(value, bool):
        return "はい" if value else "いいえ"
    if value is None:
        return "なし"
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, str):
        try:
            return str(parse_card(value))
        except ValueError:
            return WORDS.get(value, value)
    if isinstance(value, dict):
        return "(" + "、".join(f"{NAMES.get(str(k), str(k))} {readable(v)}" for k, v in value.items()) + ")"
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=str) if isinstance(value, set | frozenset) else list(value)
        return "、".join(readable(v) for v in items) if items else "なし"
    return str(value)

@dataclass
class ScenarioResult:
    """A scenario run: its expectations' results, the play-by-play and the final state."""

    scenario: Scenario
    expectations: list[ExpectationResult] = field(default_factory=list)
    transcript: list[str] = field(default_factory=list)
    state: GameState | None = None

    @property
    def passed(self) -> bool:
        """A scenario passes when every expectation does; one that checks nothing fails, as it proves nothing."""
        return all(e.passed for e in self.expectations) and bool(self.expectations)

def _check(s: GameState, expect: dict[str, Any], step: int, result: ScenarioResult, path: tuple[Any, ...]) -> None:
    def add(name: str, expected: object, actual: object, same: bool | None = None) -> None:
        passed = expected == actual if same is None else same
        r = ExpectationResult(step, name, passed, expected, actual)
        result.expectations.append(r)
        result.transcript.append("　" + r.line())

    for key, value in expect.items():
        if key == "setup_error":
            continue  # checked when the game was set up
        if key == "winner":
            add("winner", value, None if s.winner is None else PLAYER_NAMES[s.winner])
        elif key in ("turn", "chance"):
            holder = s.turn_player if key == "turn" else s.chance
            add(key, value, "system" if holder is None else PLAYER_NAMES[holder])
        elif key == "stage":
            add("stage", value, [s.rules.action(r.action_id).name for r in s.stage])
        elif key == "resolved":
            add("resolved", value, list(s.resolved))
        elif key == "pending":
            add("pending", value, s.pending.prompt if s.pending else None)
        elif key == "labels":
            for ref, want in value.items():
                ch = s.find(character_at(s, ref, path + (key, ref)))
                add(f"labels[{ref}]", sorted(want), sorted(all_labels(s, ch)) if ch else None)
        elif key in ("pack_count", "pack_opened", "rare", "trumps"):
            for name, want in value.items():
                p = s.players[PLAYER_INDEX[name]]
                add(f"{key}.{name}", _show_frame(key, want, path + (key, name)), _frame_actual(p, key))
        elif key in ("size", "can_attack"):
            for ref, want in value.items():
                ch = s.find(character_at(s, ref, path + (key, ref))) if _exists(s, ref) else None
                got = None if ch is None else (size(s, ch) if key == "size" else can_attack(s, ch))
                add(f"{key}[{ref}]", want, got)
        else:
            for name, want in value.items():
                p = s.players[PLAYER_INDEX[name]]
                add(f"{key}.{name}", _show(key, want, path + (key, name)), _actual(s, p, key, want, path + (key, name)),
                    _same(s, p, key, want, path + (key, name)))

def _show_frame(key: str, want: Any, path: tuple[Any, ...]) -> object:
    """An expected frame-zone value in the form :func:`_frame_actual` reports (so equality compares them)."""
    if key == "rare":
        return [str(c) for c in cards_at(want, path)]
    if key == "trumps":
        return sorted((str(card_at(t["card"], path + (i, "card"))), bool(t["face_up"])) for i, t in enumerate(want))
    return want

def _frame_actual(p: Player, key: str) -> object:
    if key == "pack_count":
        return len(p.pack)
    if key == "pack_opened":
        return p.pack_opened
    if key == "rare":
        return [str(c) for c in p.rare]
    return sorted((str(t.card), t.face_up) for t in p.trumps)

def _exists(s: GameState, ref: str) -> bool:
    owner, _, card_text = str(ref).partition(":")
    try:
        card = parse_card(card_text)
    except ValueError:
        return False
    return any(card in ch.cards for ch in s.players[PLAYER_INDEX.get(owner, 0)].field)

def _show(key: str, value: Any, path: tuple[Any, ...]) -> object:
    if key in ("hand", "graveyard", "fog", "life_top", "graveyard_top_in"):
        return card_list(sorted(cards_at(value, path))) if key != "life_top" else \
            [str(c) for c in cards_at(value, path)]
    return value

def _cards_of(p: Player, key: str) -> list[Card]:
    if key == "hand":
        return list(p.hand)
    if key == "graveyard":
        return list(p.graveyard)
    if key == "fog":
        return [c for f in p.fog for c in f.cards]
    return list(p.life)

def _actual(s: GameState, p: Player, key: str, want: Any, path: tuple[Any, ...]) -> object:
    if key == "life":
        return len(p.life)
    if key in ("hand_count", "graveyard_count"):
        return len(_cards_of(p, key.split("_")[0]))
    if key == "life_inquiry":
        return life_answer(len(p.life))
    if key == "life_top":
        return [str(c) for c in p.life[:len(want)]]
    if key == "graveyard_top_in":
        return str(p.graveyard[-1]) if p.graveyard else None
    if key == "field":
        return [_char_summary(s, ch) for ch in p.field]
    return card_list(sorted(_cards_of(p, key)))

def _same(s: GameState, p: Player, key: str, want: Any, path: tuple[Any, ...]) -> bool:
    if key == "life":
        return bool(len(p.life) == want)
    if key in ("hand_count", "graveyard_count"):
        return bool(len(_cards_of(p, key.split("_")[0])) == want)
    if key == "life_inquiry":
        return bool(life_answer(len(p.life)) == want)
    if key == "life_top":
        return list(p.life[:len(want)]) == list(cards_at(want, path))
    if key == "graveyard_top_in":
        return bool(p.graveyard) and p.graveyard[-1] in cards_at(want, path)
    if key == "field":
        return _field_matches(s, p, want, path)
    return Counter(_cards_of(p, key)) == Counter(cards_at(want, path))

def _char_summary(s: GameState, ch: Character) -> dict[str, object]:
    out: dict[str, object] = {"cards": [str(c) for c in ch.cards], "kind": ch.kind, "type": TYPE_NAMES[ch.type_id],
                              "driven": ch.driven, "face_up": ch.face_up}
    if ch.kind == "soldier":
        out["size"] = size(s, ch)
    return out

def _field_matches(s: GameState, p: Player, want: list[dict[str, Any]], path: tuple[Any, ...]) -> bool:
    chars = list(p.field)
    if len(chars) != len(want):
        return False
    for i, item in enumerate(want):
        cards = set(cards_at(item["cards"], path + (i, "cards")))
        match = next((ch for ch in chars if set(ch.cards) == cards), None)
        if match is None:
            return False
        summary = _char_summary(s, match)
        for k in ("kind", "driven", "face_up", "size"):
            if k in item and summary.get(k) != item[k]:
                return False
        if "type" in item and item["type"] not in (match.type_id, TYPE_NAMES[match.type_id]):
            return False
        chars.remove(match)
    return True
