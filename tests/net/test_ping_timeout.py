"""The ping timeout over real sockets (issue 33, finding 6): both read paths judge a client alike.

A client that sent small whole frames (the short path) but never answered a
ping was dropped; the same client sending frames over 125 bytes (Autobahn's
parser, where any traffic counted as a pong) stayed. Now only a pong answers a
ping, whichever path reads the client's frames.
"""

from __future__ import annotations

import threading

import msgpack

from tests.net.server_process import Player, start
from tests.support.waiting import wait_until
from tests.support.ws_frames import RawClient

REQUESTS = {"small": msgpack.packb({"type": "lobby_list", "rid": 1}),          # a whole small frame: the short path
            "large": msgpack.packb({"type": "resume", "rid": 1, "token": "x" * 128, "tables": {}})}   # over 125


def _talks_without_answering_pings(client: RawClient, size: str, stop: threading.Event, dropped: list) -> None:
    """A valid request every 0.2 s, reading (and never answering) what comes back: the client is alive, but deaf."""
    request = REQUESTS[size]
    client.sock.settimeout(0.2)
    while not stop.is_set():
        try:
            client.sock.sendall(client.frame(request, 2))
            if not client.sock.recv(65536):
                dropped.append(size)
                return
        except TimeoutError:
            continue
        except OSError:
            dropped.append(size)
            return


def test_a_client_that_never_answers_pings_is_dropped_on_the_short_path_and_on_autobahns_parser_alike(tmp_path):
    server = start(tmp_path, "", "ping_seconds = 1\n")
    stop = threading.Event()
    dropped: list[str] = []
    try:
        small, large = RawClient(server.url), RawClient(server.url)
        for client, size in ((small, "small"), (large, "large")):
            threading.Thread(target=_talks_without_answering_pings, args=(client, size, stop, dropped),
                             daemon=True).start()
        answering = Player(server.url)                          # websockets answers every ping
        assert wait_until(lambda: len(dropped) == 2, timeout=30), f"dropped only {dropped}"
        assert sorted(dropped) == ["large", "small"]
        assert len(REQUESTS["small"]) < 126 < len(REQUESTS["large"])
        assert answering.request("lobby_list")["ok"]            # a client that answers pings stays
    finally:
        stop.set()
        server.stop()
