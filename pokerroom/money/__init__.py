"""Money: the double-entry ledger through which every chip and cent moves (see ``ledger``)."""

from pokerroom.money.ledger import (
    HOUSE_FEES,
    HOUSE_RAKE,
    WORLD,
    Ledger,
    Posting,
    Transfer,
    cash,
    table_escrow,
)

__all__ = ["HOUSE_FEES", "HOUSE_RAKE", "WORLD", "Ledger", "Posting", "Transfer", "cash", "table_escrow"]
