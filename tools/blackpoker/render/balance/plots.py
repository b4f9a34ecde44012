"""The report's plots as SVG text, drawn by matplotlib (Agg, no display) with the Japanese font of the machine.

Text is drawn as paths (``svg.fonttype = path``), so a plot shows the same everywhere without the font, and the
SVG ids are salted by a constant, so the same study draws byte-identical plots.
"""

from __future__ import annotations

import io
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib import font_manager

from blackpoker.render.fonts import PLOTS


def _setup() -> None:
    available = {f.name for f in font_manager.fontManager.ttflist}
    plt.rcParams.update({
        "font.family": [f for f in PLOTS if f in available] or [PLOTS[-1]],
        "svg.fonttype": "path", "svg.hashsalt": "blackpoker-balance", "axes.unicode_minus": False,
        "figure.dpi": 96,
    })


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def win_rates(regs: list[dict[str, Any]]) -> str:
    """First- and second-player win rates with their 95% intervals, one pair of bars per regulation."""
    _setup()
    fig, ax = plt.subplots(figsize=(6.4, 3.2))
    names = [r["name"] for r in regs]
    for offset, key, label, color in ((-0.18, "first_player", "先攻", "#1f5fa8"), (0.18, "second_player", "後攻", "#d0662c")):
        xs = [i + offset for i in range(len(regs))]
        ys = [r[key]["rate"] for r in regs]
        err = [[max(0.0, y - r[key]["low"]) for y, r in zip(ys, regs, strict=True)],
               [max(0.0, r[key]["high"] - y) for y, r in zip(ys, regs, strict=True)]]
        ax.bar(xs, ys, width=0.34, yerr=err, capsize=4, label=label, color=color)
    ax.axhline(0.5, color="#888", linewidth=0.8, linestyle="--")
    ax.set_xticks(range(len(regs)), names)
    ax.set_ylim(0, 1)
    ax.set_ylabel("勝率")
    ax.legend(frameon=False)
    return _svg(fig)


def lengths(regs: list[dict[str, Any]]) -> str:
    """How many turns the games lasted (a step histogram per regulation)."""
    _setup()
    fig, ax = plt.subplots(figsize=(6.4, 3.0))
    for r in regs:
        hist = {int(k): v for k, v in r["turns"]["histogram"].items()}
        xs = list(range(min(hist), max(hist) + 1))
        ax.step(xs, [hist.get(x, 0) / r["games"] for x in xs], where="mid", label=r["name"])
    ax.set_xlabel("ターン数")
    ax.set_ylabel("ゲームの割合")
    ax.legend(frameon=False)
    return _svg(fig)


def association(rows: list[tuple[str, float, float, float]], xlabel: str) -> str:
    """Horizontal bars: the win rate with an item minus without it, with the interval of the rate with it
    (shifted by the rate without), one row per item."""
    _setup()
    fig, ax = plt.subplots(figsize=(6.4, 0.8 + 0.24 * max(1, len(rows))))
    ys = list(range(len(rows)))
    vals = [r[1] for r in rows]
    ax.barh(ys, vals, color=["#2b8a3e" if v >= 0 else "#c92a2a" for v in vals],
            xerr=[[max(0.0, r[1] - r[2]) for r in rows], [max(0.0, r[3] - r[1]) for r in rows]], capsize=2)
    ax.set_yticks(ys, [r[0] for r in rows])
    ax.invert_yaxis()
    ax.axvline(0, color="#444", linewidth=0.8)
    ax.set_xlim(-1, 1)
    ax.set_xlabel(xlabel)
    return _svg(fig)


def requests(actions: list[dict[str, Any]], games: int) -> str:
    """Requests, resolutions and negations per game, one row per action."""
    _setup()
    rows = [a for a in actions if a["requested"] or a["resolved"]]
    fig, ax = plt.subplots(figsize=(6.4, 0.8 + 0.24 * max(1, len(rows))))
    ys = list(range(len(rows)))
    ax.barh([y - 0.27 for y in ys], [a["requested"] / games for a in rows], height=0.27, label="リクエスト",
            color="#1f5fa8")
    ax.barh(ys, [a["resolved"] / games for a in rows], height=0.27, label="解決", color="#2b8a3e")
    ax.barh([y + 0.27 for y in ys], [a["negated"] / games for a in rows], height=0.27, label="無効", color="#c92a2a")
    ax.set_yticks(ys, [a["name"] for a in rows])
    ax.invert_yaxis()
    ax.set_xscale("symlog", linthresh=0.1)
    ax.set_xlabel("1ゲームあたりの回数")
    ax.legend(frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _svg(fig)
