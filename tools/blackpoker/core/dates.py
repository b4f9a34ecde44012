"""Dates as the inputs write them, checked against the calendar where they are read: a release "2026/13/99" is a
mistake to point at, not a date to publish (or to turn into "2026-13-99" for the export)."""

from __future__ import annotations

import datetime
import re

# as the official files print a date (``lastupdate``): the day may be left out or unknown (``2025/6/x``), and what
# follows it is the file's own business (the importer has always read only this much)
_PRINTED = re.compile(r"([0-9]{4})/([0-9]{1,2})(?:/([0-9]{1,2}))?")
PRINTED_EXAMPLE = "YYYY/M/D, e.g. 2026/04/13"
# as the definitions store the release date (``released``): ISO 8601, the day optional
_ISO = re.compile(r"([0-9]{4})-([0-9]{2})(?:-([0-9]{2}))?\Z")
ISO_EXAMPLE = "YYYY-MM or YYYY-MM-DD, e.g. 2025-06"


def printed_date(text: str) -> tuple[int, int, int | None] | None:
    """Year, month and day (None when unknown) of a date as the official files print it, or None when ``text``
    is no such date or no day of the calendar."""
    return _read(_PRINTED.match(text))


def date_problem(text: str, *, iso: bool = False) -> str | None:
    """Why ``text`` is not a date as printed (see :func:`printed_date`) or, with ``iso``, in ISO 8601; None when
    it is one, and a day of the calendar."""
    match = (_ISO if iso else _PRINTED).match(text)
    example = ISO_EXAMPLE if iso else PRINTED_EXAMPLE
    shown = text if len(text) <= 40 else text[:39] + "…"
    if match is None:
        return f"'{shown}' is not a date; expected {example}"
    if _read(match) is None:
        year, month = int(match[1]), int(match[2])
        if year == 0:
            missing = "year 0"
        elif not 1 <= month <= 12:
            missing = f"month {month}"
        else:
            missing = f"day {match[3]} in {year:04d}{'-' if iso else '/'}{month:02d}"
        return f"'{shown}' is not a day of the calendar (there is no {missing}); expected {example}"
    return None


def _read(match: re.Match[str] | None) -> tuple[int, int, int | None] | None:
    if match is None:
        return None
    year, month, day = int(match[1]), int(match[2]), int(match[3]) if match[3] else None
    try:
        datetime.date(year, month, day or 1)
    except ValueError:
        return None
    return year, month, day
