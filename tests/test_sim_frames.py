"""Frames in the simulator: the regulation check, deck conditions, setups, zones, labels and disclosure."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from click.testing import CliRunner

from blackpoker import load_rules
from blackpoker.cli.main import cli
from blackpoker.core.cards import Card, full_deck, parse_card
from blackpoker.core.model import Rules
from blackpoker.sim import frames, gaps, observe
from blackpoker.sim.abilities import all_labels
from blackpoker.sim.frames import SetupChoice, SetupError
from blackpoker.sim.observe import observation
from blackpoker.sim.requests import available_actions
from blackpoker.sim.selfplay import self_play
from blackpoker.sim.setup import new_game
from blackpoker.sim.state import Character, GameState, TrumpCard

# Table 3.1 of v8.1, copied from the rule book (not from the definitions), so the definitions are checked too.
TABLE_3_1 = {"lite": {"entry20"}, "std": {"pack", "rarepack"}, "pro": {"pack", "rarepack", "strategy"},
             "mast": {"pack", "rarepack", "strategy", "extra"}}
FRAMES = ("entry20", "pack", "rarepack", "strategy", "extra")
ALLOWED = [(fmt, frame) for fmt, frames in TABLE_3_1.items() for frame in sorted(frames)]


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules()


def cards(*texts: str) -> tuple[Card, ...]:
    return tuple(parse_card(t) for t in texts)


@pytest.mark.parametrize("fmt", sorted(TABLE_3_1))
@pytest.mark.parametrize("frame", FRAMES)
def test_regulations_follow_table_3_1(rules: Rules, fmt: str, frame: str) -> None:
    if frame in TABLE_3_1[fmt]:
        state = new_game(rules, fmt, 1, frame=frame)
        assert state.frame == frame
    else:
        with pytest.raises(SetupError, match="選べない対戦レギュレーション"):
            new_game(rules, fmt, 1, frame=frame)


def test_deck_conditions_are_checked(rules: Rules) -> None:
    deck = full_deck(2)
    with pytest.raises(SetupError, match=r"パック のデッキ条件「40枚以上」: A のデッキは 39 枚です"):
        new_game(rules, "std", 0, frame="pack", decks=(deck[:39], deck))
    new_game(rules, "std", 0, frame="pack", decks=(deck[:40], deck[:40]))  # exactly 40 is allowed
    entry = cards("SA", "S2", "S3", "S4", "S5", "HA", "H8", "H9", "H10", "HJ",
                  "DA", "D3", "D7", "D10", "DQ", "CA", "C5", "C6", "C10", "CK")
    wrong = entry[:-1] + cards("S6")
    with pytest.raises(SetupError, match=r"使えないカード ♠6、足りないカード ♣K"):
        new_game(rules, "lite", 0, frame="entry20", decks=(entry, wrong))
    with pytest.raises(SetupError, match=r"2.3: A のデッキに ♠A が2枚以上"):
        new_game(rules, "std", 0, frame="pack", decks=(deck[:45] + cards("SA"), deck))
    with pytest.raises(SetupError, match="Joker は2枚まで"):
        new_game(rules, "mast", 0, decks=(deck + (Card(None, 0, 3),), deck))


@pytest.mark.parametrize(("fmt", "frame"), ALLOWED)
def test_setups_place_every_card_once(rules: Rules, fmt: str, frame: str) -> None:
    for seed in range(5):
        state = new_game(rules, fmt, seed, frame=frame)
        first = state.turn_player
        for index, p in enumerate(state.players):
            assert len(p.hand) == 7 + (index == first)
            assert [ch.kind for ch in p.field] == ["bulwark", "soldier"]  # the preset
            assert not p.field[0].face_up and p.field[1].face_up and not any(ch.driven for ch in p.field)
            assert sorted(state.all_cards(index), key=str) == sorted(p.deck, key=str)
            assert len(p.pack) == (0 if frame == "entry20" else 14)
            assert len(p.rare) == (1 if frame in ("rarepack", "strategy", "extra") else 0)
            assert sorted(t.face_up for t in p.trumps) == ([False, True] if frame == "extra" else [])


def test_setup_choices_are_used_and_checked(rules: Rules) -> None:
    choice = SetupChoice(trumps=cards("S2", "H3"), starting=cards("SA", "SK", "DQ"), rare=parse_card("C7"),
                         reveal=parse_card("H3"))
    state = new_game(rules, "mast", 4, frame="extra", choices=(choice, None))
    a = state.players[0]
    assert set(cards("SA", "SK", "DQ")) <= set(a.hand)
    assert a.rare == cards("C7")
    assert {(t.card, t.face_up) for t in a.trumps} == {(parse_card("S2"), False), (parse_card("H3"), True)}
    with pytest.raises(SetupError, match="♣7 は A のデッキ"):
        new_game(rules, "mast", 4, frame="extra", choices=(replace(choice, starting=cards("SA", "SK", "C7")), None))
    with pytest.raises(SetupError, match="♠3 は A の切札ではありません"):
        new_game(rules, "mast", 4, frame="extra", choices=(replace(choice, reveal=parse_card("S3")), None))


def test_the_frame_decides_the_frame_actions(rules: Rules) -> None:
    def frame_actions(fmt: str, frame: str | None) -> set[str]:
        return {a.id for a in available_actions(new_game(rules, fmt, 0, frame=frame)) if a.frames}

    assert frame_actions("mast", None) == set()
    assert frame_actions("std", "pack") == {"pack-open"}
    assert frame_actions("std", "rarepack") == {"pack-open", "rare-draw", "rare-summon", "trap-counter"}
    assert len(frame_actions("mast", "extra")) == 11


def test_face_up_trumps_give_labels_to_soldiers_of_their_suit(rules: Rules) -> None:
    state = new_game(rules, "mast", 0, frame="extra")
    a = state.players[0]
    spade, heart, joker = (Character(900 + i, 0, cards(t), "soldier", "soldier") for i, t in enumerate(("S5", "H5", "JK")))
    a.trumps = (TrumpCard(990, parse_card("S2"), True), TrumpCard(991, parse_card("S5"), True))
    assert "スラッシュ" in all_labels(state, spade)
    assert "スラッシュ" not in all_labels(state, heart) and "スラッシュ" not in all_labels(state, joker)
    a.trumps = (TrumpCard(990, parse_card("S2"), False),)  # ruling trump-face-up: a 裏切札 gives nothing
    assert "スラッシュ" not in all_labels(state, spade)


def _seen_a(state: GameState, viewer: int) -> dict[str, Any]:
    """What ``viewer`` sees of player A (the observation is JSON-shaped data)."""
    players = observation(state, viewer)["プレイヤー"]
    assert isinstance(players, dict)
    seen: dict[str, Any] = players["A"]
    return seen


def test_observation_follows_the_disclosure_levels(rules: Rules) -> None:
    state = new_game(rules, "mast", 2, frame="extra")
    mine, theirs = _seen_a(state, 0), _seen_a(state, 1)
    a = state.players[0]
    assert mine["手札"]["個人公開"] == [str(c) for c in a.hand] and "個人公開" not in theirs["手札"]
    assert theirs["レアカード"] == {"完全公開": 1}
    face_down = next(t for t in a.trumps if not t.face_up)
    assert mine["切札"]["個人公開"] == [str(face_down.card)]
    assert str(face_down.card) not in json.dumps(_seen_a(state, 1)["切札"], ensure_ascii=False)
    assert mine["パック"] == {"完全公開": "未開封", "個人公開": None}  # 非公開 even for its owner
    a.pack_opened = True
    assert _seen_a(state, 0)["パック"]["個人公開"] == [str(c) for c in a.pack]
    assert _seen_a(state, 1)["パック"] == {"完全公開": "開封済み"}
    assert mine["ライフ"]["完全公開"] == "10枚以上です" and "個人公開" not in theirs["ライフ"]


@pytest.mark.parametrize(("fmt", "frame"), ALLOWED)
def test_random_games_keep_the_invariants(rules: Rules, fmt: str, frame: str) -> None:
    stats = self_play(rules, fmt, 15, 100, frame)
    assert stats.failures == []
    assert stats.games == 15 and sum(stats.winners.values()) == 15


def test_extra_self_play_resolves_every_frame_action(rules: Rules) -> None:
    stats = self_play(rules, "mast", 60, 0, "extra")
    assert stats.failures == []
    assert [a.name for a in rules.frame_actions if stats.resolved[a.name] == 0] == []


def test_check_reports_a_frame_without_setup_or_a_zone_without_view(rules: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(frames.SETUPS, "pack")
    monkeypatch.delitem(observe.VIEWS, "rare")
    assert gaps.missing_effects(rules) == ["frame 'pack' has no setup in the simulator",
                                           "zone 'rare' has no disclosure view in the simulator"]


def test_sim_play_cli_refuses_a_pair_table_3_1_forbids() -> None:
    runner = CliRunner()
    refused = runner.invoke(cli, ["sim", "play", "--format", "lite", "--frame", "pack", "--games", "1"])
    assert refused.exit_code == 2
    assert "ライト + パック は選べない対戦レギュレーション" in refused.output and "Traceback" not in refused.output
    played = runner.invoke(cli, ["sim", "play", "--format", "mast", "--frame", "extra", "--games", "3"])
    assert played.exit_code == 0, played.output
    assert "マスター + エクストラ: games: 3" in played.output and "frame actions resolved: パック開封" in played.output
