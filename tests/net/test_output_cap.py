"""The output cap over a real socket (issue 33, finding 3): a client that does not read is closed once, with 4011.

The close frame the cap sends passes the same write path that measured the
backlog; it once started another close there, 121 levels deep, until a
RecursionError dropped the socket without the documented close -- and when the
frame that crossed the cap was a push, the bus swallowed the error and the
connection kept growing.

A client that never reads never answers a ping either: at the room's 20 s the
ping timeout drops it, without 4011, if its backlog has not crossed the cap by
then. A watched table's pushes come one join or leave at a time, and the
kernel's buffers take kilobytes of them before the room's own queue grows at
all, so on a loaded machine the ping timeout won (CI, 2 cores under xdist). Here
pings wait an hour and the buffers and cap are small: only the cap ends the
connection, and it takes a few dozen joins and leaves, not a few hundred.
"""

from __future__ import annotations

import struct
import threading

import msgpack
from websockets.exceptions import ConnectionClosed

from tests.net.ledger_check import assert_ledger_sound
from tests.net.server_process import Player, Server, start
from tests.support.socket_play import sign_up
from tests.support.waiting import wait_until
from tests.support.ws_frames import RawClient

CAP = "queued_bytes = 8192\nsend_buffer = 4096\nping_seconds = 3600\n"     # only the cap closes the client


def _closes(frames: list[tuple[int, bytes]]) -> list[int]:
    return [struct.unpack("!H", payload[:2])[0] for opcode, payload in frames if opcode == 8]


def _closed_once_for_not_reading(server: Server, client: RawClient, flood: threading.Event,
                                 feeder: threading.Thread) -> None:
    """The cap closes ``client`` while ``feeder`` still makes the room write to it (a feeder that stopped first
    fails the test at once, with its reason; the wait's bound is only for a room that hangs)."""
    log = server.tmp / "server.log"
    feeder.start()
    wait_until(lambda: "does not read" in log.read_text() or not feeder.is_alive(), timeout=180)
    assert "does not read" in log.read_text(), ("the cap never closed the client", feeder.is_alive(),
                                                 getattr(feeder, "ended", None), log.read_text()[-2000:])
    flood.set()                                             # the room has the client's backlog to send, not more
    frames = client.frames_until_closed()                   # now it reads: all that waited, then the close
    assert _closes(frames) == [4011], (_closes(frames)[:5], len(frames), log.read_text()[-2000:])
    text = log.read_text()
    assert text.count("does not read") == 1
    assert "Traceback" not in text and "RecursionError" not in text, text[-3000:]


def _flood(client: RawClient, messages: list[dict], stop: threading.Event) -> None:
    """Send ``messages`` over and over until ``stop`` (or the socket closes); rids count up from 100."""
    rid = 100
    try:
        while not stop.is_set():
            for message in messages:
                rid += 1
                client.sock.sendall(client.frame(msgpack.packb(dict(message, rid=rid)), 2))
    except OSError:
        return


def test_a_client_that_never_reads_its_answers_gets_exactly_one_4011_close_and_no_traceback(tmp_path):
    server = start(tmp_path, "", CAP, "--max-rate", "1000000")
    client = RawClient(server.url, receive_buffer=4096)
    stop = threading.Event()
    try:                                                    # lobby answers, over 125 bytes each, never read
        flood = threading.Thread(target=_flood, args=(client, [{"type": "lobby_list"}], stop), daemon=True)
        _closed_once_for_not_reading(server, client, stop, flood)
    finally:
        stop.set()
        client.close()
        server.stop()


def test_a_client_that_never_reads_the_pushes_of_a_table_it_watches_gets_exactly_one_4011_close(tmp_path):
    server = start(tmp_path, "", CAP, "--max-rate", "1000000")
    watcher = RawClient(server.url, receive_buffer=4096)
    stop = threading.Event()
    try:
        watcher.sock.sendall(watcher.frame(msgpack.packb({"type": "observe", "rid": 1, "table": "t1", "on": True}), 2))
        ana: Player = sign_up(server.url, "ana")[0]

        def sit_and_stand() -> None:                        # every join and leave is pushed to the watcher
            try:
                while not stop.is_set():
                    answers = ana.request("join", table="t1", buy_in=1000), ana.request("leave", table="t1")
                    if not all(a["ok"] for a in answers):   # a refusal pushes nothing: the watcher's backlog stalls
                        seats.ended = answers
                        return
            except (ConnectionClosed, TimeoutError) as e:    # the server stopping ends it
                seats.ended = repr(e)

        seats = threading.Thread(target=sit_and_stand, daemon=True)
        _closed_once_for_not_reading(server, watcher, stop, seats)
        assert Player(server.url).request("lobby_list")["ok"]     # the room goes on for everyone else
    finally:
        stop.set()
        watcher.close()
        server.stop()
    assert_ledger_sound(tmp_path / "data")                    # every buy-in came back with its leave
