"""The base of the frozen records that the compiled simulator compiles: they pickle by their fields.

mypyc makes a compiled dataclass a native class, which pickles its attributes one by one on loading, and a frozen
one refuses that assignment ("cannot assign to field"). Records cross processes (the build's workers, a Dask
cluster) and are kept in the rulebook's Sphinx environment, so each is rebuilt through its ``__init__`` instead:
the same result whether compiled or not (``tests/test_native.py`` pickles real games and rules both ways).

Why the records made at every step (``Character``, ``Request``, ``Target``, the decisions, the observations …)
write out the ``__init__`` that ``dataclass`` would generate, one ``object.__setattr__(self, "field", field)`` per
field: under mypyc a method the dataclass decorator generates stays interpreted (mypyc's ``DataClassBuilder``), and
a call of the class goes through ``tp_init`` with the arguments packed, whereas a written ``__init__`` is compiled,
called directly, and mypyc turns each of those lines into a plain store into the instance. A 5-field record is made
in 30 ns instead of 650 ns, and with every written ``__init__`` left to ``dataclass``, random self-play
(``scripts/bench_sim.py``) makes 0.8x the decisions per second and an ISMCTS game takes 2.1x the time. In Python
both run the same code. Records made rarely (``FogCard``, ``TrumpCard``, ``Modifier``, the rules' own records)
keep the generated one; ``tests/test_sim_state.py`` checks that each written ``__init__`` takes and sets exactly its
record's fields, with the same defaults.
"""

from __future__ import annotations

import dataclasses
from typing import Any


class Frozen:
    """Pickled as ``type(self)(*init fields)``; subclasses are frozen dataclasses."""

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        fields = dataclasses.fields(self)  # type: ignore[arg-type]  # every subclass is a dataclass
        return type(self), tuple(getattr(self, f.name) for f in fields if f.init)
