"""docs/protocol.schema.json and docs/asyncapi.json against the protocol module: current, valid, and in agreement."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from pokerroom.protocol import json_schema
from pokerroom.protocol.errors import ERRORS
from pokerroom.protocol.pushes import EVENTS, PUSHES, RECORDS
from pokerroom.protocol.schema import REQUESTS, ProtocolError, error, parse_request
from tests.support.wire_schema import request_problem, server_problem


def test_the_committed_files_are_what_the_generator_writes():
    for name, text in json_schema.rendered().items():
        assert (json_schema.DOCS / name).read_text(encoding="utf-8") == text, \
            "run python -m pokerroom.protocol.json_schema"
    assert json_schema.main(["--check"]) == 0


def test_the_schema_is_a_valid_draft_2020_12_schema_with_a_definition_for_every_message():
    schema = json_schema.build_schema()
    Draft202012Validator.check_schema(schema)
    names = set(schema["$defs"])
    assert {f"request.{k}" for k in REQUESTS} | {f"push.{k}" for k in PUSHES} | {f"record.{k}" for k in RECORDS} \
        <= names
    assert {f"event.{family}.{k}" for family, events in EVENTS.items() for k in events} <= names
    assert schema["$defs"]["error"]["properties"]["code"]["enum"] == list(ERRORS)


def test_the_asyncapi_document_has_both_subprotocols_and_points_into_the_schema():
    doc = json_schema.build_asyncapi()
    schema = json_schema.build_schema()
    assert doc["asyncapi"] == "3.0.0" and set(doc["channels"]) == {"json", "msgpack"}
    assert {c["bindings"]["ws"]["headers"]["properties"]["Sec-WebSocket-Protocol"]["const"]
            for c in doc["channels"].values()} == {"pokerroom.v1.json", "pokerroom.v1.msgpack"}
    for message in doc["components"]["messages"].values():
        target = message["payload"]["schema"]["$ref"]
        file, pointer = target.split("#/$defs/")
        assert file == json_schema.SCHEMA_FILE and pointer in schema["$defs"]
    for operation in doc["operations"].values():
        channel = operation["channel"]["$ref"].split("/")[-1]
        assert all(m["$ref"].startswith(f"#/channels/{channel}/messages/") for m in operation["messages"])
        assert all(m["$ref"].split("/")[-1] in doc["channels"][channel]["messages"] for m in operation["messages"])


@pytest.mark.parametrize("message", [
    {"type": "join", "rid": 7, "table": "nl-1", "seat": None, "buy_in": 4000},
    {"type": "register", "rid": 1, "nickname": "Ana_99", "password": "correct horse", "birth_date": "1990-04-01",
     "country": "NL"},
    {"type": "register", "rid": 1, "nickname": "Ana 99", "password": "correct horse", "birth_date": "1990-04-01",
     "country": "NL"},
    {"type": "resume", "rid": 1, "token": "short", "tables": {}},
    {"type": "resume", "rid": 1, "token": "x" * 32, "tables": {"t": 5}},
    {"type": "logout", "rid": 1, "admin": True},
    {"type": "join", "rid": 1, "table": "t", "buy_in": True},
    {"type": "join", "rid": -1, "table": "t", "buy_in": 5},
    {"type": "act", "rid": 1, "table": "t", "action": "raise", "amount": 60},
    {"type": "act", "rid": 1, "table": "t", "action": "steal"},
    {"type": "director_edit", "rid": 1, "tournament": "x", "settings": {"buy_in": 5, "": 1}},
    {"type": "security_case_open", "rid": 1, "title": "t", "players": [], "reason": "r"},
])
def test_the_schema_allows_a_request_exactly_when_the_parser_does(message):
    try:
        parse_request(message)
        parsed = True
    except ProtocolError:
        parsed = False
    assert (request_problem(message) is None) == parsed, request_problem(message)


def frame(*events: dict, **extra: object) -> dict:
    return {"type": "table_events", "table": "t1", "seq": 4190, "events": list(events), **extra}


def test_server_messages_the_declarations_allow_the_schema_allows_and_the_reverse():
    legal = {"seat": 3, "can_check": False, "call_added": 20, "can_bet": False, "can_raise": True,
             "min_to": 40, "max_to": 1000, "run_it_twice": False, "decision": "t1-57/19"}
    good = [frame({"type": "hand_event", "seq": 4189, "hand_id": "t1-57",
                   "event": {"type": "action_taken", "seq": 19, "seat": 2, "street": "preflop", "action": "raise",
                             "added": 20, "to": 20, "facing": 10, "all_in": False, "timed_out": False,
                             "pot": 35, "behind": 980}},
                  legal=legal),
            {"type": "chat", "table": "t1", "player": "ana", "text": "gl", "at": 1764686400.5},
            {"type": "join", "rid": 7, "ok": True, "seat": 3},
            error("join", 7, "buy_in_out_of_range", "the buy-in here is $4.00 to $10.00, not $12.00", "HR-STAKE-4",
                  {"min": 400, "max": 1000, "given": 1200}, "USD"),
            error("error", None, "bad_frame", "the frame is not valid JSON")]
    assert [server_problem(m) for m in good] == [None] * len(good)
    bad = [{"type": "reminder"}, {"type": "reminder", "minutes_played": True},
           {"type": "table_closed", "table": None}, {"type": "nonsense", "rid": 7, "ok": True},
           frame({"type": "hand_event", "seq": 1, "hand_id": "h", "event": {"type": "card_dealt"}}),
           frame(legal={"seat": 3}),
           {"type": "join", "rid": 7, "ok": False, "error": {"code": "no_such_code", "message": "?", "rule": ""}},
           {"type": "join", "rid": 7, "ok": False,
            "error": {"code": "bad_amount", "message": "?", "rule": "", "amounts": {"min": 1}}}]
    assert all(server_problem(m) is not None for m in bad), [server_problem(m) for m in bad]


def test_the_generator_command_writes_json_a_client_can_load(tmp_path, monkeypatch):
    monkeypatch.setattr(json_schema, "DOCS", tmp_path)
    assert json_schema.main(["--check"]) == 1                   # nothing there yet
    assert json_schema.main([]) == 0 and json_schema.main(["--check"]) == 0
    assert json.loads((tmp_path / json_schema.SCHEMA_FILE).read_text())["$id"] == json_schema.SCHEMA_ID
