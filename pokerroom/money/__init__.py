"""Money: the double-entry ledger through which every chip and cent moves (see ``ledger``), and the names of
its accounts (see ``accounts``)."""

from pokerroom.money.accounts import HOUSE_FEES, HOUSE_RAKE, WORLD, cash, table_escrow
from pokerroom.money.ledger import Ledger, Posting, Transfer

__all__ = ["HOUSE_FEES", "HOUSE_RAKE", "WORLD", "Ledger", "Posting", "Transfer", "cash", "table_escrow"]
