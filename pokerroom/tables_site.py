"""The port of a ``pokerroom serve --role tables`` process: ``/health`` and ``/metrics``, and no WebSocket.

A table process holds no client connection (its clients reach it over the bus, through a gateway process), so it
listens for no game protocol; it still answers ``/health`` -- ``role`` ``tables``, its node and the cash tables it
runs, once its restores are done -- so an operator's monitoring and the tests see that it is up and ready, and
``/metrics``, the counters of its own process (the tables, the collector's pauses). A load balancer sends it no
players: it is not in the gateway's rotation (docs/operations.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from twisted.web.resource import Resource
from twisted.web.server import Site

from pokerroom.gateway.metrics import Metrics as RoomMetrics
from pokerroom.gateway.server import Metrics


class TablesHealth(Resource):
    """``/health`` of a table process: ok, its node, its role, the cash tables it runs and the tournament hands it
    plays for a director elsewhere."""

    isLeaf = True

    def __init__(self, tables: Callable[[], int], node: str, demo: bool, hands: Callable[[], int]) -> None:
        super().__init__()
        self.tables = tables
        self.hands = hands
        self.node = node
        self.demo = demo

    def render_GET(self, request: Any) -> bytes:                    # noqa: N802 - twisted.web's name
        request.setHeader(b"content-type", b"application/json")
        request.setHeader(b"cache-control", b"no-store")
        return json.dumps({"status": "ok", "node": self.node, "role": "tables", "tables": self.tables(),
                           "tournament_hands": self.hands(), "demo": self.demo}).encode()


class TablesSite(Site):
    """The table process's site: a monitor's polls are not logged one by one."""

    noisy = False

    def log(self, request: Any) -> None:
        pass


def build_tables_site(metrics: RoomMetrics, tables: Callable[[], int], *, node: str, demo: bool,
                      hands: Callable[[], int] = lambda: 0) -> Site:
    root = Resource()
    root.putChild(b"health", TablesHealth(tables, node, demo, hands))
    root.putChild(b"metrics", Metrics(metrics))
    return TablesSite(root)
