"""The play page's engine in CPython: the moves it offers are exactly the legal decisions, a game against each
opponent ends with a winner, undo, the record replays with ``blackpoker sim replay``, and the person sees only
what 2.11.1 lets them see."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from blackpoker.core.export import export_json
from blackpoker.core.loader import load_rules
from blackpoker.core.model import Rules
from blackpoker.play import browser
from blackpoker.play.gameview import moves, play_by_play, view
from blackpoker.play.session import Game, PlayError, resume, start
from blackpoker.render.board import CHANGED, board_svg
from blackpoker.sim.decisions import RequestAction
from blackpoker.sim.engine import apply, legal_decisions
from blackpoker.sim.state import PLAYER_NAMES
from clirun import run_cli


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules()


def offered(game: Game) -> list[int]:
    """Every move index the page offers now (a move under two key cards counted once per place)."""
    tree = moves(game)
    if tree["kind"] == "question":
        return [o["move"] for o in tree["options"]]
    if tree["kind"] == "wait":
        return []
    found = [tree["pass"]] if tree["pass"] is not None else []
    for group in tree["groups"]:
        for action in group["actions"]:
            found += [m["move"] for m in action["moves"]]
    return found


def play_out(game: Game, seed: int, *, check_offers: bool = True) -> Game:
    rng = random.Random(seed)
    while not game.over:
        if game.human_to_act:
            legal = game.legal()
            if check_offers:
                assert set(offered(game)) == set(range(len(legal))), "the page offers exactly the legal decisions"
            game.play(rng.randrange(len(legal)))
        else:
            game.opponent_step()
    return game


@pytest.mark.parametrize("opponent", ["random", "greedy", "ismcts:4"])
def test_a_whole_game_against_each_opponent(rules: Rules, opponent: str) -> None:
    game = play_out(start(rules, "lite", None, opponent, 11), 3)
    shown = view(game)
    assert shown["winner"] in PLAYER_NAMES
    assert shown["game_over"] == f"{shown['winner']}の勝利"
    assert shown["moves"] == {"kind": "wait"}


@pytest.mark.parametrize(("fmt", "frame"), [("mast", "extra"), ("lite", "entry20"), ("std", "pack")])
def test_frames_offer_exactly_the_legal_decisions(rules: Rules, fmt: str, frame: str) -> None:
    play_out(start(rules, fmt, frame, "greedy", 5), 2)


def test_who_starts(rules: Rules) -> None:
    for seed in range(4):
        first = start(rules, "lite", None, "random", seed, starts="human")
        assert first.state.turn_player == first.human and first.human_to_act
        second = start(rules, "lite", None, "random", seed, starts="computer")
        assert second.state.turn_player != second.human
        assert start(rules, "lite", None, "random", seed, starts="cards").human == 0


def test_refusals(rules: Rules) -> None:
    with pytest.raises(PlayError):
        start(rules, "lite", None, "nobody", 1)
    game = start(rules, "lite", None, "random", 1)
    with pytest.raises(PlayError):
        game.play(len(game.legal()))
    answer = json.loads(browser.handle(json.dumps({"command": "play", "move": -1})))
    assert answer["ok"] is False


def test_undo_takes_back_the_persons_last_decision_and_the_answers(rules: Rules) -> None:
    game = start(rules, "lite", None, "greedy", 4)
    rng = random.Random(0)
    for _ in range(6):
        while not game.human_to_act:
            game.opponent_step()
        game.play(rng.randrange(len(game.legal())))
    before_last = game.undo_points[-1][0]
    count = game.undo_points[-1][1]
    while not game.human_to_act and not game.over:
        game.opponent_step()
    assert game.undo()
    assert game.state is before_last
    assert len(game.decisions) == count
    while game.undo():
        pass
    assert game.decisions == [] or all(p != game.human for p, _ in game.decisions)
    assert not game.undo()


def test_the_record_replays_with_the_command_line(rules: Rules, tmp_path: Path) -> None:
    game = play_out(start(rules, "std", None, "greedy", 21), 8)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game.record_data(), ensure_ascii=False), encoding="utf-8")
    done = run_cli("sim", "replay", str(path))
    assert done.returncode == 0, done.stdout + done.stderr
    assert game.state.winner is not None and PLAYER_NAMES[game.state.winner] in done.stdout
    again = resume(rules, json.loads(path.read_text(encoding="utf-8")))
    assert browser.final_state(again.state) == browser.final_state(game.state)


def test_the_same_decisions_give_the_same_game(rules: Rules) -> None:
    game = play_out(start(rules, "pro", "pack", "greedy", 8), 1)
    record = game.to_record()
    state = start(rules, "pro", "pack", "greedy", 8).state
    for _, decision in record.players:
        assert decision in legal_decisions(state)
        state = apply(state, decision)
    assert browser.final_state(state) == browser.final_state(game.state)


def test_commands_as_the_worker_sends_them(rules: Rules) -> None:
    assert browser.load(export_json(rules)) == rules.edition.version

    def run(**command: Any) -> dict[str, Any]:
        answer: dict[str, Any] = json.loads(browser.handle(json.dumps(command)))
        assert answer["ok"], answer
        return answer

    shown = run(command="new", format="lite", frame=None, opponent="greedy", seed=9, starts="computer")["view"]
    rng = random.Random(2)
    while shown["winner"] is None:
        if shown["to_act"] == shown["you"]:
            shown = run(command="play", move=rng.choice(_moves(shown["moves"])))["view"]
        else:
            step = run(command="step")
            assert step["did"] and step["seconds"] >= 0
            shown = step["view"]
    record = run(command="record")["record"]
    final = run(command="final")["state"]
    resumed = run(command="resume", record=record)["view"]
    assert resumed["winner"] == shown["winner"]
    assert run(command="final")["state"] == final


def _moves(tree: dict[str, Any]) -> list[int]:
    if tree["kind"] == "question":
        return [o["move"] for o in tree["options"]]
    return [tree["pass"], *(m["move"] for g in tree["groups"] for a in g["actions"] for m in a["moves"])]


def test_the_board_shows_the_persons_observation_only(rules: Rules) -> None:
    """Two positions that differ only in what the person cannot see (the opponent's hand and life order) draw the
    same board; the opponent's life shows as 2.11.1 answers it."""
    game = start(rules, "lite", None, "greedy", 3)
    opponent = 1 - game.human
    other = game.state.clone()
    p = other.players[opponent]
    n = len(p.hand)
    p.hand, p.life = p.life[:n], p.hand + p.life[n:]
    assert other.players[opponent].hand != game.state.players[opponent].hand
    assert (board_svg(game.state, "盤面", hidden_hands=(opponent,)) == board_svg(other, "盤面", hidden_hands=(opponent,)))
    assert board_svg(game.state, "盤面") != board_svg(other, "盤面")  # drawn whole, the hands differ
    svg = view(game)["board"]
    assert len(game.state.players[opponent].life) >= 10 and "ライフ 10枚以上" in svg
    assert f"ライフ {len(game.state.players[game.human].life)} " in svg


def _band_heights(svg: str) -> dict[str, float]:
    """Where each player's band starts on a board (the y of its name line)."""
    found = re.findall(r'<text x="10.0" y="([\d.]+)" font-size="12"[^>]*font-weight="bold">([AB])(?: \(ターン\))?</text>',
                       svg)
    return {name: float(y) for y, name in found}


def test_the_person_sits_at_the_bottom_of_the_board(rules: Rules) -> None:
    """The board is drawn as the person sees the table: the person's band below, whichever seat they have."""
    seats = set()
    for seed in range(6):
        for starts in ("human", "computer"):
            game = start(rules, "lite", None, "greedy", seed, starts=starts)
            me, other = PLAYER_NAMES[game.human], PLAYER_NAMES[1 - game.human]
            y = _band_heights(view(game)["board"])
            assert set(y) == {"A", "B"}, y
            assert y[me] > y[other], (seed, starts, y)
            seats.add(game.human)
    assert seats == {0, 1}, "both seats were tried"
    y = _band_heights(board_svg(game.state, "盤面"))
    assert y["A"] > y["B"], "the rulebook's boards keep A below"


def test_the_play_by_play_hides_the_opponents_face_down_bulwarks(rules: Rules) -> None:
    game = start(rules, "mast", "extra", "greedy", 3)  # its setup puts a bulwark down for each player
    other = PLAYER_NAMES[1 - game.human]
    lines = ["".join(piece[0] for piece in line) for line in play_by_play(game)]
    hidden = [line for line in lines if f"{other}の防壁[" in line]
    assert hidden, "the setup puts bulwarks down"
    assert all(f"{other}の防壁[伏せ]" in line for line in hidden)
    mine = PLAYER_NAMES[game.human]
    assert any(f"{mine}の防壁[" in line and "[伏せ]" not in line for line in lines), "the person sees their own"


def test_cards_that_moved_are_marked(rules: Rules) -> None:
    game = start(rules, "lite", None, "greedy", 6, starts="human")
    legal = game.legal()
    bulwark = next(i for i, d in enumerate(legal) if getattr(d, "action_id", "") == "bulwark-set")
    chosen = legal[bulwark]
    assert isinstance(chosen, RequestAction)
    card = chosen.keys[0]
    game.play(bulwark)
    shown = view(game)
    assert str(card) in shown["moved"], "the person's own bulwark: they know the card (個人公開)"
    summons = [i for i, d in enumerate(game.legal()) if getattr(d, "action_id", "") == "soldier-summon"]
    assert summons and game.human_to_act
    summon = game.legal()[summons[0]]
    assert isinstance(summon, RequestAction)
    key = summon.keys[0]
    game.play(summons[0])
    while game.to_act not in (game.human, None):  # the computer answers
        game.opponent_step()
    assert str(key) in view(game)["moved"]
    assert f'stroke="{CHANGED}"' in view(game)["board"]  # the board marks what changed since the person's decision


def test_action_names_link_to_the_action_list(rules: Rules) -> None:
    game = play_out(start(rules, "lite", None, "greedy", 2), 5, check_offers=False)
    links = [piece for line in play_by_play(game) for piece in line if len(piece) == 2]
    assert links
    for text, href in links:
        action = next(a for a in rules.actions if f"「{a.name}」" == text)
        assert href == f"../actionlist/html/all.html#act-{action.id}"


def test_every_worked_example_starts_from_its_position(rules: Rules) -> None:
    """「この局面から遊ぶ」: each example's start, as the build writes it, reads back as the scenario's start."""
    from blackpoker.core.paths import SCENARIOS
    from blackpoker.pipeline.playpage import example_positions
    from blackpoker.play.position import decode_state, encode_state
    from blackpoker.play.session import from_position
    from blackpoker.sim.engine import current_player
    from blackpoker.sim.scenario import build_start, load_scenario
    positions = example_positions(rules)
    assert set(positions) == {p.stem for p in (SCENARIOS / "examples").glob("*.yaml")}
    for stem, position in positions.items():
        data = json.loads(json.dumps(position["state"]))
        state = decode_state(rules, data)
        start = build_start(load_scenario(SCENARIOS / "examples" / f"{stem}.yaml", rules), rules, record=True)
        assert browser.final_state(state) == browser.final_state(start), stem
        assert encode_state(state) == encode_state(start), stem
        game = from_position(rules, state, "greedy", 0)
        assert game.human == current_player(start)
        assert set(offered(game)) == set(range(len(game.legal()))), stem
        with pytest.raises(PlayError):
            game.to_record()


def test_the_play_by_play_links_each_line_once_and_reads_as_if_linked_afresh(rules: Rules,
                                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The page gets the whole play-by-play after every move: each line is linked once per game (a move costs its
    new lines), and what the page gets is what linking every line afresh gives, after an undo too."""
    from blackpoker.play import playbyplay
    calls: list[str] = []
    real = playbyplay.linked

    def counted(line: str, names: dict[str, str]) -> list[list[str]]:
        calls.append(line)
        return real(line, names)

    monkeypatch.setattr(playbyplay, "linked", counted)
    game = start(rules, "mast", "extra", "random", 11)  # face-down bulwarks: lines the person reads hidden
    names = {a.name: playbyplay.action_href(a) for a in rules.actions}

    def afresh() -> list[list[list[str]]]:
        return [real(playbyplay.private_to(line, game.human), names) for line in game.state.events or ()]

    rng = random.Random(11)
    seen: set[str] = set()
    for _ in range(60):
        if game.over:
            break
        if game.human_to_act:
            game.play(rng.randrange(len(game.legal())))
        else:
            game.opponent_step()
        assert play_by_play(game) == afresh()
        seen |= set(game.state.events or ())
    assert len(seen) > 20, "the game went on long enough to say something"
    assert game.undo() and play_by_play(game) == afresh()
    assert len(calls) == len(seen), "each line was linked exactly once"
    assert set(calls) == {playbyplay.private_to(line, game.human) for line in seen}
