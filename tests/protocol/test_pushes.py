"""verify_push and verify_answer: what the server may send, and each way a message can break the declaration."""

from __future__ import annotations

from fractions import Fraction

import pytest

from pokerroom.poker.events import ActionTaken, event_to_dict
from pokerroom.protocol.pushes import EVENTS, PushError, verify_answer, verify_message, verify_push, wire_of
from pokerroom.protocol.schema import error
from pokerroom.table.events import HandEvent, PlayerSeated, table_event_to_dict

ACTION = ActionTaken(seq=19, seat=2, street="preflop", action="raise", added=20, to=20, facing=10, all_in=False,
                     timed_out=False, pot=35, behind=480)


def frame(*events: dict, **extra: object) -> dict:
    return {"type": "table_events", "table": "t1", "seq": 4190, "events": list(events), **extra}


def test_a_table_frame_made_from_the_cores_events_conforms():
    seated = table_event_to_dict(PlayerSeated(4188, 3, "ana", 500, False, None))
    hand = table_event_to_dict(HandEvent(4189, "t1-57", ACTION))
    legal = {"seat": 3, "can_check": False, "call_added": 20, "can_bet": False, "can_raise": True,
             "min_to": 40, "max_to": 1000, "run_it_twice": False, "decision": "t1-57/12"}
    verify_push(frame(seated, hand, legal=legal))
    verify_message({"type": "chat", "table": "t1", "player": "ana", "text": "gl", "at": 1764686400.5})


@pytest.mark.parametrize(("message", "says"), [
    ({"type": "table_evnts", "table": "t1"}, "undeclared push type 'table_evnts'"),
    ({"type": "reminder"}, "lacks its field 'minutes_played'"),
    ({"type": "reminder", "minutes_played": 60, "hours": 1}, "undeclared field 'hours'"),
    ({"type": "reminder", "minutes_played": "60"}, "reminder.minutes_played must be int"),
    ({"type": "reminder", "minutes_played": True}, "must be int, not bool"),
    ({"type": "table_closed", "table": None}, "table_closed.table cannot be null"),
    ({"type": "tournament_event", "tournament": "pko", "event": {"type": "shares_sold", "seller": "a",
      "backer": "b", "percent": Fraction(1, 3), "price": 100}}, "is a Fraction: not a wire type"),
    ({"type": "lobby_update", "tables": [], "closed": {"nl-x"}}, "is a set: not a wire type"),
    ({"type": "lobby_update", "tables": [], "closed": [3]}, "lobby_update.closed[0] must be str"),
    ({"type": "chat", "table": "t1", "player": "a", "text": b"gl", "at": 1.0}, "is a bytes: not a wire type"),
    ({"type": "casino_state", "table": "bj", "game": "BJ", "round": 3, "phase": "open", "results": [],
      "seats": {1: "ana"}}, "has a int key 1: map keys are strings"),
    ({"type": "chat", "table": "t1", "player": "a", "text": "gl", "at": float("nan")}, "not a number JSON carries"),
    (frame({"type": "hand_event", "seq": 1, "hand_id": "h", "event": {"type": "card_dealt"}}),
     "undeclared hand event 'card_dealt'"),
    (frame(dict(event_to_dict(ACTION), type="action_taken")), "undeclared table event 'action_taken'"),
    (frame(table_event_to_dict(HandEvent(1, "h", ACTION)) | {"extra": 1}), "undeclared field 'extra'"),
    (frame(legal={"seat": 3}), "lacks its field 'can_check'"),
    ({"type": "join", "rid": 7, "ok": False, "error": {"code": "no_such_code", "message": "?", "rule": ""}},
     "'no_such_code' is not in the catalogue"),
    ({"type": "join", "rid": 7, "ok": False, "error": {"code": "seat_taken", "message": "taken"}},
     "lacks its field 'rule'"),
    ({"type": "nonsense", "rid": 7, "ok": True}, "ok answers only a declared request"),
    ({"type": "join", "ok": True, "seat": 3}, "rid is the request's"),
    ({"type": "join", "rid": 7, "ok": True, "seat": Fraction(3)}, "is a Fraction"),
])
def test_each_kind_of_malformed_message_is_refused_with_what_is_wrong(message, says):
    with pytest.raises(PushError) as refused:
        verify_message(message)
    assert says in str(refused.value)


def test_answers_conform_as_the_schema_makes_them():
    verify_answer({"type": "join", "rid": 7, "ok": True, "seat": 3})
    verify_answer(error("join", 7, "seat_taken", "seat 3 is taken", "BJ-3"))
    verify_answer(error("error", None, "bad_frame", "the frame is not valid json"))
    verify_answer(error("whatever_they_sent", 2, "unknown_type", "unknown message type 'whatever_they_sent'"))
    verify_answer(error("join", -5, "bad_rid", "rid must be a whole number from 0 to 2147483647"))   # echoed as sent


def test_field_kinds_come_from_the_annotations_of_the_cores_dataclasses():
    assert (wire_of("int | None").kind, wire_of("int | None").nullable) == ("int", True)
    assert wire_of("tuple[tuple[str, int | None], ...]").kind == "list"
    assert wire_of("dict[str, int]").kind == "map"
    assert wire_of("hand_events.Event").of == "hand"
    assert EVENTS["hand"]["action_taken"]["added"].kind == "int"
    assert EVENTS["hand"]["action_taken"]["behind"].kind == "int"
    assert EVENTS["table"]["decision_started"]["deadline"].kind == "float"
    assert EVENTS["table"]["decision_started"]["seconds"].kind == "float"
    assert EVENTS["tournament"]["shares_sold"]["percent"].kind == "int"
    assert "payment" not in EVENTS["tournament"]          # money moves are not pushed: they are in bet_history


def test_every_field_of_every_event_has_a_wire_kind_so_no_fraction_or_object_can_be_declared():
    loose = [(family, kind, name) for family, events in EVENTS.items() for kind, spec in events.items()
             for name, rule in spec.items() if rule.kind == "any"]
    assert loose == []
    assert wire_of("Fraction").kind == "any" and wire_of("Payout").kind == "any"    # what the check above refuses
