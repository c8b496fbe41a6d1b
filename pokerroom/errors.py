"""The one error a player (or a table acting for one) can cause in the pure core.

Tables, tournaments, the hand engine and the server all raise and catch this
single type. It carries what a client needs to show a clear refusal: a stable
machine ``code``, a plain sentence, and the ID of the rule in ``RULES.md`` (or
the engine's rule list in ``docs/engine.md``) that forbids the command. A
command that raises it has changed nothing.
"""

from __future__ import annotations


class RuleViolation(Exception):
    """A command broke a rule; the state it was sent to is unchanged."""

    __slots__ = ("code", "message", "rule_id")

    def __init__(self, code: str, message: str, rule_id: str = "") -> None:
        super().__init__(code, message, rule_id)
        self.code = code
        self.message = message
        self.rule_id = rule_id

    def __str__(self) -> str:
        rule = f" ({self.rule_id})" if self.rule_id else ""
        return f"{self.message}{rule}"

    def __repr__(self) -> str:
        return f"RuleViolation({self.code!r}, {self.message!r}, {self.rule_id!r})"
