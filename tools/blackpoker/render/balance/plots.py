"""The report's plots as SVG text, drawn by matplotlib (Agg, no display) with the Japanese font of the machine.

Text is drawn as paths (``svg.fonttype = path``), so a plot shows the same everywhere without the font, and the
SVG ids are salted by a constant, so the same study draws byte-identical plots.

The plots are drawn for a phone: narrow (:data:`WIDTH`) with large text (:data:`FONT_PT`), so that scaled down to a
390 px screen's column their smallest text is still at least 11 px; on a desktop they keep that size.
"""

from __future__ import annotations

import io
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib import font_manager
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from blackpoker.render.fonts import PLOTS

WIDTH = 4.0  # inches: with its labels, a plot is about 330 pt (440 px) wide
FONT_PT = 11.5  # every text of a plot, tick labels and legends included


def _setup() -> None:
    available = {f.name for f in font_manager.fontManager.ttflist}
    plt.rcParams.update({
        "font.family": [f for f in PLOTS if f in available] or [PLOTS[-1]],
        "svg.fonttype": "path", "svg.hashsalt": "blackpoker-balance", "axes.unicode_minus": False,
        "figure.dpi": 96, "font.size": FONT_PT, "axes.labelsize": FONT_PT, "xtick.labelsize": FONT_PT,
        "ytick.labelsize": FONT_PT, "legend.fontsize": FONT_PT,
    })


def _plain(value: float, _position: object = None) -> str:
    """A log axis's tick as a reader writes the number (0.1, 1, 10), not as a power of ten."""
    return f"{value:g}"


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def win_rates(regs: list[dict[str, Any]]) -> str:
    """First- and second-player win rates with their 95% intervals, one pair of bars per regulation."""
    _setup()
    fig, ax = plt.subplots(figsize=(WIDTH, 3.0))
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
    fig, ax = plt.subplots(figsize=(WIDTH, 2.8))
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
    fig, ax = plt.subplots(figsize=(WIDTH, 0.9 + 0.3 * max(1, len(rows))))
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
    """Requests, resolutions and negations per game, one row per action, on a log axis: a count of 0 has no bar
    (a log axis has no 0, so it shows no 「0」 tick either)."""
    _setup()
    rows = [a for a in actions if a["requested"] or a["resolved"]]
    fig, ax = plt.subplots(figsize=(WIDTH, 1.2 + 0.36 * max(1, len(rows))))
    ys = list(range(len(rows)))
    rates = [v / games for a in rows for v in (a["requested"], a["resolved"], a["negated"]) if v]
    low = min(rates, default=1.0) / 2  # the bars start at the axis's left end
    for dy, key, label, color in ((-0.27, "requested", "リクエスト", "#1f5fa8"), (0.0, "resolved", "解決", "#2b8a3e"),
                                  (0.27, "negated", "無効", "#c92a2a")):
        width = [a[key] / games - low if a[key] else 0.0 for a in rows]
        ax.barh([y + dy for y in ys], width, left=low, height=0.27, label=label, color=color)
    ax.set_yticks(ys, [a["name"] for a in rows])
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlim(low, max(rates, default=1.0) * 1.5)
    ax.xaxis.set_major_locator(LogLocator(base=10))
    ax.xaxis.set_major_formatter(FuncFormatter(_plain))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel("1ゲームあたりの回数")
    ax.legend(frameon=False, loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=3, borderaxespad=0.2)
    return _svg(fig)
