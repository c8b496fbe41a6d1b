"""How the room reads frames, over a real socket: a read that is one whole small message takes the room's short
path; split, fragmented, pipelined and malformed frames take Autobahn's, with the same answers and errors."""

from __future__ import annotations

import json

import msgpack
import pytest

from tests.net.server_process import serving
from tests.support.ws_frames import RawClient


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with serving(tmp_path_factory.mktemp("frames")) as s:
        yield s


@pytest.fixture
def connect(server):
    """Open raw clients on the room's one port; every one is closed when the test ends."""
    opened: list[RawClient] = []

    def open_one(subprotocol: str = "pokerroom.v1.msgpack") -> RawClient:
        opened.append(RawClient(server.url, subprotocol))
        return opened[-1]

    yield open_one
    for client in opened:
        client.close()


def lobby(rid: int) -> bytes:
    return msgpack.packb({"type": "lobby_list", "rid": rid})


def answers(client: RawClient, count: int) -> list[dict]:
    out = []
    while len(out) < count:
        opcode, payload = client.read_frame()
        assert opcode == 2
        message = msgpack.unpackb(payload, raw=False)
        if "rid" in message:
            out.append(message)
    return out


def test_one_whole_message_per_read_is_answered(connect):
    client = connect()
    client.sock.sendall(client.frame(lobby(1), 2))
    (answer,) = answers(client, 1)
    assert answer["rid"] == 1 and answer["ok"] and answer["tables"]


def test_pipelined_and_split_frames_are_read_whole_and_in_order(connect):
    client = connect()
    frames = b"".join(client.frame(lobby(rid), 2) for rid in (1, 2, 3))
    client.sock.sendall(frames)                                    # three messages in one read
    assert [a["rid"] for a in answers(client, 3)] == [1, 2, 3]
    four, five = client.frame(lobby(4), 2), client.frame(lobby(5), 2)
    client.sock.sendall(four[:5])                                  # a frame cut inside its mask ...
    client.sock.sendall(four[5:] + five[:3])                       # ... its rest with the next one begun ...
    assert [a["rid"] for a in answers(client, 1)] == [4]
    client.sock.sendall(five[3:])                                  # ... and that one's rest
    assert [a["rid"] for a in answers(client, 1)] == [5]


def test_a_fragmented_message_is_put_together_and_answered(connect):
    client = connect()
    whole = lobby(7)
    client.sock.sendall(client.frame(whole[:3], 2, fin=False))
    client.sock.sendall(client.frame(whole[3:], 0))                # the continuation frame
    (answer,) = answers(client, 1)
    assert answer["rid"] == 7 and answer["ok"]


def test_a_text_frame_that_is_not_utf8_closes_the_connection_with_1007(connect):
    client = connect("pokerroom.v1.json")
    client.sock.sendall(client.frame(json.dumps({"type": "lobby_list", "rid": 1}).encode(), 1))
    opcode, payload = client.read_frame()
    assert opcode == 1 and json.loads(payload)["rid"] == 1         # a good text frame: answered
    client.sock.sendall(client.frame(b'{"type": "lobby_list", "rid": 2, "x": "\xff\xfe"}', 1))
    assert client.close_code() == 1007                             # invalid UTF-8: RFC 6455, 8.1


def test_an_unmasked_frame_from_a_client_fails_the_connection(connect):
    client = connect()
    payload = lobby(1)
    client.sock.sendall(bytes((0x82, len(payload))) + payload)     # clients must mask (RFC 6455, 5.1)
    assert client.close_code() == 1002
