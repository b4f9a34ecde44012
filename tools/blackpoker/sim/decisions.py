"""The decisions a player makes (OpenSpiel's actions): request an action, pass, or answer an effect's question."""

from __future__ import annotations

from dataclasses import dataclass

from blackpoker.core.cards import Card
from blackpoker.sim.state import Payment, Target


@dataclass(frozen=True)
class Pass:
    """6.4 [11]: pass the chance."""


@dataclass(frozen=True)
class RequestAction:
    """6.4 [5]: request an action with its key cards, cost payment and targets all chosen."""

    action_id: str
    keys: tuple[Card, ...] = ()
    payment: Payment = Payment()
    targets: tuple[Target, ...] = ()
    key_character: int | None = None  # the key soldier of a cost-K action (兵士起因)


@dataclass(frozen=True)
class Choose:
    """An answer to a question an effect asks while it resolves (ドローの2枚目, ヒット/スタンド, …)."""

    option: object


Decision = Pass | RequestAction | Choose
