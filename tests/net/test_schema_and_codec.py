"""The protocol's message schema and its two codecs: hostile input is refused with a code, never a crash."""

from __future__ import annotations

import json

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerroom.protocol.codec import JSON, MAX_FRAME, MSGPACK, Codec, pack, pack_with_packed_list
from pokerroom.protocol.schema import REQUESTS, ProtocolError, error, ok, parse_request


def test_a_good_request_parses_to_its_fields():
    r = parse_request({"type": "join", "rid": 7, "table": "nl-1", "seat": None, "buy_in": 4000})
    assert (r.type, r.rid, r.fields) == ("join", 7, {"table": "nl-1", "seat": None, "buy_in": 4000})
    assert ok(r, seat=3) == {"type": "join", "rid": 7, "ok": True, "seat": 3}
    assert error("join", 7, "seat_taken", "seat 3 is taken", "")["error"]["code"] == "seat_taken"


@pytest.mark.parametrize(("message", "code"), [
    ([1, 2], "bad_message"),
    ({"rid": 1}, "unknown_type"),
    ({"type": "teleport", "rid": 1}, "unknown_type"),
    ({"type": "logout"}, "bad_rid"),
    ({"type": "logout", "rid": True}, "bad_rid"),
    ({"type": "logout", "rid": -1}, "bad_rid"),
    ({"type": "logout", "rid": 1, "admin": True}, "unknown_field"),
    ({"type": "join", "rid": 1, "table": "t"}, "missing_field"),
    ({"type": "join", "rid": 1, "table": "t", "buy_in": -5}, "bad_field"),
    ({"type": "join", "rid": 1, "table": "t", "buy_in": 10**13}, "bad_field"),
    ({"type": "join", "rid": 1, "table": "t", "buy_in": 1.5}, "bad_field"),
    ({"type": "join", "rid": 1, "table": "t", "buy_in": True}, "bad_field"),
    ({"type": "join", "rid": 1, "table": "", "buy_in": 100}, "bad_field"),
    ({"type": "join", "rid": 1, "table": "t" * 65, "buy_in": 100}, "bad_field"),
    ({"type": "join", "rid": 1, "table": "t", "buy_in": 100, "seat": 11}, "bad_field"),
    ({"type": "act", "rid": 1, "table": "t", "action": "steal"}, "bad_field"),
    ({"type": "chat", "rid": 1, "table": "t", "text": "x" * 281}, "bad_field"),
    ({"type": "chat", "rid": 1, "table": "t", "text": "bell\x07"}, "bad_field"),
    ({"type": "options", "rid": 1, "table": "t", "auto_post_blinds": "false"}, "bad_field"),
    ({"type": "resume", "rid": 1, "token": "x" * 32, "tables": {"t": -1}}, "bad_field"),
    ({"type": "resume", "rid": 1, "token": "x" * 32, "tables": {str(i): 1 for i in range(65)}}, "bad_field"),
])
def test_a_bad_request_is_refused_with_a_code_and_a_sentence(message, code):
    with pytest.raises(ProtocolError) as refused:
        parse_request(message)
    assert refused.value.code == code and refused.value.message


@pytest.mark.parametrize("subprotocol", [MSGPACK, JSON])
def test_both_codecs_carry_the_same_messages(subprotocol):
    codec = Codec(subprotocol)
    message = {"type": "act", "rid": 3, "table": "nl-1", "action": "raise", "to": 600}
    assert codec.decode(codec.encode(message), codec.binary) == message


@pytest.mark.parametrize(("subprotocol", "payload", "binary"), [
    (MSGPACK, b"\xc1", True),                                   # never-used msgpack byte
    (MSGPACK, msgpack.packb({"a": 1}) + b"\x00", True),         # trailing data
    (MSGPACK, msgpack.packb({1: 2}), True),                     # non-string map key
    (MSGPACK, msgpack.packb(b"\x00" * 10), True),               # bin is not part of the protocol
    (MSGPACK, msgpack.packb([[[[[[1]]]]]]), True),              # too deep
    (MSGPACK, msgpack.packb({"type": "x"}), False),             # text frame on the binary protocol
    (JSON, b'{"type": NaN}', False),
    (JSON, b"\xff\xfe", False),
    (JSON, b"[" * 5000 + b"]" * 5000, False),
    (JSON, b"x" * (MAX_FRAME + 1), False),
])
def test_a_hostile_frame_is_a_protocol_error(subprotocol, payload, binary):
    with pytest.raises(ProtocolError):
        Codec(subprotocol).decode(payload, binary)


@given(st.binary(max_size=300))
def test_random_bytes_never_crash_the_msgpack_decoder(payload):
    try:
        value = Codec(MSGPACK).decode(payload, True)
    except ProtocolError:
        return
    try:
        parse_request(value)
    except ProtocolError:
        pass


KEYS = st.sampled_from(["type", "rid", "table", "buy_in", "seat", "action", "amount", "text"])


@given(st.dictionaries(KEYS,
                       st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=5),
                                 st.sampled_from(sorted(REQUESTS))), max_size=6))
def test_random_maps_are_parsed_or_refused_never_crash(message):
    try:
        request = parse_request(message)
    except ProtocolError as refused:
        assert refused.code
        return
    assert request.type in REQUESTS
    json.dumps(ok(request))


_values = st.recursive(st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) | st.floats() | st.text()
                       | st.binary(), lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner), max_leaves=20)


@given(_values)
def test_the_reused_packer_writes_the_bytes_packb_writes(value):
    assert pack(value) == msgpack.packb(value)
    with pytest.raises(TypeError):
        pack({"half": [value, object()]})                  # a value it cannot pack leaves nothing behind
    assert pack(value) == msgpack.packb(value)


_json_values = st.recursive(st.none() | st.booleans() | st.integers(-2**53, 2**53) | st.text(),
                            lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                            max_leaves=12)


@pytest.mark.parametrize("subprotocol", [MSGPACK, JSON])
@given(shared=st.dictionaries(st.text(max_size=6).filter(lambda k: not k.startswith("x-")), _json_values,
                             max_size=17),
       extra=st.dictionaries(st.text(max_size=6).map(lambda k: "x-" + k), _json_values, max_size=3))
def test_an_extended_frame_reads_as_the_shared_message_with_the_extra_keys(subprotocol, shared, extra):
    codec = Codec(subprotocol)
    extended = codec.extend(codec.encode(shared), extra)
    assert codec.decode_from_server(extended) == {**shared, **extra}


@given(head=st.dictionaries(st.sampled_from(["type", "table", "seq", "hand"]), _json_values, max_size=4),
       items=st.lists(_json_values, max_size=40))
def test_a_frame_built_from_packed_items_is_the_frame_pack_builds(head, items):
    assert pack_with_packed_list(head, "events", [pack(item) for item in items]) == pack({**head, "events": items})
