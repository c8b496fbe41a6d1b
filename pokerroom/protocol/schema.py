"""Every message a client may send, as data, and the one function that checks them.

Theory of operation
-------------------
A request is a map with a ``type`` (a key of :data:`REQUESTS`), a ``rid``
(the client's request number, echoed in the answer) and exactly the fields the
type lists -- no more. Each field has a :class:`Field` rule: its kind
(``int``, ``str``, ``bool``, ``choice``, ``map``), whether it may be left out,
and its bounds (integer range, string length, allowed choices, map size).
:func:`parse_request` applies them and returns a :class:`Request`, or raises
:class:`ProtocolError` with a code and a sentence naming the field. Nothing
else in the server looks at raw client data.

Money fields are whole minor units within ``MAX_AMOUNT``; seats are 1..10;
strings are bounded; a bool is never accepted as an int.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from pokerroom.amount_text import unit_name
from pokerroom.money.accounts import HOUSE_FEES, HOUSE_RAKE

MAX_AMOUNT = 10**12                 # minor units: far above any real stake, far below overflow
MAX_RID = 2**31 - 1
MAX_NAME = 64
MAX_CHAT = 280
MAX_TOKEN = 128
HAND_PAGE = 50                      # hands in one hand_history answer at most (each with all its events)
TRANSFER_PAGE = 100                 # transfers in one bet_history answer at most
MAX_CURSOR = 2**62
ACTIONS = ("fold", "check", "call", "bet", "raise", "run_it_twice")
CLIENT_TYPES = ("desktop", "mobile", "browser")
GAMES = ("NLHE", "PLO", "PLO5", "FLHE")       # pokerroom.poker.variants.VARIANTS
CASH_GAMES = ("NLHE", "PLO", "FLHE")
CASINO_MOVES = ("hit", "stand", "double", "split", "surrender", "insurance", "no_insurance")


class ProtocolError(Exception):
    """A malformed request: ``code`` for machines, ``message`` for people, ``rule`` when one applies.

    ``data`` is what was decoded when the problem came after decoding (a map
    nesting too deep): its ``type`` and ``rid`` are echoed in the answer.
    """

    def __init__(self, code: str, message: str, rule: str = "", data: object = None) -> None:
        super().__init__(code, message)
        self.code = code
        self.message = message
        self.rule = rule
        self.data = data


@dataclass(frozen=True, slots=True)
class Field:
    kind: str                           # "int" | "str" | "bool" | "choice" | "map" | "list"
    optional: bool = False
    nullable: bool = False
    low: int = 0
    high: int = 0
    choices: tuple[str, ...] = ()
    max_items: int = 0                  # for "map": at most this many str -> int entries; "list": of strings
    pattern: str = ""                   # for "str": a regular expression the whole text matches
    code: str = "bad_field"             # the error code when the value breaks this rule...
    says: str = ""                      # ...its sentence, when not the generic one naming the field...
    rule: str = ""                      # ...and the RULES.md ID behind it


def Int(low: int, high: int, **kw: bool) -> Field:         # noqa: N802 - reads like a type in the table
    return Field("int", low=low, high=high, **kw)


def Str(low: int, high: int, **kw: Any) -> Field:          # noqa: N802
    return Field("str", low=low, high=high, **kw)


def Bool(**kw: bool) -> Field:                             # noqa: N802
    return Field("bool", **kw)


def Choice(*choices: str, **kw: bool) -> Field:            # noqa: N802
    return Field("choice", choices=choices, **kw)


TABLE = Str(1, MAX_NAME)
# A new table's or tournament's id names ledger references (``<id>#<round>``, ``<id>-t<n>``) and bus subjects:
# letters, digits, '_' and '-' only, so no id can pass for another's reference.
NEW_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")
TOURNAMENT = Str(1, 32)
REASON = Str(1, 200)
AMOUNT = Int(1, MAX_AMOUNT)
NICKNAME_PATTERN = r"[A-Za-z0-9_\-]{3,20}"       # pokerroom.players: AC-3's shape, one code for every way to miss it
NICKNAME_SAYS = "a nickname is 3 to 20 letters, digits, '_' or '-'"
NICKNAME = Str(3, 20, pattern=NICKNAME_PATTERN, code="bad_nickname", says=NICKNAME_SAYS, rule="AC-3")
NICK = Str(3, 20)
NICK_OPT = Str(3, 20, optional=True)
TOKEN = Str(16, MAX_TOKEN, code="bad_token", says="that is not a session token; log in again", rule="STAFF-3")
HAND = Str(1, 120)
CASE = Int(1, 2**31 - 1)
TABLE_OPT = Str(1, MAX_NAME, optional=True)
PERIOD = {"since": Int(0, 2**40, optional=True), "until": Int(0, 2**40, optional=True)}   # UTC seconds
DECISION = Str(1, 160)               # a decision's id, as the server sent it (a hand id and a number)
DEVICE = Str(1, 128, optional=True)     # the client's own device id, kept with the connection for security (SEC-1)

REQUESTS: dict[str, dict[str, Field]] = {
    "register": {"nickname": NICKNAME, "password": Str(8, 128), "birth_date": Str(10, 10),
                 "country": Str(2, 2)},
    "login": {"nickname": Str(3, 20), "password": Str(1, 128),
              "client": Choice(*CLIENT_TYPES, optional=True), "device": DEVICE},
    "logout": {},
    "resume": {"token": TOKEN, "tables": Field("map", max_items=64, low=0, high=2**62),
               "device": DEVICE},
    "lobby_list": {},
    "lobby_subscribe": {"on": Bool()},
    "observe": {"table": TABLE, "on": Bool()},
    "join": {"table": TABLE, "seat": Int(1, 10, optional=True, nullable=True), "buy_in": AMOUNT,
             "wait_for_big_blind": Bool(optional=True)},
    "leave": {"table": TABLE},
    "sit_out": {"table": TABLE},
    "sit_in": {"table": TABLE, "wait_for_big_blind": Bool(optional=True)},
    "post": {"table": TABLE},
    "wait_for_big_blind": {"table": TABLE},
    # decision: the id of the `legal` acted on (an older one is refused: stale_decision)
    "act": {"table": TABLE, "action": Choice(*ACTIONS), "decision": DECISION,
            "to": Int(1, MAX_AMOUNT, optional=True),
            "agree": Bool(optional=True)},
    "add_chips": {"table": TABLE, "amount": AMOUNT},
    "options": {"table": TABLE, "auto_post_blinds": Bool(optional=True),
                "sit_out_next_hand": Bool(optional=True), "sit_out_next_big_blind": Bool(optional=True),
                "auto_muck": Bool(optional=True)},
    "waiting_list": {"table": TABLE, "on": Bool()},
    "chat": {"table": TABLE, "text": Str(1, MAX_CHAT)},
    "self_exclude": {"days": Int(1, 3650, nullable=True)},            # null: permanently (AC-5)
    "deposit_limit": {"amount": Int(1, MAX_AMOUNT, nullable=True)},   # per 24 hours; null: none (AC-5)
    "session_reminder": {"minutes": Int(5, 600, nullable=True)},      # null: off (AC-5)
    # the cashier (docs/protocol.md, "Cashier"): money in and out through the room's payment provider
    "deposit": {"amount": AMOUNT},                                     # AC-2, AC-5, AC-6
    "withdraw": {"amount": AMOUNT},                                    # the wallet's cash only; AC-6
    # pages, newest first: `before` is the `next` of the page before (docs/protocol.md)
    "hand_history": {"limit": Int(1, HAND_PAGE, optional=True), "before": Int(1, MAX_CURSOR, optional=True),
                     "pokerstars": Bool(optional=True)},
    "bet_history": {"limit": Int(1, TRANSFER_PAGE, optional=True), "before": Int(1, MAX_CURSOR, optional=True)},
    # tournaments (docs/protocol.md, "Tournaments"): players
    "tournament_list": {},
    "tournament_details": {"tournament": TOURNAMENT},
    "tournament_subscribe": {"tournament": TOURNAMENT, "on": Bool()},
    "tournament_register": {"tournament": TOURNAMENT},
    "tournament_unregister": {"tournament": TOURNAMENT},
    "tournament_rebuy": {"tournament": TOURNAMENT},
    "tournament_add_on": {"tournament": TOURNAMENT},
    "tournament_act": {"tournament": TOURNAMENT, "action": Choice("fold", "check", "call", "bet", "raise"),
                       "decision": DECISION,
                       "to": Int(1, MAX_AMOUNT, optional=True)},
    "tournament_options": {"tournament": TOURNAMENT, "auto_muck": Bool()},       # off: show a beaten hand (SD-2)
    "stake_offer": {"tournament": TOURNAMENT, "percent": Int(1, 100), "markup_percent": Int(100, 200)},
    "stake_buy": {"tournament": TOURNAMENT, "seller": Str(3, 20), "percent": Int(1, 100)},
    "deal_propose": {"tournament": TOURNAMENT, "kind": Choice("icm", "chip_chop"),
                     "left_to_play_for": Int(0, MAX_AMOUNT, optional=True)},
    "deal_answer": {"tournament": TOURNAMENT, "accept": Bool()},
    "tournament_chat": {"tournament": TOURNAMENT, "table": TABLE, "text": Str(1, MAX_CHAT)},   # at your table there
    "tournament_invitations": {},                                      # a director's invitations (STAFF-2)
    "tournament_invitation_answer": {"tournament": TOURNAMENT, "accept": Bool()},
    # tournaments: directors (role director or admin); every command is recorded with who, when and why
    "director_create": {"template": Str(1, MAX_NAME), "id": Str(1, 32), "name": Str(1, MAX_NAME),
                        "start_in": Int(0, 7 * 86_400, nullable=True),
                        "settings": Field("map", optional=True, max_items=32, low=0, high=MAX_AMOUNT),
                        "game": Choice(*GAMES, optional=True), "satellite_target": Str(1, 32, optional=True)},
    "director_edit": {"tournament": TOURNAMENT, "settings": Field("map", max_items=32, low=0, high=MAX_AMOUNT)},
    "director_start": {"tournament": TOURNAMENT},
    "director_pause": {"tournament": TOURNAMENT, "reason": REASON},
    "director_resume": {"tournament": TOURNAMENT},
    "director_cancel": {"tournament": TOURNAMENT, "reason": REASON, "confirm": Bool()},
    "director_add_player": {"tournament": TOURNAMENT, "player": Str(3, 20), "reason": REASON},
    "director_remove_player": {"tournament": TOURNAMENT, "player": Str(3, 20), "reason": REASON},
    "director_move_player": {"tournament": TOURNAMENT, "player": Str(3, 20), "table": TABLE, "reason": REASON},
    "director_break_table": {"tournament": TOURNAMENT, "table": TABLE, "reason": REASON},
    "director_balance": {"tournament": TOURNAMENT, "reason": REASON},
    "director_deal": {"tournament": TOURNAMENT, "decision": Choice("approve", "cancel"), "reason": REASON},
    "director_broadcast": {"tournament": TOURNAMENT, "text": Str(1, MAX_CHAT)},
    "director_templates": {},
    "director_preview": {"template": Str(1, MAX_NAME), "entrants": Int(2, 100_000),
                         "settings": Field("map", optional=True, max_items=32, low=0, high=MAX_AMOUNT)},
    "director_activity": {"limit": Int(1, 500, optional=True), "tournament": Str(1, 32, optional=True)},
    # cash tables, run from the admin lobby (roles director and admin)
    "director_tables": {},
    "director_open_table": {"id": Str(1, 32), "name": Str(1, MAX_NAME), "game": Choice(*CASH_GAMES),
                            "small_blind": AMOUNT, "big_blind": AMOUNT, "min_buy_in": AMOUNT, "max_buy_in": AMOUNT,
                            "seats": Int(2, 10), "reason": REASON, "rake": Str(1, 32, optional=True)},
    "director_close_table": {"table": TABLE, "reason": REASON},
    # house money in tournaments (role admin only; STAFF-1; docs/protocol.md, "Promotions"): audited
    "admin_fund_promotions": {"source": Choice(HOUSE_RAKE, HOUSE_FEES, "deposit"), "amount": AMOUNT,
                              "reason": REASON},
    "admin_approve_tournament": {"tournament": TOURNAMENT, "reason": REASON},
    "admin_promotions": {},
    # an admin credits a player's wallet with money the room received from outside (a refund of a failed payment:
    # `payment` names it): bounded, audited (STAFF-1)
    "admin_credit": {"player": NICK, "amount": AMOUNT, "reason": REASON, "payment": Str(1, 100)},
    # casino tables (docs/protocol.md, "Casino")
    "casino_list": {},
    "casino_rules": {"table": TABLE},
    "casino_history": {"table": TABLE},
    "casino_join": {"table": TABLE, "seat": Int(1, 7, optional=True, nullable=True)},
    "casino_leave": {"table": TABLE},
    "casino_bet": {"table": TABLE, "market": Str(1, 40), "amount": AMOUNT,
                   "seat": Int(1, 7, optional=True, nullable=True)},
    "casino_decide": {"table": TABLE, "move": Choice(*CASINO_MOVES), "decision": DECISION,
                      "hand": Int(0, 1, optional=True)},
    "casino_bets": {"limit": Int(1, 100, optional=True)},
    "casino_claim": {"table": TABLE, "round": Int(1, 2**31 - 1), "text": Str(1, MAX_CHAT)},
    "casino_void": {"table": TABLE, "reason": REASON},
    # the security team (roles security and admin; docs/protocol.md, "Security review"): every action is audited
    "security_hands": {"player": NICK_OPT, "table": TABLE_OPT, "tournament": Str(1, 32, optional=True),
                       **PERIOD, "limit": Int(1, 500, optional=True)},
    "security_hand": {"hand_id": HAND},
    "security_chat": {"player": NICK_OPT, "table": TABLE_OPT, "text": Str(1, MAX_CHAT, optional=True),
                      **PERIOD, "limit": Int(1, 500, optional=True)},
    "security_pairs": {**PERIOD, "limit": Int(1, 500, optional=True)},
    "security_pair": {"a": NICK, "b": NICK, **PERIOD},
    "security_player": {"player": NICK},
    "security_ledger": {"player": NICK, "limit": Int(1, 500, optional=True)},
    "security_cases": {"state": Choice("open", "decided", optional=True)},
    "security_case": {"case": CASE},
    "security_case_open": {"title": Str(1, 120), "players": Field("list", low=3, high=20, max_items=10),
                           "reason": REASON},
    "security_case_note": {"case": CASE, "text": Str(1, 2000)},
    "security_case_attach": {"case": CASE, "hand_id": HAND},
    "security_case_decide": {"case": CASE, "decision": Str(1, 200), "reason": REASON},
    "security_export": {"case": CASE, "format": Choice("pokerstars", "ohh")},
    "security_mute": {"player": NICK, "table": Str(1, MAX_NAME, optional=True, nullable=True),
                      "minutes": Int(1, 10 * 365 * 24 * 60, optional=True, nullable=True), "reason": REASON},
    "security_unmute": {"player": NICK, "reason": REASON},
    "security_reset_nickname": {"player": NICK, "nickname": NICKNAME, "reason": REASON},
    "security_void": {"player": NICK, "hands": Field("list", low=1, high=120, max_items=200), "reason": REASON,
                      "case": Int(1, 2**31 - 1, optional=True)},
    "security_freeze": {"player": NICK, "on": Bool(), "reason": REASON},
    "security_ban": {"player": NICK, "reason": REASON},
    # STAFF-3: an admin sets an account's role; its live sessions have the new one at once
    "admin_set_role": {"player": NICK, "role": Choice("player", "director", "security", "admin"), "reason": REASON},
    "security_restrict": {"a": NICK, "b": NICK, "reason": REASON},
    "security_verify_identity": {"player": NICK, "real_name": Str(2, 100), "reason": REASON},
    "security_audit": {"kind": Str(1, 40, optional=True), "player": NICK_OPT, "limit": Int(1, 500, optional=True)},
    # AC-4: a verified player shows their real name instead of their nickname, or stops
    "real_name": {"on": Bool()},
}


@dataclass(frozen=True, slots=True)
class Request:
    type: str
    rid: int
    fields: dict[str, Any] = field(default_factory=dict)


def parse_request(data: object) -> Request:
    """The checked request, or :class:`ProtocolError` naming the first problem."""
    if not isinstance(data, dict):
        raise ProtocolError("bad_message", "a message is a map with a type")
    kind = data.get("type")
    if type(kind) is not str or kind not in REQUESTS:
        raise ProtocolError("unknown_type", f"unknown message type {_show(kind)}")
    rid = data.get("rid")
    if type(rid) is not int or not 0 <= rid <= MAX_RID:
        raise ProtocolError("bad_rid", "rid must be a whole number from 0 to 2147483647")
    spec = REQUESTS[kind]
    extra = [k for k in data if k not in spec and k not in ("type", "rid")]
    if extra:
        raise ProtocolError("unknown_field", f"{kind} has no field {_show(extra[0])}")
    fields = {}
    for name, rule in spec.items():
        if name not in data:
            if not rule.optional:
                raise ProtocolError("missing_field", f"{kind} needs {name}")
            continue
        fields[name] = _check(kind, name, rule, data[name])
    return Request(kind, rid, fields)


def _check(kind: str, name: str, rule: Field, value: object) -> object:
    where = f"{kind}.{name}"

    def refuse(generic: str) -> ProtocolError:
        return ProtocolError(rule.code, rule.says or generic, rule.rule)

    if value is None:
        if rule.nullable:
            return None
        raise refuse(f"{where} cannot be null")
    if rule.kind == "int":
        if type(value) is not int or not rule.low <= value <= rule.high:
            raise refuse(f"{where} must be a whole number from {rule.low} to {rule.high}")
    elif rule.kind == "str":
        if type(value) is not str or not rule.low <= len(value) <= rule.high or not value.isprintable() or (
                rule.pattern and not re.fullmatch(rule.pattern, value)):
            raise refuse(f"{where} must be printable text of {rule.low} to {rule.high} characters")
    elif rule.kind == "bool":
        if type(value) is not bool:
            raise refuse(f"{where} must be true or false")
    elif rule.kind == "choice":
        if type(value) is not str or value not in rule.choices:
            raise refuse(f"{where} must be one of {', '.join(rule.choices)}")
    elif rule.kind == "list":
        if not isinstance(value, list) or not 1 <= len(value) <= rule.max_items or not all(
                type(v) is str and rule.low <= len(v) <= rule.high and v.isprintable() for v in value):
            raise refuse(f"{where} must be a list of 1 to {rule.max_items} texts of {rule.low} to {rule.high} "
                         "characters")
    elif rule.kind == "map":
        if not isinstance(value, dict) or len(value) > rule.max_items:
            raise refuse(f"{where} must be a map of at most {rule.max_items} entries")
        for k, v in value.items():
            good_key = type(k) is str and 1 <= len(k) <= MAX_NAME
            if not good_key or type(v) is not int or not rule.low <= v <= rule.high:
                raise refuse(f"{where} maps names of 1 to {MAX_NAME} characters to whole numbers from {rule.low} "
                             f"to {rule.high}")
    return value


def _show(value: object) -> str:
    """What the client sent, as JSON would write it (``null``, ``"x"``), never a Python repr."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError):
        text = "a value of another kind"
    return text if len(text) <= 40 else text[:37] + "..."


def ok(request: Request, **data: Any) -> dict[str, Any]:
    """The answer to a request that succeeded."""
    return {"type": request.type, "rid": request.rid, "ok": True, **data}


def error(kind: str, rid: int | None, code: str, message: str, rule: str = "",
          amounts: dict[str, int] | None = None, currency: str = "") -> dict[str, Any]:
    """The answer to a request that failed: a code, a sentence and the rule ID when one applies.

    A refusal that names amounts also gives them as numbers: ``amounts`` (name
    -> minor units, the names the sentence uses) in ``currency`` (a currency
    code, or ``chips``), so a client can show them its own way.
    """
    problem: dict[str, Any] = {"code": code, "message": message, "rule": rule}
    if amounts:
        problem["amounts"] = amounts
        problem["currency"] = currency or "chips"
    return {"type": kind, "rid": rid, "ok": False, "error": problem}


def refused(kind: str, rid: int | None, refusal: Any) -> dict[str, Any]:
    """The answer carrying a :class:`~pokerroom.errors.RuleViolation`: its sentence, rule and amounts."""
    return error(kind, rid, refusal.code, refusal.message, refusal.rule_id, refusal.amounts or None,
                 unit_name(refusal.currency))
