"""The one error a player (or a table acting for one) can cause in the pure core.

Tables, tournaments, the hand engine and the server all raise and catch this
single type. It carries what a client needs to show a clear refusal: a stable
machine ``code``, a plain sentence, and the ID of the rule in ``RULES.md`` (or
the engine's rule list in ``docs/engine.md``) that forbids the command. A
command that raises it has changed nothing.

Amounts travel as data. A refusal that names amounts gives them in
``amounts`` (name -> minor units) and writes its sentence with ``{name}``
placeholders: ``RuleViolation("buy_in_out_of_range", "the buy-in here is {min}
to {max}, not {given}", "HR-STAKE-4", amounts={"min": 400, ...})``. The core
does not know a table's currency; the shell that does calls :meth:`priced`
on the way out, and the sentence reads ``$4.00 to $10.00, not $12.00`` (or
``1,200 chips`` at a tournament table; unpriced, the bare numbers). The raw integers reach the
client too, in the error's ``amounts``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from pokerroom.amount_text import amount_text


class RuleViolation(Exception):
    """A command broke a rule; the state it was sent to is unchanged."""

    __slots__ = ("code", "template", "rule_id", "amounts", "currency")

    def __init__(self, code: str, message: str, rule_id: str = "", amounts: Mapping[str, int] | None = None) -> None:
        super().__init__(code, message, rule_id, dict(amounts) if amounts else None)
        self.code = code
        self.template = message
        self.rule_id = rule_id
        self.amounts: dict[str, int] = dict(amounts) if amounts else {}
        self.currency: str | None = None        # the unit of ``amounts``, once the shell has said it

    def priced(self, currency: str) -> RuleViolation:
        """This refusal with its amounts in ``currency`` (the first shell to say wins); itself, for ``raise``."""
        if self.currency is None and self.amounts:
            self.currency = currency
        return self

    @property
    def message(self) -> str:
        """The sentence, its amounts written in the currency (bare numbers until :meth:`priced`)."""
        if not self.amounts:
            return self.template
        if self.currency is None:                # the core's own view: bare minor units
            return self.template.format_map({k: str(v) for k, v in self.amounts.items()})
        return self.template.format_map({k: amount_text(v, self.currency) for k, v in self.amounts.items()})

    def __str__(self) -> str:
        rule = f" ({self.rule_id})" if self.rule_id else ""
        return f"{self.message}{rule}"

    def __repr__(self) -> str:
        return f"RuleViolation({self.code!r}, {self.message!r}, {self.rule_id!r})"


H = TypeVar("H")


def handler_for(handlers: Mapping[type, H], command: object, owner: str) -> H:
    """The handler of ``command``'s type in a command table (a cash table's, a casino table's, a tournament's);
    a command of any other type is refused with ``unknown_command`` and changes nothing."""
    handler = handlers.get(type(command))
    if handler is None:
        raise RuleViolation("unknown_command", f"{owner} has no command {type(command).__name__}")
    return handler


class Unanswered(RuleViolation):
    """A refusal because nobody answered for a table (``no_such_table``, ``unknown_table``): there is no such table
    -- or, on a room of several processes, it is between owners, its process gone and another taking it over. The
    side that knows the table's lease (the tenancy: :meth:`~pokerroom.shell.tenancy.Tenancy.moving`) tells which,
    asked by the gateway with the table's ``kind`` (``cash``, ``casino``) and id."""

    __slots__ = ("table", "kind")

    def __init__(self, code: str, message: str, table: str, kind: str = "cash") -> None:
        super().__init__(code, message)
        self.table = table
        self.kind = kind


def table_moving(kind: str, table: str) -> RuleViolation:
    """The refusal of a request to a table between owners (its process stopped, another opening it where it left
    off), or one whose owner could not be asked: worth asking again in a few seconds."""
    what = "casino table" if kind == "casino" else "table"
    return RuleViolation("table_moving", f"{what} {table} is moving to another server of the room (its own stopped); "
                         "ask again in a few seconds")
