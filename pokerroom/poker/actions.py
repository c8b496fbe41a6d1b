"""Commands a player sends to a hand, and the answer to "what may I do now?".

Each command names the seat sending it, so the engine can refuse a player
acting out of turn (BET-1). ``Bet`` opens the betting on a street; ``Raise``
raises a bet already made (pre-flop the big blind is that bet). Amounts are
"to" amounts: the player's total bet on the street after the action.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerroom.errors import RuleViolation
from pokerroom.poker.quick_init import quick_init


@quick_init
@dataclass(frozen=True, slots=True)
class Fold:
    seat: int


@quick_init
@dataclass(frozen=True, slots=True)
class Check:
    seat: int


@quick_init
@dataclass(frozen=True, slots=True)
class Call:
    """Match the street's highest bet, or put in the whole stack when it is not enough."""

    seat: int


@quick_init
@dataclass(frozen=True, slots=True)
class Bet:
    seat: int
    to: int


@quick_init
@dataclass(frozen=True, slots=True)
class Raise:
    seat: int
    to: int


@quick_init
@dataclass(frozen=True, slots=True)
class RunItTwice:
    """A player's answer when all-in players are offered two boards."""

    seat: int
    agree: bool


Action = Fold | Check | Call | Bet | Raise | RunItTwice


@quick_init
@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the player to act may do.

    In a betting round: folding is always allowed; ``can_check`` when nothing
    is owed, else ``call_added`` is what a call adds (less than owed when it
    puts the player all-in). ``can_bet``/``can_raise`` with the inclusive
    range ``min_to..max_to`` of "to" amounts (both 0 when neither is
    allowed). When ``run_it_twice`` is True the only decision is a
    :class:`RunItTwice` answer.

    ``decision`` names this decision: the hand's id and how many events the
    hand had when it began waiting for the player (:func:`decision_id`). A
    client sends it back with its action, so an action meant for one decision
    is never applied to a later one (a double click, or the same ``legal``
    seen in a resume's catch-up and again in a snapshot).
    """

    seat: int
    can_check: bool
    call_added: int
    can_bet: bool
    can_raise: bool
    min_to: int
    max_to: int
    run_it_twice: bool
    decision: str

    def to_wire(self) -> dict[str, int | bool]:
        """The ``legal`` map a client gets with its decision."""
        return {"seat": self.seat, "can_check": self.can_check, "call_added": self.call_added,   # every field, in
                "can_bet": self.can_bet, "can_raise": self.can_raise, "min_to": self.min_to,         # order (a test
                "max_to": self.max_to, "run_it_twice": self.run_it_twice, "decision": self.decision}  # holds it)


def decision_id(hand_id: str, events: int) -> str:
    """The id of the decision a hand waits for after ``events`` events: ``<hand id>/<events>``.

    Every action or timeout adds at least one event, so the count names one
    decision within the hand, and a table (or tournament) never reuses a hand
    id (a restart skips the hand that was in play): no two decisions a player
    could still hold share an id. It is cheap (one string per decision, no
    state kept) and it is not secret on purpose: it binds an action to what
    the player saw, it does not authorise anything -- only the player whose
    turn it is may act, whatever id they send, so guessing one gains nothing.
    """
    return f"{hand_id}/{events}"


def verify_decision(current: str | None, decision: str | None, rule: str = "BET-1") -> None:
    """Refuse an action sent for a decision that is not the player's current one (``current``: its id, or None).

    ``decision`` None is the core's own callers (timers, simulations), which act on the decision in front of
    them; a client always names one. Checked before anything else, so a stale action changes nothing.
    """
    if decision is not None and current != decision:
        if current is None:
            raise RuleViolation("stale_decision", "that decision is over and you have no other to make now; "
                                                  "the action did nothing", rule)
        raise RuleViolation("stale_decision", "that decision is over: the action did nothing; act on the newest "
                                              "legal you were sent", rule)


_BY_NAME = {"fold": Fold, "check": Check, "call": Call, "bet": Bet, "raise": Raise}


def action_named(seat: int, action: str, to: int | None = None, agree: bool | None = None) -> Action:
    """The command a client's ``act`` names (``fold`` .. ``raise``, ``run_it_twice``) for ``seat``."""
    if action == "run_it_twice":
        return RunItTwice(seat, bool(agree))
    if action in ("bet", "raise"):
        if to is None:
            raise RuleViolation("bad_amount", f"say how much to {action} to", "BET-3")
        return Bet(seat, to) if action == "bet" else Raise(seat, to)
    kind = _BY_NAME.get(action)
    if kind is None:
        raise RuleViolation("unknown_command", f"there is no action {action!r} at a table", "BET-1")
    return kind(seat)


def action_words(action: Action) -> tuple[str, int | None, bool | None]:
    """An action as a client names it -- ``(name, to, agree)``, what :func:`action_named` takes back."""
    if isinstance(action, RunItTwice):
        return "run_it_twice", None, action.agree
    if isinstance(action, Bet | Raise):
        return ("bet" if isinstance(action, Bet) else "raise"), action.to, None
    return type(action).__name__.lower(), None, None
