"""A demo room stopped with SIGTERM: its own bots leave as the drain begins, so it stops at once instead of serving
them until the drain's deadline (``--drain-seconds``, 600 s by default)."""

from __future__ import annotations

import signal
import time

from tests.net.server_process import Server
from tests.support.cluster import port_of
from tests.support.haproxy import health_of
from tests.support.waiting import wait_until

BOTS, TOURNAMENT_BOTS = 3, 8        # the demo's cash bots asked for, and the demo tournament's field


def test_a_demo_room_drained_by_sigterm_stops_its_own_bots_and_exits_within_seconds(tmp_path):
    server = Server(tmp_path, "--bots", str(BOTS)).start()
    try:
        port = port_of(server)
        assert wait_until(lambda: health_of(port)[1]["connections"] >= BOTS + TOURNAMENT_BOTS, 30), \
            "the demo's bots never all connected"
        sent = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=15) == 0, "the demo room did not stop cleanly"
        assert time.monotonic() - sent < 10, "the demo room drained for its bots instead of stopping them"
    finally:
        server.stop()
