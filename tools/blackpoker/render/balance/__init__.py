"""The balance study report: self-contained HTML (inline SVG plots), with its data as JSON and CSV."""

from blackpoker.render.balance.report import write_report

__all__ = ["write_report"]
