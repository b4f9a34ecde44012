"""Balance studies: the same seeds give the same games on one worker, two, or a Dask cluster; the report is
written whole, in Japanese, self-contained, with its plots and data."""

from __future__ import annotations

import contextlib
import csv
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from distributed import Client

from blackpoker import load_rules
from blackpoker.cli.main import cli
from blackpoker.core.paths import DEFINITIONS
from blackpoker.pipeline import balance
from blackpoker.pipeline.balance import CONNECT_TIMEOUT, ClusterError, run_dask, run_local
from blackpoker.sim.balance.stats import summarize, wilson
from blackpoker.sim.balance.study import study_games
from clirun import run_cli

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


def _start(module: str, args: list[str], log: Path, pythonpath: Path) -> subprocess.Popen[bytes]:
    """``python -m module args`` in a session of its own, so that stopping its process group also stops the
    processes it starts."""
    with log.open("wb") as out:
        return subprocess.Popen([sys.executable, "-m", module, *args], stdout=out, stderr=subprocess.STDOUT,
                                env={**os.environ, "PYTHONPATH": str(pythonpath)}, start_new_session=True)


def _stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the process group, then SIGKILL to whatever is left of it: no process outlives the test."""
    for sig, grace in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(grace)


def _scheduler_address(file: Path, scheduler: subprocess.Popen[bytes], log: Path) -> str:
    """The address the scheduler wrote into its scheduler file once it listens (it chose a free port)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and scheduler.poll() is None:
        with contextlib.suppress(FileNotFoundError, json.JSONDecodeError):
            return str(json.loads(file.read_text(encoding="utf-8"))["address"])
        time.sleep(0.1)
    pytest.fail("the Dask scheduler did not start:\n" + log.read_text(encoding="utf-8", errors="replace"))


@contextlib.contextmanager
def dask_cluster(tmp: Path, worker_paths: list[Path]) -> Iterator[str]:
    """A cluster as a user starts one, each part a separate process: `dask scheduler` on a free localhost port
    and one `dask worker` per PYTHONPATH in ``worker_paths``, all without a dashboard. Yields the scheduler's
    address once every worker has joined; all of them are stopped afterwards, whatever happened."""
    local = ["--host", "127.0.0.1", "--no-dashboard", "--dashboard-address", "127.0.0.1:0"]  # without a dashboard
    # Dask still serves its HTTP routes, by default on port 8787 of every interface: a free localhost port instead
    processes: list[subprocess.Popen[bytes]] = []
    try:
        log = tmp / "scheduler.log"
        processes.append(_start("distributed.cli.dask_scheduler", [
            *local, "--port", "0", "--scheduler-file", str(tmp / "scheduler.json")], log, TOOLS))
        address = _scheduler_address(tmp / "scheduler.json", processes[0], log)
        for i, path in enumerate(worker_paths):
            processes.append(_start("distributed.cli.dask_worker", [
                address, *local, "--nworkers", "1", "--nthreads", "1", "--local-directory", str(tmp / f"worker{i}")],
                tmp / f"worker{i}.log", path))
        with Client(address, timeout=10) as client:  # type: ignore[no-untyped-call]  # distributed is untyped
            client.wait_for_workers(len(worker_paths), timeout=30)
        yield address
    finally:
        for process in reversed(processes):
            _stop(process)


@contextlib.contextmanager
def _running(args: list[str]) -> Iterator[subprocess.Popen[str]]:
    """The command line as a user runs it, with this checkout's code; killed if still running afterwards."""
    process = subprocess.Popen([sys.executable, "-m", "blackpoker", *args], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(TOOLS)},
                               cwd=TOOLS.parent)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def _blackpoker(args: list[str]) -> subprocess.CompletedProcess[str]:
    """The command line run to its end in this process (tests/clirun.py: the same main(), exit codes and messages):
    the cluster's parts are the separate processes these tests are about, the client need not be one."""
    return run_cli(*args, cwd=TOOLS.parent)


@pytest.mark.slow  # starts a Dask scheduler and workers
def test_a_dask_cluster_of_separate_processes_gives_the_same_study_as_local_workers(tmp_path: Path) -> None:
    with dask_cluster(tmp_path, [TOOLS, TOOLS]) as address:
        remote = _blackpoker([*STUDY, "--scheduler", address, "--out", str(tmp_path / "cluster")])
        with Client(address, timeout=10) as client:  # type: ignore[no-untyped-call]  # distributed is untyped
            executed = client.run(lambda dask_worker: dask_worker.state.executed_count)
    assert remote.returncode == 0, remote.stderr
    assert len(executed) == 2 and all(executed.values()), executed  # both workers played
    local = _blackpoker([*STUDY, "--workers", "2", "--out", str(tmp_path / "local")])
    assert local.returncode == 0, local.stderr
    assert remote.stdout.splitlines()[:-1] == local.stdout.splitlines()[:-1]  # the last: "wrote OUT/report.html"
    for name in ("study.json", "games.csv", "actions.csv", "report.html"):  # nothing in them names the machine
        assert (tmp_path / "cluster" / name).read_bytes() == (tmp_path / "local" / name).read_bytes(), name
    assert json.loads((tmp_path / "cluster" / "study.json").read_text(encoding="utf-8"))["summary"]["games"] == 20


@pytest.mark.slow  # starts a Dask scheduler and workers
def test_workers_that_cannot_import_blackpoker_are_one_line_exit_1(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"  # no toolkit on this PYTHONPATH, only an empty package of its name (which
    # hides the blackpoker installed in the virtualenv, as on a machine where the toolkit is missing)
    (elsewhere / "blackpoker").mkdir(parents=True)
    (elsewhere / "blackpoker" / "__init__.py").write_text("", encoding="utf-8")
    with dask_cluster(tmp_path, [elsewhere]) as address:
        result = _blackpoker([*STUDY, "--scheduler", address, "--out", str(tmp_path / "out")])
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: the Dask worker tcp://127.0.0.1:")
    assert "cannot import blackpoker.sim.balance.study" in result.stderr and "PYTHONPATH" in result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.slow  # starts a Dask scheduler and workers
def test_losing_the_scheduler_during_a_study_is_one_line_exit_1(tmp_path: Path) -> None:
    long_study = ["sim", "balance", "--regulation", "lite", "--policies", "greedy,random", "--games", "5000"]
    with dask_cluster(tmp_path, [TOOLS]) as address, \
            _running([*long_study, "--scheduler", address, "--out", str(tmp_path / "out")]) as study:
        with Client(address, timeout=10) as client:  # type: ignore[no-untyped-call]  # distributed is untyped
            while not client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)):
                assert study.poll() is None, study.communicate()
                time.sleep(0.1)
            client.shutdown()  # the scheduler (and its worker) go away while the games run
        _, err = study.communicate(timeout=60)
    assert study.returncode == 1, err
    assert err == f"error: lost the connection to the Dask scheduler at {address} during the study\n"
    assert not (tmp_path / "out").exists()


class _ClientThatFailsToClose:
    """A Dask client whose scheduler went away: closing it raises from inside Dask (seen in CI, 1 run in about
    20 under load: ``RuntimeError: dictionary changed size during iteration`` from ``Client._reconnect``)."""

    closed = 0

    def __enter__(self) -> _ClientThatFailsToClose:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        type(self).closed += 1
        raise RuntimeError("dictionary changed size during iteration")


def test_an_error_while_closing_the_client_never_hides_the_lost_scheduler(monkeypatch: pytest.MonkeyPatch) -> None:
    def lost(client: object, scheduler: str) -> None:
        raise ClusterError(f"lost the connection to the Dask scheduler at {scheduler} during the study")
    monkeypatch.setattr(balance, "_connect", lambda scheduler, timeout: _ClientThatFailsToClose())
    monkeypatch.setattr(balance, "_check_imports", lost)
    with pytest.raises(ClusterError, match="lost the connection"):
        run_dask(load_rules(), [], "tcp://127.0.0.1:1", progress=False)
    assert _ClientThatFailsToClose.closed == 1  # closed all the same


def test_an_unreachable_scheduler_is_one_line_exit_1_after_the_connect_timeout(tmp_path: Path) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        address = f"tcp://127.0.0.1:{probe.getsockname()[1]}"
    start = time.monotonic()
    # a shorter wait than the default (tested below) keeps the test short; the client still starts in that time
    result = _blackpoker([*STUDY, "--scheduler", address, "--connect-timeout", "2", "--out", str(tmp_path / "out")])
    assert result.returncode == 1
    assert result.stderr == f"error: cannot reach the Dask scheduler at {address} (no answer within 2 s)\n"
    assert time.monotonic() - start < 2 + 10  # not Dask's default of 30 s
    assert not (tmp_path / "out").exists()


def test_the_default_connect_timeout_is_the_one_the_readme_and_the_help_give() -> None:
    """The tests above wait less than a user does by default: the default itself, as documented."""
    assert CONNECT_TIMEOUT == 5
    readme = " ".join((TOOLS.parent / "README.md").read_text(encoding="utf-8").split())
    assert f"a scheduler that does not answer within {CONNECT_TIMEOUT} seconds" in readme
    assert f"(given up after {CONNECT_TIMEOUT * 2} seconds, twice the timeout)" in readme
    shown = " ".join(CliRunner().invoke(cli, ["sim", "balance", "--help"]).output.split())
    assert f"(default: {CONNECT_TIMEOUT}, CONNECT_TIMEOUT in pipeline/balance.py)" in shown


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
    for heading in ("先攻・後攻の勝率", "ゲームの長さ", "アクション: マスター + エクストラ", "切札と勝率", "貪欲法"):
        assert heading in html
    assert html.count("<svg") >= 5
    assert "<script" not in html and "<link" not in html and "src=" not in html and "url(http" not in html
    assert "greedy" not in html.replace("greedy,random", "")  # readers see the Japanese names
    assert "：" not in html  # one colon, the book's ASCII one (issue 22, item 7)
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


def test_the_requests_plot_has_a_log_axis_without_a_0_tick() -> None:
    """Issue 22, item 8: the requests per game are on a log axis, which has no 0: a count of 0 has no bar, and no
    tick reads 「0」 (the symlog axis showed one) or a power of ten (10⁻¹): the ticks read as numbers do."""
    import re

    from blackpoker.render.balance.plots import requests
    actions = [{"name": "アタック", "requested": 5, "resolved": 3, "negated": 0},
               {"name": "チャージ", "requested": 60, "resolved": 58, "negated": 2}]
    svg = requests(actions, 10)
    texts = re.findall(r"<!-- (.*?) -->", svg)  # matplotlib names each text it draws as paths
    ticks = [t for t in texts if re.fullmatch(r"[0-9.$\\{}^a-z-]+", t)]
    shown = [re.sub(r"^\$\\mathdefault\{(.*)\}\$$", r"\1", t) for t in ticks]  # mathtext: 10^{-1}
    assert shown and "0" not in shown, shown
    assert not any("^" in t or "mathdefault" in t for t in shown), shown
    assert "1" in ticks and all(float(t) > 0 for t in ticks), ticks
    assert {"アタック", "チャージ", "リクエスト", "解決", "無効", "1ゲームあたりの回数"} <= set(texts), texts
