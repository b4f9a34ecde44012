"""The balance study report: self-contained HTML (inline SVG plots), with its data as JSON and CSV."""

from blackpoker.render.balance.report import report_files

__all__ = ["report_files"]
