"""Every message the server pushes, as data, and the one function that checks them.

Theory of operation
-------------------
A push is a map with a ``type`` (a key of :data:`PUSHES`) and no ``rid``;
its fields are those its :class:`Push` lists, each a :class:`Wire` rule: a
wire kind (``int``, ``str``, ``bool``, ``float`` -- times and seconds, an int
is a float too --, ``list``, ``map``, ``any``), whether it may be left out
(``optional``) and whether it may be null (``nullable``). A list or map may
name what it holds (``of``): an event family of :data:`EVENTS` (each item a map
whose ``type`` is one of the family's events), a record of :data:`RECORDS` or a
kind (a list of ``str``; a map of ``int`` values).

The events inside ``table_events``, ``tournament_event``,
``tournament_table_events`` and ``casino_events`` are derived from the pure
core's event dataclasses (their field annotations say the wire kinds), so a
field added there is declared here at once; the few events the shell makes
itself (a casino round's public end, a player's own payout) are written out.

:func:`verify_push` checks a push against all this, and that every value in
it is a wire value: None, a bool, an int, a finite float, a str, a list (or
tuple: msgpack packs both alike) or a map with str keys. Anything else -- a
``Fraction``, a set, bytes, an object, a map with int keys (JSON would turn
them into strings) -- is a :class:`PushError`. :func:`verify_answer` checks
the envelope of an answer to a request, and :func:`verify_message` either.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from pokerroom.casino import events as casino_events
from pokerroom.poker import events as hand_events
from pokerroom.poker.actions import LegalActions
from pokerroom.protocol.errors import ERRORS
from pokerroom.protocol.schema import MAX_RID, REQUESTS
from pokerroom.protocol.wire_form import LEFT_OUT_WHEN_FALSE
from pokerroom.table import events as table_events
from pokerroom.table.cash_table import SeatState
from tournament import events as tournament_events

KINDS = ("int", "str", "bool", "float", "list", "map", "any")


class PushError(ValueError):
    """A message the server must not send: what is wrong, and where."""


@dataclass(frozen=True, slots=True)
class Wire:
    kind: str                           # one of KINDS
    optional: bool = False              # may be left out
    nullable: bool = False              # may be null
    of: str = ""                        # a list's (or map's) items: an event family, a record name or a kind


@dataclass(frozen=True, slots=True)
class Push:
    about: str                          # one line for docs/protocol.md
    fields: dict[str, Wire]


def _w(kind: str, of: str = "", **kw: bool) -> Wire:
    return Wire(kind, of=of, **kw)


INT, STR, BOOL, FLOAT, LIST, MAP = (_w(k) for k in ("int", "str", "bool", "float", "list", "map"))


# ---------------------------------------------------------------------- derived from the core's dataclasses

_SCALARS = {"int": "int", "str": "str", "bool": "bool", "float": "float", "Any": "any"}


def wire_of(annotation: str) -> Wire:
    """The wire rule of a dataclass field's annotation: ``"int | None"`` -> a nullable int."""
    text = annotation.strip()
    nullable = False
    parts = [p.strip() for p in _top_level_split(text)]
    if "None" in parts:
        nullable = True
        parts = [p for p in parts if p != "None"]
    head = parts[0].split("[", 1)[0].split(".")[-1] if len(parts) == 1 else "any"
    if head in ("tuple", "list", "set", "frozenset"):
        kind = "list"
    elif head == "dict":
        kind = "map"
    elif head == "Event":
        return Wire("map", nullable=nullable, of="hand")
    else:
        kind = _SCALARS.get(head, "any")
    return Wire(kind, nullable=nullable)


def _top_level_split(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch == "["
        depth -= ch == "]"
        if ch == "|" and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return parts + [text[start:]]


def shape_of(cls: type) -> dict[str, Wire]:
    """A dataclass's fields as wire rules."""
    return {f.name: wire_of(f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type)))
            for f in dataclasses.fields(cls)}


def _family(types: dict[str, type], *, skip: tuple[str, ...] = ()) -> dict[str, dict[str, Wire]]:
    return {name: {"type": STR, **shape_of(cls)} for name, cls in types.items() if name not in skip}


_TOURNAMENT_TYPES = {tournament_events.wire_name(cls): cls for cls in vars(tournament_events).values()
                     if isinstance(cls, type) and dataclasses.is_dataclass(cls)
                     and cls.__module__ == tournament_events.__name__}
_NOT_PUSHED = ("payment", "hand_dealt", "hand_played")     # money is in bet_history; hands go to the seats

_CASINO = _family(casino_events.EVENT_TYPES)
_CASINO.update({      # the shell makes these itself: who had what on the table is each player's own business
    "round_settled": {"type": STR, "table": STR, "round": INT, "result": STR},
    "round_voided": {"type": STR, "table": STR, "round": INT, "reason": STR},
    "payout": {"type": STR, "round": INT, "market": STR, "staked": INT, "returned": INT, "detail": STR},
    "refund": {"type": STR, "round": INT, "amount": INT},
})

_TOURNAMENT = _family(_TOURNAMENT_TYPES, skip=_NOT_PUSHED)
_TOURNAMENT.update({  # the hall's decision clocks, not the director's (pokerroom/shell/tournaments/decisions.py)
    "reconnect_time_started": {"type": STR, "player": STR, "seconds": FLOAT, "deadline": FLOAT},
    "time_bank_started": {"type": STR, "player": STR, "seconds": FLOAT, "deadline": FLOAT},
})

_HAND = _family(hand_events.EVENT_TYPES)
for _kind, _flags in LEFT_OUT_WHEN_FALSE.items():    # a cash table's frames leave these out when false (issue 36)
    _HAND[_kind].update({flag: _w("bool", optional=True) for flag in _flags})

EVENTS: dict[str, dict[str, dict[str, Wire]]] = {
    "hand": _HAND,
    "table": _family(table_events.TABLE_EVENT_TYPES),
    "tournament": _TOURNAMENT,
    "casino": _CASINO,
}
"""Event family -> event type -> its fields (``type`` included)."""

RECORDS: dict[str, dict[str, Wire]] = {
    "legal": shape_of(LegalActions),
    "seat": {**shape_of(SeatState), "name": _w("str", optional=True)},     # name: AC-4, the verified real name
    "lobby_table": {"table": STR, "name": STR, "game": STR, "small_blind": INT, "big_blind": INT, "currency": STR,
                    "seats": INT, "taken": INT, "waiting": INT, "average_pot": INT, "min_buy_in": INT,
                    "max_buy_in": INT, "closing": BOOL},
    "to_act": {"player": STR, "seat": INT, "seconds": FLOAT, "deadline": FLOAT, "time_bank": FLOAT},
    "pot": {"amount": INT, "seats": _w("list", "int")},
    "invitation": {"tournament": STR, "name": STR, "player": STR, "by": STR, "reason": STR, "at": FLOAT,
                   "entry_cost": INT, "buy_in": INT, "fee": INT, "starting_stack": INT},
}
"""Named maps that pushes carry (each with exactly these fields)."""

_OPT = {k: _w(k, optional=True) for k in KINDS}

ERROR: dict[str, Wire] = {
    "code": STR, "message": STR, "rule": STR,
    # a refusal that names amounts: each as minor units under the name its sentence uses ("min", "max", "given"),
    # and their unit ("USD", "EUR", ... or "chips"); the sentence has them written in it ("$4.00 to $10.00")
    "amounts": _w("map", "int", optional=True), "currency": _w("str", optional=True)}
"""The ``error`` of a refusal (an answer with ``ok`` false)."""

PUSHES: dict[str, Push] = {
    "table_events": Push("what one thing at a table did: its table events in order, each with the table's seq",
                         {"table": STR, "seq": INT, "events": _w("list", "table"),
                          "legal": _w("map", "legal", optional=True)}),
    "table_snapshot": Push("the table as you may see it, on observe or when a resume's missed events are gone",
                           {"table": STR, "seq": INT, "seats": _w("list", "seat"), "hand": _w("list", "hand"),
                            "board": _w("list", "int"), "second_board": _w("list", "int"),
                            "pots": _w("list", "pot"),
                            "to_act": _w("int", nullable=True), "deadline": _w("float", nullable=True),
                            "phase": _w("str", nullable=True), "seconds_left": _w("float", nullable=True),
                            "time_bank": _w("float", nullable=True),
                            "button": _w("int", nullable=True), "waiting_list": _w("list", "str"),
                            "legal": _w("map", "legal", optional=True)}),
    "lobby_update": Push("the cash tables that changed while you follow the lobby, and those that left it",
                         {"tables": _w("list", "lobby_table"), "closed": _w("list", "str", optional=True)}),
    "table_moved": Push("the table you sit at or watch moved to another server of the room, its own having stopped: "
                        "a sentence saying so, the hands voided there (each stack back where it started, TR-REFUND-1; "
                        "at a casino table the round in play, and `refunded`: your stakes on it back in your wallet, "
                        "in `currency`, CR-5) and the rule", {
                            "table": STR, "message": STR, "voided": _w("list", "str"), "rule": STR,
                            "refunded": _OPT["int"], "currency": _OPT["str"]}),
    "table_closed": Push("a director closed the table you watch; its last player has stood up", {"table": STR}),
    "chat": Push("a chat line at a table you watch (name: the speaker's verified real name, AC-4)",
                 {"table": STR, "player": STR, "text": STR, "at": FLOAT, "name": _OPT["str"]}),
    "reminder": Push("how long you have been playing this session (AC-5)", {"minutes_played": INT}),
    "cashier": Push("a deposit or withdrawal settled after its request was answered (the payment provider was "
                    "silent): kind `deposit`/`withdrawal`, status `credited`/`refused`/`paid`/`returned`",
                    {"kind": STR, "reference": STR, "amount": INT, "status": STR, "balance": INT}),
    "session_changed": Push("your role changed; the old role's requests are refused from now on (STAFF-3)",
                            {"role": STR, "was": STR}),
    "tournament_event": Push("one event of a tournament you entered or follow", {
        "tournament": STR, "event": _w("map", "tournament")}),
    "tournament_table_events": Push("the hand events of your tournament table, redacted for your seat", {
        "tournament": STR, "table": STR, "seat": INT, "events": _w("list", "hand"),
        "to_act": _w("map", "to_act", optional=True), "legal": _w("map", "legal", optional=True)}),
    "tournament_chat": Push("a chat line at your tournament table (name: the speaker's verified real name, AC-4)",
                            {"tournament": STR, "table": STR, "player": STR, "text": STR, "at": FLOAT,
                             "name": _OPT["str"]}),
    "tournament_invitation": Push("a director invited you into a paid event (STAFF-2)",
                                  {"invitation": _w("map", "invitation")}),
    "tournament_invitation_withdrawn": Push("your invitation no longer stands: the event changed or takes no entries",
                                            {"tournament": STR, "reason": STR}),
    "tournament_invitation_answered": Push("to the inviting director: the player's answer (STAFF-2)",
                                           {"tournament": STR, "player": STR, "answer": STR}),
    "casino_events": Push("what a casino table did, with your own bets and payouts added to yours only",
                          {"table": STR, "events": _w("list", "casino")}),
    "casino_state": Push("a casino table as you left it, when you are back after a disconnection (CR-6)", {
        "table": STR, "game": STR, "round": INT, "phase": STR, "results": LIST, "bets": _OPT["list"],
        "seats": _OPT["map"], "dealer": _OPT["list"], "hands": _OPT["any"], "to_act": _w("str", optional=True,
                                                                                           nullable=True),
        "first_two": _OPT["list"], "active": _OPT["int"], "shown": _OPT["list"], "odds": _OPT["map"],
        "window": _OPT["int"], "decision": _w("str", nullable=True)}),
}


# ---------------------------------------------------------------------- checking


def verify_message(message: object) -> None:
    """A message from the server: an answer (it has ``ok``) or a push."""
    if isinstance(message, dict) and "ok" in message:
        verify_answer(message)
    else:
        verify_push(message)


def verify_push(message: object) -> None:
    """Nothing, or :class:`PushError` naming the first thing wrong with a push."""
    if not isinstance(message, dict):
        raise PushError(f"a push is a map, not {type(message).__name__}")
    kind = message.get("type")
    push = PUSHES.get(kind) if isinstance(kind, str) else None
    if push is None:
        raise PushError(f"undeclared push type {kind!r}")
    _verify_fields(str(kind), {"type": STR, **push.fields}, message)


def verify_answer(message: dict[str, Any]) -> None:
    """An answer's envelope: ``type``, ``rid``, ``ok``; a refusal's ``error`` with a catalogued code."""
    kind, rid, ok = message.get("type"), message.get("rid", ...), message.get("ok")
    if type(kind) is not str:
        raise PushError("an answer's type is the request's type, a string")
    if rid is ... or not (rid is None or type(rid) is int) or (ok is True and (rid is None or not 0 <= rid <= MAX_RID)):
        raise PushError(f"{kind}: an answer's rid is the request's (a refusal echoes even a bad one), or null")
    if type(ok) is not bool:
        raise PushError(f"{kind}: an answer's ok is true or false")
    if ok:
        if kind not in REQUESTS:
            raise PushError(f"{kind}: ok answers only a declared request")
        for name, value in message.items():
            _wire_value(f"{kind}.{name}", value)
        return
    _verify_fields(kind, {"type": STR, "rid": Wire("int", nullable=True), "ok": BOOL, "error": MAP}, message)
    problem = message["error"]
    _verify_fields(f"{kind}.error", ERROR, problem)
    if problem["code"] not in ERRORS:
        raise PushError(f"{kind}: error code {problem['code']!r} is not in the catalogue")
    if ("amounts" in problem) != ("currency" in problem):
        raise PushError(f"{kind}.error: amounts and their currency come together")


def _verify_fields(where: str, spec: dict[str, Wire], data: object) -> None:
    if not isinstance(data, dict):
        raise PushError(f"{where} must be a map")
    for name in data:
        if name not in spec:
            raise PushError(f"{where} has an undeclared field {name!r}")
    for name, rule in spec.items():
        if name not in data:
            if not rule.optional:
                raise PushError(f"{where} lacks its field {name!r}")
            continue
        _verify_value(f"{where}.{name}", rule, data[name])


_IS = {"int": lambda v: type(v) is int, "str": lambda v: type(v) is str, "bool": lambda v: type(v) is bool,
       "float": lambda v: type(v) in (int, float), "list": lambda v: isinstance(v, list | tuple),
       "map": lambda v: isinstance(v, dict), "any": lambda v: True}


def _verify_value(where: str, rule: Wire, value: object) -> None:
    _wire_value(where, value)
    if value is None:
        if not rule.nullable:
            raise PushError(f"{where} cannot be null")
        return
    kind = rule.kind
    if not _IS[kind](value):
        raise PushError(f"{where} must be {kind}, not {type(value).__name__}")
    if not rule.of:
        return
    if kind == "map" and rule.of in _IS:            # a map of plain values: each value of that kind
        for name, item in value.items():
            _verify_value(f"{where}.{name}", Wire(rule.of), item)
        return
    items = value if kind == "list" else [value]
    for i, item in enumerate(items):
        _verify_item(f"{where}[{i}]" if kind == "list" else where, rule.of, item)


def _verify_item(where: str, of: str, item: object) -> None:
    if of in _IS:
        _verify_value(where, Wire(of), item)
        return
    if of in RECORDS:
        _verify_fields(where, RECORDS[of], item)
        return
    family = EVENTS[of]
    kind = item.get("type") if isinstance(item, dict) else None
    if not isinstance(kind, str) or kind not in family:
        raise PushError(f"{where}: undeclared {of} event {kind!r}")
    _verify_fields(f"{where} ({kind})", family[kind], item)


def _wire_value(where: str, value: object) -> None:
    """Only what msgpack and JSON both carry alike."""
    if value is None or type(value) in (bool, int, str):
        return
    if type(value) is float:
        if not math.isfinite(value):
            raise PushError(f"{where} is {value}: not a number JSON carries")
        return
    if type(value) in (list, tuple):
        for i, v in enumerate(value):
            _wire_value(f"{where}[{i}]", v)
        return
    if type(value) is dict:
        for k, v in value.items():
            if type(k) is not str:
                raise PushError(f"{where} has a {type(k).__name__} key {k!r}: map keys are strings")
            _wire_value(f"{where}.{k}", v)
        return
    raise PushError(f"{where} is a {type(value).__name__}: not a wire type")
