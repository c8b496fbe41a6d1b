"""The protocol module against the code: every request routed, every error code catalogued, every push declared."""

from __future__ import annotations

from twisted.internet.task import Clock

from pokerroom.app import build_room
from pokerroom.protocol.errors import ERRORS, SECTIONS
from pokerroom.protocol.pushes import EVENTS, PUSHES
from pokerroom.protocol.schema import REQUESTS
from tests.support.code_scan import browser_types, pushed_types, raised_codes

# codes that are not literals where they are raised, and what they can be
FORWARDED = {                       # a refusal passed on with the code it already has
    ("pokerroom/protocol/schema.py", "refusal.code"),  # refused(): a RuleViolation's own code
    ("pokerroom/gateway/server.py", "e.code"),
    ("pokerroom/bus/strict.py", "error.code"),          # a responder's refusal, carried to the requester
    ("pokerroom/bus/nats_bus.py", "record.code"),       # a refusal carried over NATS, as the strict bus carries it
    ("pokerroom/poker/hand.py", "*refusal"),            # the (code, message, rule) of _raise_refusal, scanned too
}
MADE_BY_FIELDS = {                  # a request field's own code (schema.Field.code) for a value it refuses
    ("pokerroom/protocol/schema.py", "rule.code"),
}
MADE = {("pokerroom/poker/hand.py", "f'{word}_too_small'"): {"bet_too_small", "raise_too_small"},
        # a resume's refusal, as the node holding the table judged it (TableHost._resume_read), or no node knew it
        ("pokerroom/shell/every_node.py", "code"): {"no_such_table", "not_watching", "bad_seq"}}


def _codes_in_use() -> tuple[dict[str, set[str]], list[str]]:
    """Code -> the literal rule IDs it is raised with; and what could not be read."""
    used: dict[str, set[str]] = {}
    unread = []
    for r in raised_codes():
        key = (r.where.split(":")[0], r.expression)
        if r.code is not None:
            used.setdefault(r.code, set()).update({r.rule} if r.rule else set())
        elif key in MADE:
            for code in MADE[key]:
                used.setdefault(code, set())
        elif key in MADE_BY_FIELDS:
            for code in {rule.code for spec in REQUESTS.values() for rule in spec.values()}:
                used.setdefault(code, set())
        elif key not in FORWARDED:
            unread.append(f"{r.where}: {r.expression}")
    return used, unread


def test_every_code_the_code_base_raises_is_in_the_catalogue_and_every_catalogued_code_is_raised():
    used, unread = _codes_in_use()
    assert unread == [], "a code that is not a literal: name what it can be in MADE (or FORWARDED)"
    assert sorted(set(used) - set(ERRORS)) == [], "raised but not in pokerroom/protocol/errors.py"
    assert sorted(set(ERRORS) - set(used)) == [], "catalogued but raised nowhere"


def test_the_catalogue_names_every_rule_a_code_is_raised_under():
    used, _ = _codes_in_use()
    missing = {code: sorted(rules - set(ERRORS[code].rules)) for code, rules in used.items()
               if code in ERRORS and rules - set(ERRORS[code].rules)}
    assert missing == {}


def test_each_code_is_in_one_section_with_a_meaning():
    assert sum(len(section) for section in SECTIONS.values()) == len(ERRORS)
    assert [code for code, entry in ERRORS.items() if not entry.meaning.strip() or "\n" in entry.meaning] == []


def test_the_scan_reads_codes_from_every_kind_of_raise():
    used, _ = _codes_in_use()
    assert {"seat_taken", "bad_field", "rate_limited", "unknown_market", "no_one_to_raise",
            "raise_too_small"} <= set(used)      # RuleViolation, ProtocolError, error(), a constant, a refusal tuple
    assert "BET-7" in used["no_one_to_raise"]


def test_every_request_has_a_handler_in_the_built_room_and_every_handler_a_request(tmp_path):
    room = build_room(None, None, str(tmp_path), reactor=Clock(), casino_clock=Clock())
    handlers = set(room.gateway.handlers)
    assert sorted(set(REQUESTS) - handlers) == [], "declared requests no service answers"
    assert sorted(handlers - set(REQUESTS)) == [], "handlers of requests the schema does not declare"
    assert all(callable(room.gateway.handlers[kind]) for kind in REQUESTS)


NOT_PUSHES: dict[str, str] = {}     # a ``{"type": ...}`` the shell builds that never reaches a client: why


def test_every_push_the_shell_builds_is_declared():
    declared = set(PUSHES) | {kind for family in EVENTS.values() for kind in family}
    built = pushed_types()
    assert {"table_events", "casino_events", "tournament_invitation", "round_voided"} <= set(built)
    assert {kind: where for kind, where in built.items() if kind not in declared and kind not in NOT_PUSHES} == {}


def test_push_and_request_types_are_apart():
    assert set(PUSHES) & set(REQUESTS) == {"chat", "tournament_chat"}    # a line is what one says and all hear


CLIENT_SIGNALS = {"closed": "common/room.js: the socket closed",
                  "error": "common/room.js: a refusal no request waits for", "*": "common/room.js: every message"}


def test_what_the_browser_clients_listen_for_and_match_by_type_is_declared():
    listens, matches = browser_types()
    assert {"table_events", "tournament_event"} <= set(listens) and {"hand_started", "posted"} <= set(matches)
    assert {kind: where for kind, where in listens.items() if kind not in PUSHES and kind not in CLIENT_SIGNALS} == {}
    known = set(PUSHES) | set(REQUESTS) | {kind for family in EVENTS.values() for kind in family}
    assert {kind: where for kind, where in matches.items() if kind not in known} == {}
