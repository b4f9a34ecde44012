"""The base of the frozen records that the compiled simulator compiles: they pickle by their fields.

mypyc makes a compiled dataclass a native class, which pickles its attributes one by one on loading, and a frozen
one refuses that assignment ("cannot assign to field"). Records cross processes (the build's workers, a Dask
cluster) and are kept in the rulebook's Sphinx environment, so each is rebuilt through its ``__init__`` instead:
the same result whether compiled or not (``tests/test_native.py`` pickles real games and rules both ways)."""

from __future__ import annotations

import dataclasses
from typing import Any


class Frozen:
    """Pickled as ``type(self)(*init fields)``; subclasses are frozen dataclasses."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        fields = dataclasses.fields(self)  # type: ignore[arg-type]  # every subclass is a dataclass
        return type(self), tuple(getattr(self, f.name) for f in fields if f.init)
