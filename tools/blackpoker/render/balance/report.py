"""report.html (Japanese, self-contained: inline SVG and CSS, no script, no network) and the study's data:
study.json (every figure), games.csv (one row per game), actions.csv (one row per regulation and action)."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from markupsafe import Markup, escape

from blackpoker.render import fonts
from blackpoker.render.balance import plots
from blackpoker.sim.match import GameSummary
from blackpoker.sim.policies import policy_name

CSS = fonts.stylesheet() + """
body{font-family:var(--bp-font-even);margin:2em auto;max-width:60em;
line-height:1.6;color:#222;padding:0 1em}
h1{font-size:1.6em;border-bottom:2px solid #1f5fa8}h2{margin-top:2em;border-left:6px solid #1f5fa8;padding-left:.4em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .6em;text-align:right}
th{background:#eef3fa}td:first-child,th:first-child{text-align:left}.note{color:#555;font-size:.9em}
figure{margin:1em 0}svg{max-width:100%;height:auto}
.wide{overflow-x:auto;max-width:100%}th,td{white-space:nowrap}
:root{color-scheme:light dark}
@media (prefers-color-scheme:dark){body{background:#131416;color:#e6e8ee}th{background:#1f2a44}td,th{border-color:#3a3f4a}
.note{color:#aab0bc}h1,h2{border-color:#8fb0ff}a{color:#8fb0ff}figure svg{background:#fff;border-radius:4px}}
"""
# Tables scroll sideways in their box on a phone (a column header is never broken one character a line); a dark
# browser gets a dark page, with each plot kept on its white paper (it is drawn for white).


def _pct(r: dict[str, Any]) -> str:
    if not r["games"]:
        return "—"
    return f"{r['rate'] * 100:.1f}%({r['low'] * 100:.1f}–{r['high'] * 100:.1f}%)"


def _table(head: list[str], rows: list[list[object]]) -> str:
    out = ["<div class=wide><table><thead><tr>", *(f"<th>{escape(h)}</th>" for h in head), "</tr></thead><tbody>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in row) + "</tr>")
    out.append("</tbody></table></div>")
    return "".join(out)


def _assoc_rows(items: list[dict[str, Any]], with_key: str, without_key: str) -> list[tuple[str, float, float, float]]:
    rows = []
    for it in items:
        if it["association"] is None:
            continue
        base = it[without_key]["rate"]
        w = it[with_key]
        rows.append((it["name"], w["rate"] - base, w["low"] - base, w["high"] - base))
    return rows


def html(summary: dict[str, Any], meta: dict[str, Any]) -> str:
    regs = summary["regulations"]
    pair = "対".join(policy_name(p) for p in meta["policies"])
    parts = [f"<h1>バランス調査レポート</h1><p>方針 {escape(pair)}、各対戦レギュレーション {meta['games_per_regulation']} "
             f"ゲーム(シード {meta['seed']} から)。</p>"]
    parts.append("<h2>先攻・後攻の勝率</h2>")
    parts.append(_table(["対戦レギュレーション", "ゲーム数", "決着", "先攻勝率(95%区間)", "後攻勝率(95%区間)"],
                        [[r["name"], r["games"], r["decided"], _pct(r["first_player"]), _pct(r["second_player"])]
                         for r in regs]))
    parts.append(f"<figure>{plots.win_rates(regs)}</figure>")
    parts.append("<h2>方針ごとの勝率</h2>")
    parts.append(_table(["対戦レギュレーション", "方針", "ゲーム数", "勝率(95%区間)"],
                        [[r["name"], policy_name(pol), v["games"], _pct(v)] for r in regs
                         for pol, v in r["policies"].items()]))
    parts.append("<h2>ゲームの長さ</h2>")
    parts.append(_table(["対戦レギュレーション", "平均ターン数", "最短", "最長", "平均判断数", "終わり方"],
                        [[r["name"], f"{r['turns']['mean']:.1f}", r["turns"]["min"], r["turns"]["max"],
                          f"{r['decisions_mean']:.0f}", "、".join(f"{END_NAMES.get(k, k)} {v}" for k, v in r["ends"].items())]
                         for r in regs]))
    parts.append(f"<figure>{plots.lengths(regs)}</figure>")
    for r in regs:
        parts.append(f"<h2>アクション: {escape(r['name'])}</h2>")
        parts.append("<p class=note>関連は因果ではありません: そのアクションをリクエスト(または解決)したプレイヤーの勝率と、"
                     "しなかったプレイヤーの勝率の差です。</p>")
        parts.append(_table(["アクション", "リクエスト", "解決", "無効", "使用率", "使用時の勝率(95%区間)", "不使用時の勝率", "関連"],
                            [[a["name"] + ("(フレーム)" if a["frame_action"] else ""), a["requested"], a["resolved"],
                              a["negated"], f"{a['used_share'] * 100:.0f}%", _pct(a["win_when_used"]),
                              _pct(a["win_when_not_used"]),
                              "—" if a["association"] is None else f"{a['association'] * 100:+.1f}pt"]
                             for a in r["actions"]]))
        parts.append(f"<p>一度も使われなかったアクション: {escape('、'.join(r['never_used']) or 'なし')}<br>"
                     f"必ず使われたアクション: {escape('、'.join(r['always_used']) or 'なし')}</p>")
        parts.append(f"<figure>{plots.requests(r['actions'], r['games'])}</figure>")
        rows = _assoc_rows(r["actions"], "win_when_used", "win_when_not_used")
        if rows:
            parts.append(f"<figure>{plots.association(rows, '使用時の勝率 − 不使用時の勝率')}</figure>")
        if r["trumps"]:
            parts.append(f"<h2>切札と勝率: {escape(r['name'])}</h2>")
            parts.append(_table(["切札", "持ったプレイヤー", "持った時の勝率(95%区間)", "持たない時の勝率", "関連"],
                                [[t["name"], t["held"], _pct(t["win_when_held"]), _pct(t["win_when_not_held"]),
                                  "—" if t["association"] is None else f"{t['association'] * 100:+.1f}pt"]
                                 for t in r["trumps"]]))
            rows = _assoc_rows(r["trumps"], "win_when_held", "win_when_not_held")
            if rows:
                parts.append(f"<figure>{plots.association(rows, '持った時の勝率 − 持たない時の勝率')}</figure>")
    body = Markup("\n".join(parts))
    return (f"<!DOCTYPE html>\n<html lang=ja><head><meta charset=utf-8><title>バランス調査レポート</title>"
            f"<meta name=viewport content='width=device-width'><style>{CSS}</style></head><body>{body}</body></html>\n")


END_NAMES = {"win": "決着", "turn-cap": "ターン上限", "stalled": "判断数上限", "invariant": "不変条件違反", "error": "エラー"}


def games_csv(games: list[GameSummary]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["seed", "format", "frame", "policy_a", "policy_b", "first", "winner", "end", "turns", "decisions",
                "trumps_a", "trumps_b"])
    for g in games:
        w.writerow([g.seed, g.format, g.frame or "", *g.policies, "AB"[g.first],
                    "" if g.winner is None else "AB"[g.winner], g.end, g.turns, g.decisions, " ".join(g.trumps[0]),
                    " ".join(g.trumps[1])])
    return buf.getvalue()


def actions_csv(summary: dict[str, Any]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["regulation", "action", "frame_action", "requested", "resolved", "negated", "player_games",
                "win_when_used", "win_when_not_used", "association"])
    for r in summary["regulations"]:
        for a in r["actions"]:
            w.writerow([r["key"], a["id"], int(a["frame_action"]), a["requested"], a["resolved"], a["negated"],
                        a["player_games"], f"{a['win_when_used']['rate']:.4f}", f"{a['win_when_not_used']['rate']:.4f}",
                        "" if a["association"] is None else f"{a['association']:.4f}"])
    return buf.getvalue()


def report_files(summary: dict[str, Any], games: list[GameSummary], meta: dict[str, Any]) -> dict[str, str]:
    """Every output file's name and text, all made before any is written (never a half-written report)."""
    return {"study.json": json.dumps({"meta": meta, "summary": summary}, ensure_ascii=False, indent=1) + "\n",
            "games.csv": games_csv(games), "actions.csv": actions_csv(summary), "report.html": html(summary, meta)}
