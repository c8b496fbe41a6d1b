"""The ledger accounts of a tournament and of the house that tournaments pay (DESIGN.md idea 3).

The director names them in its :class:`~tournament.events.Payment` s; the
shell posts those to the ledger. Re-exported by :mod:`tournament.director`.
"""

from __future__ import annotations

ROUNDING = "house:rounding"
PACKAGES = "house:packages"       # substituted prizes the room delivers (TR-PRIZE-4)


def pool_account(tournament: str) -> str:
    return f"tournament:{tournament}:pool"


def bounty_account(tournament: str) -> str:
    return f"tournament:{tournament}:bounties"


def guarantee_account(tournament: str) -> str:
    """House money held for this event (STAFF-1): its guarantee, reserved from promotions when it is created;
    overlays and prizes the house adds are paid from here, and what is left goes back to promotions."""
    return f"tournament:{tournament}:guarantee"


def stakes_account(tournament: str) -> str:
    return f"tournament:{tournament}:stakes"


def ticket_account(target: str, player: str) -> str:
    """A seat won to ``target`` (TR-PRIZE-5): its value waits here until the player enters."""
    return f"ticket:{target}:{player}"


def tournament_money(player: str) -> str:
    """T$: money only for tournament entries (TR-PRIZE-5)."""
    return f"tdollars:{player}"
