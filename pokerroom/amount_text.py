"""An amount of minor units as a player reads it, in the currency of the table it belongs to.

One rule for the server's sentences, kept in step with the browser's
``lobby/static/common/format.js`` (``money``): a cash currency shows
``units // 100`` with thousands separated by commas and two decimals
(``$4.00``, ``€1,250.50``, ``12.00 CHF``); tournament chips (currency ``""``,
``"chips"`` or ``"T$"``) are whole and grouped (``1,200 chips``). Pure: no
table, no locale.
"""

from __future__ import annotations

CHIPS = ("", "chips", "T$")
SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£"}


def amount_text(amount: int, currency: str | None) -> str:
    """``amount`` minor units of ``currency`` (None or ``""``: chips) as one short phrase."""
    if not currency or currency in CHIPS:
        if currency == "T$":
            return f"T${amount:,}"
        return f"{amount:,} chip{'' if amount == 1 else 's'}"
    sign = "-" if amount < 0 else ""
    whole, cents = divmod(abs(amount), 100)
    number = f"{whole:,}.{cents:02d}"
    symbol = SYMBOLS.get(currency)
    return f"{sign}{symbol}{number}" if symbol else f"{sign}{number} {currency}"


def unit_name(currency: str | None) -> str:
    """The unit an error's ``amounts`` are in, as the wire names it: a currency code, or ``chips``."""
    return "chips" if not currency or currency in ("", "chips") else currency
