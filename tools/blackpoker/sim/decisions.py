"""The decisions a player makes (OpenSpiel's actions): request an action, pass, or answer an effect's question.

The records write out their ``__init__`` (one is made per step; see :mod:`blackpoker.core.frozen`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from blackpoker.core.cards import Card
from blackpoker.core.frozen import Frozen
from blackpoker.sim.state import NO_PAYMENT, Payment, Target


@dataclass(frozen=True)
class Pass(Frozen):
    """6.4 [11]: pass the chance."""


@dataclass(frozen=True)
class RequestAction(Frozen):
    """6.4 [5]: request an action with its key cards, cost payment and targets all chosen."""

    action_id: str
    keys: tuple[Card, ...] = ()
    payment: Payment = NO_PAYMENT
    targets: tuple[Target, ...] = ()
    key_character: int | None = None  # the key soldier of a cost-K action (兵士起因)

    def __init__(self, action_id: str, keys: tuple[Card, ...] = (), payment: Payment = NO_PAYMENT,
                 targets: tuple[Target, ...] = (), key_character: int | None = None) -> None:
        object.__setattr__(self, "action_id", action_id)
        object.__setattr__(self, "keys", keys)
        object.__setattr__(self, "payment", payment)
        object.__setattr__(self, "targets", targets)
        object.__setattr__(self, "key_character", key_character)


@dataclass(frozen=True)
class Choose(Frozen):
    """An answer to a question an effect asks while it resolves (ドローの2枚目, ヒット/スタンド, …)."""

    option: Any  # any value an effect offers (Any: a compiled dataclass with a field typed object fails at import, KeyError 'object')

    def __init__(self, option: Any) -> None:
        object.__setattr__(self, "option", option)


Decision = Pass | RequestAction | Choose
