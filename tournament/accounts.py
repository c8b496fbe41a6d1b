"""The ledger accounts a tournament's payments name, under the director's own names.

Every name is made by :mod:`pokerroom.money.accounts`, the room's one
account-name vocabulary; re-exported by :mod:`tournament.director`.
"""

from __future__ import annotations

from pokerroom.money.accounts import PACKAGES, ROUNDING
from pokerroom.money.accounts import ticket as ticket_account
from pokerroom.money.accounts import tournament_bounties as bounty_account
from pokerroom.money.accounts import tournament_dollars as tournament_money
from pokerroom.money.accounts import tournament_guarantee as guarantee_account
from pokerroom.money.accounts import tournament_pool as pool_account
from pokerroom.money.accounts import tournament_stakes as stakes_account

__all__ = ["PACKAGES", "ROUNDING", "bounty_account", "guarantee_account", "pool_account", "stakes_account",
           "ticket_account", "tournament_money"]
