"""Refusals a client can act on: one code per rule, the rid echoed when it can be read, and sentences about the
message -- never a Python or library name -- with amounts written in the table's money and given as numbers."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.amount_text import amount_text
from pokerroom.errors import RuleViolation
from pokerroom.gateway.server import echoed
from pokerroom.protocol.codec import JSON, MAX_DEPTH, MSGPACK, Codec
from pokerroom.protocol.pushes import verify_answer
from pokerroom.protocol.schema import ProtocolError, error, parse_request, refused
from tests.support.wire_schema import LEAK


def _refusal(frame: bytes, subprotocol: str) -> dict | None:
    """The gateway's answer to a frame that is refused (as server.onMessage builds it), or None if it parses."""
    codec, data = Codec(subprotocol), None
    try:
        data = codec.decode(frame, codec.binary)
        parse_request(data)
    except ProtocolError as e:
        kind, rid = echoed(data if data is not None else e.data)
        return error(kind, rid, e.code, e.message, e.rule)
    return None


@pytest.mark.parametrize("nickname", ["ab", "x" * 21, "ana maria", "ana!", "ána"])
def test_AC_3_every_nickname_that_misses_the_shape_is_bad_nickname_with_one_sentence(nickname):
    with pytest.raises(ProtocolError) as refused_:
        parse_request({"type": "register", "rid": 1, "nickname": nickname, "password": "correct horse",
                       "birth_date": "1990-04-01", "country": "NL"})
    assert (refused_.value.code, refused_.value.rule) == ("bad_nickname", "AC-3")
    assert refused_.value.message == "a nickname is 3 to 20 letters, digits, '_' or '-'"


@pytest.mark.parametrize("token", ["short", "x" * 129, 12345678901234567890])
def test_STAFF_3_a_token_that_cannot_be_one_is_bad_token(token):
    with pytest.raises(ProtocolError) as refused_:
        parse_request({"type": "resume", "rid": 1, "token": token, "tables": {}})
    assert (refused_.value.code, refused_.value.rule) == ("bad_token", "STAFF-3")


def test_msgpack_bin_is_valid_msgpack_and_refused_with_a_sentence_about_strings():
    answer = _refusal(msgpack.packb({"type": "logout", "rid": 4, "note": b"\x00\x01"}, use_bin_type=True), MSGPACK)
    assert answer["error"] == {"code": "bad_frame", "message": "strings must be msgpack str, not bin", "rule": ""}


@pytest.mark.parametrize("subprotocol", [MSGPACK, JSON])
def test_a_message_nesting_too_deep_echoes_its_type_and_rid(subprotocol):
    deep: object = 1
    for _ in range(MAX_DEPTH + 1):
        deep = [deep]
    codec = Codec(subprotocol)
    answer = _refusal(codec.encode({"type": "chat", "rid": 77, "table": "t1", "text": deep}), subprotocol)
    assert (answer["type"], answer["rid"], answer["error"]["code"]) == ("chat", 77, "bad_frame")
    assert answer["error"]["message"] == f"messages nest at most {MAX_DEPTH} levels deep"


@pytest.mark.parametrize(("message", "code"), [
    ({"type": "logout", "rid": 1, "admin": True}, "unknown_field"),
    ({"type": "join", "rid": 1, "table": "t", "buy_in": 500, "seat": 1, "Seat": 2}, "unknown_field"),
    ({"type": None, "rid": 1}, "unknown_type"),
])
def test_unknown_fields_and_types_are_refused_in_json_words(message, code):
    answer = _refusal(json.dumps(message).encode(), JSON)
    assert answer["error"]["code"] == code and not LEAK.search(answer["error"]["message"])
    assert answer["rid"] == 1


_wire = st.recursive(st.none() | st.booleans() | st.integers(-2**63, 2**64 - 1) | st.floats() | st.text(max_size=8)
                     | st.binary(max_size=4),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                         st.text(max_size=8) | st.binary(max_size=2) | st.integers(-9, 9), inner, max_size=4),
                     max_leaves=12)
_types = st.sampled_from(["join", "act", "resume", "register", "chat", "logout", "teleport"])


def _frames() -> st.SearchStrategy[bytes]:
    maps = st.builds(lambda kind, rid, rest: {"type": kind, "rid": rid, **rest}, _types | _wire,
                     st.integers(-3, 2**32) | _wire, st.dictionaries(st.text(max_size=10), _wire, max_size=5))
    packed = (maps | _wire).map(lambda v: msgpack.packb(v, use_bin_type=True, strict_types=False))
    return packed | st.binary(max_size=40) | packed.map(lambda b: b + b"\xc1") | packed.map(lambda b: b[:-1])


@settings(max_examples=400, deadline=None)
@given(_frames())
def test_no_refusal_of_a_fuzzed_msgpack_frame_names_python_or_a_library(frame):
    answer = _refusal(frame, MSGPACK)
    if answer is not None:
        verify_answer(answer)
        assert not LEAK.search(answer["error"]["message"]), answer


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=40) | st.text(max_size=40).map(str.encode)
       | st.sampled_from([b"NaN", b"[Infinity]", b'{"type":"logout","rid":1} {}', b"\xff\xfe", b"[" * 50]))
def test_no_refusal_of_a_fuzzed_json_frame_names_python_or_a_library(frame):
    answer = _refusal(frame, JSON)
    if answer is not None:
        verify_answer(answer)
        assert not LEAK.search(answer["error"]["message"]), answer


# ---------------------------------------------------------------------- amounts in the table's money


@pytest.mark.parametrize(("amount", "currency", "text"), [
    (400, "USD", "$4.00"), (123456, "USD", "$1,234.56"), (-5, "USD", "-$0.05"), (250, "EUR", "€2.50"),
    (1200, "CHF", "12.00 CHF"), (1200, "chips", "1,200 chips"), (1, "", "1 chip"), (1200, None, "1,200 chips"),
    (1500, "T$", "T$1,500"),
])
def test_an_amount_reads_in_its_currency_as_the_browser_shows_it(amount, currency, text):
    assert amount_text(amount, currency) == text


def test_HR_STAKE_4_the_core_gives_amounts_as_data_and_the_shell_words_them_in_the_tables_money():
    refusal = RuleViolation("buy_in_out_of_range", "the buy-in here is {min} to {max}, not {given}", "HR-STAKE-4",
                            amounts={"min": 400, "max": 1000, "given": 1200})
    assert refusal.message == "the buy-in here is 400 to 1000, not 1200"          # the core's own view
    answer = refused("join", 5, refusal.priced("USD").priced("EUR"))               # the first shell to say wins
    verify_answer(answer)
    assert answer["error"] == {"code": "buy_in_out_of_range", "rule": "HR-STAKE-4",
                               "message": "the buy-in here is $4.00 to $10.00, not $12.00",
                               "amounts": {"min": 400, "max": 1000, "given": 1200}, "currency": "USD"}
    plain = refused("join", 5, RuleViolation("seat_taken", "seat 3 is taken").priced("USD"))
    assert "amounts" not in plain["error"] and "currency" not in plain["error"]


FORMAT_JS = Path(__file__).resolve().parents[2] / "lobby" / "static" / "common" / "format.js"
AMOUNTS = [0, 1, 5, 99, 100, 400, 1_000, 123_456, 10_000_000, -250]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the browser's format.js")
@pytest.mark.parametrize("currency", ["USD", "EUR", "chips", ""])
def test_the_server_writes_an_amount_with_the_digits_the_browser_shows(currency):
    script = (f"import {{ money }} from {json.dumps(FORMAT_JS.as_uri())};"
              f"console.log(JSON.stringify({json.dumps(AMOUNTS)}.map(a => money(a, {json.dumps(currency)}))));")
    shown = json.loads(subprocess.run(["node", "--input-type=module", "-e", script], capture_output=True, text=True,
                                      check=True, timeout=30).stdout)
    ours = [amount_text(a, currency).replace("$", "").replace("€", "").replace(" chips", "").replace(" chip", "")
            for a in AMOUNTS]
    assert ours == shown
