"""Balance studies: the same seeds give the same games on one worker, two, or a Dask cluster; the report is
written whole, in Japanese, self-contained, with its plots and data."""

from __future__ import annotations

import csv
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from blackpoker import load_rules
from blackpoker.cli.main import cli
from blackpoker.core.paths import DEFINITIONS
from blackpoker.pipeline.balance import CONNECT_TIMEOUT, run_dask, run_local
from blackpoker.sim.balance.stats import summarize, wilson
from blackpoker.sim.balance.study import study_games

SPECS = study_games([("lite", None), ("mast", "extra")], ("ismcts:2", "greedy"), 3, 40)
TOOLS = Path(__file__).resolve().parents[1] / "tools"  # what the cluster's processes put on PYTHONPATH
STUDY = ["sim", "balance", "--regulation", "lite", "--regulation", "mast+extra", "--policies", "greedy,random",
         "--games", "10"]  # 20 games in 5 chunks: more than twice the cluster's threads, so Dask spreads them


def test_wilson_interval() -> None:
    low, high = wilson(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    assert wilson(0, 0) == (0.0, 0.0)
    low, high = wilson(0, 20)
    assert low == 0.0 and 0.16 < high < 0.17


def test_seats_alternate_and_seeds_follow() -> None:
    assert [s.policies for s in SPECS[:3]] == [("ismcts:2", "greedy"), ("greedy", "ismcts:2"), ("ismcts:2", "greedy")]
    assert [s.seed for s in SPECS] == [40, 41, 42] * 2


def test_one_worker_or_two_give_the_same_games() -> None:
    one = run_local(str(DEFINITIONS), SPECS, 1, progress=False)
    two = run_local(str(DEFINITIONS), SPECS, 2, progress=False)
    assert one == two
    assert [g.seed for g in one] == [s.seed for s in SPECS]


def test_a_dask_cluster_gives_the_same_games() -> None:
    distributed = pytest.importorskip("distributed")
    local = run_local(str(DEFINITIONS), SPECS[:3], 1, progress=False)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        remote = run_dask(load_rules(), SPECS[:3], cluster.scheduler_address, progress=False)
    assert remote == local


def _blackpoker(args: list[str]) -> subprocess.CompletedProcess[str]:
    """The command line as a user runs it, with this checkout's code."""
    return subprocess.run([sys.executable, "-m", "blackpoker", *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(TOOLS)}, cwd=TOOLS.parent)


def test_an_unreachable_scheduler_is_one_line_exit_1_after_the_connect_timeout(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{probe.getsockname()[1]}"
    start = time.monotonic()
    result = _blackpoker([*STUDY, "--scheduler", address, "--out", str(tmp_path / "out")])
    assert result.returncode == 1
    assert result.stderr == f"error: cannot reach the Dask scheduler at {address} " \
                            f"(no answer within {CONNECT_TIMEOUT} s)\n"
    assert time.monotonic() - start < CONNECT_TIMEOUT + 10  # not Dask's default of 30 s
    assert not (tmp_path / "out").exists()


def test_summary_counts_what_happened() -> None:
    rules = load_rules()
    games = run_local(str(DEFINITIONS), SPECS, 1, progress=False)
    summary = summarize(rules, games)
    lite, extra = summary["regulations"]
    assert lite["name"] == "ライト" and extra["name"] == "マスター + エクストラ"
    for reg, group in ((lite, games[:3]), (extra, games[3:])):
        decided = [g for g in group if g.winner is not None]
        assert reg["first_player"]["wins"] == sum(g.winner == g.first for g in decided)
        assert reg["first_player"]["wins"] + reg["second_player"]["wins"] == len(decided)
        end = next(a for a in reg["actions"] if a["id"] == "end")
        assert end["requested"] == sum(g.requested[p].get("end", 0) for g in group for p in (0, 1)) > 0
        assert sum(reg["policies"][p]["wins"] for p in ("ismcts:2", "greedy")) == len(decided)
    assert {t["id"] for t in extra["trumps"]} and not lite["trumps"]
    assert any(a["frame_action"] for a in extra["actions"]) and not any(a["frame_action"] for a in lite["actions"])


def test_cli_balance_writes_the_report(tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["sim", "balance", "--regulation", "lite", "--regulation", "mast+extra",
                                   "--policies", "greedy,random", "--games", "4", "--workers", "1",
                                   "--out", str(tmp_path)])
    assert out.exit_code == 0, out.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["actions.csv", "games.csv", "report.html", "study.json"]
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    for heading in ("先攻・後攻の勝率", "ゲームの長さ", "アクション:マスター + エクストラ", "切札と勝率", "貪欲法"):
        assert heading in html
    assert html.count("<svg") >= 5
    assert "<script" not in html and "<link" not in html and "src=" not in html and "url(http" not in html
    assert "greedy" not in html.replace("greedy,random", "")  # readers see the Japanese names
    data = json.loads((tmp_path / "study.json").read_text(encoding="utf-8"))
    assert data["summary"]["games"] == 8
    rows = list(csv.DictReader((tmp_path / "games.csv").open(encoding="utf-8")))
    assert len(rows) == 8 and {r["format"] for r in rows} == {"lite", "mast"}


@pytest.mark.parametrize(("args", "message"), [
    (["--policies", "greedy"], "not two policies"),
    (["--policies", "greedy,alpha"], "'alpha' is not a policy"),
    (["--regulation", "lite+extra"], "3.3"),
    (["--regulation", "huge"], "'huge' is not a format"),
])
def test_cli_balance_refuses_bad_arguments(tmp_path: Path, args: list[str], message: str) -> None:
    out = CliRunner().invoke(cli, ["sim", "balance", "--games", "1", "--out", str(tmp_path), *args])
    assert out.exit_code == 2 and message in out.output
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(("address", "problem"), [
    ("nonsense", "(missing port number in address 'nonsense')"),
    ("", "(missing port number in address '')"),
    ("tcp://127.0.0.1:99999", "(port 99999 is out of range)"),
    ("ftp://10.0.0.5:8786", "(unknown address scheme 'ftp'"),
])
def test_a_malformed_scheduler_address_is_bad_input_exit_2_before_connecting(tmp_path: Path, address: str,
                                                                             problem: str) -> None:
    out = CliRunner().invoke(cli, [*STUDY, "--scheduler", address, "--out", str(tmp_path)])
    assert out.exit_code == 2
    assert out.stderr.startswith(f"error: --scheduler: '{address}' is not a Dask scheduler address {problem}")
    assert out.stderr.count("\n") == 1 and out.stderr.endswith("expected e.g. tcp://10.0.0.5:8786\n")
    assert not list(tmp_path.iterdir())
