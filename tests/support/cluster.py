"""A room of several real ``pokerroom serve`` processes on one PostgreSQL database and one NATS room (issue 21).

Each process (node) has its own directory (its config, its log) and runs with ``--node``, ``--database`` and
``--bus``. The first node started makes the database's schema, so it starts alone; the others then start
together. Which node owns which table is read where the room keeps it: the ``table_leases`` rows.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterable
from pathlib import Path

from sqlalchemy import create_engine, text

from tests.net.server_process import Player, Server
from tests.support.haproxy import PROXY_LOCAL, Balancer, health_of
from tests.support.nats_buses import NATS, require_nats
from tests.support.waiting import wait_until

WELCOME = 100_000                           # the demo rules' welcome balance


def room_bus() -> str:
    """A NATS room of this test's own on the machine's NATS (a skip without one)."""
    require_nats()
    return f"{NATS}/cluster-{uuid.uuid4().hex[:12]}"


def node(tmp: Path, name: str, config: str, database: str, bus: str, *flags: str) -> Server:
    """One process of the room in ``tmp/name``, not started."""
    where = tmp / name
    where.mkdir()
    (where / "room.toml").write_text(config)
    return Server(where, "--node", name, "--database", database, "--bus", bus, *flags, bus="")


def start_nodes(nodes: list[Server]) -> None:
    """The first node alone (it makes the schema and claims what it can), then the rest together."""
    nodes[0].start()
    failures: list[BaseException] = []

    def start(server: Server) -> None:
        try:
            server.start()
        except BaseException as e:                  # noqa: BLE001 - raised again below, in the test's thread
            failures.append(e)

    threads = [threading.Thread(target=start, args=(server,)) for server in nodes[1:]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    if failures:
        raise failures[0]


def stop_nodes(nodes: Iterable[Server]) -> None:
    for server in nodes:
        if server.process is not None:
            server.stop()


def port_of(server: Server) -> int:
    return int(server.url.rsplit(":", 1)[1].split("/")[0])


def lease_owners(database: str) -> dict[str, str]:
    """Each live table lease (``cash:t1``, ``casino:roulette``) and the node holding it, as stored now (not the nodes'
    own leases, nor the cashier's ``cashier:settlements``)."""
    engine = create_engine(database)
    try:
        with engine.connect() as c:
            rows = c.execute(text("SELECT resource, node FROM table_leases WHERE expires_at > :now"),
                             {"now": time.time()}).all()
    finally:
        engine.dispose()
    return {resource: holder for resource, holder in rows if resource.split(":")[0] in ("cash", "casino", "tournament")}


def wallet(player: Player) -> int:
    """The player's wallet, as they read it."""
    answer = player.request("bet_history", limit=1)
    assert answer["ok"], answer
    return answer["balance"]


def arrival(balancer: Balancer, nodes) -> tuple[Player, str]:        # noqa: ANN001
    """A new connection through HAProxy, and the node it landed on (whose count of connections grew)."""
    counts = {s.tmp.name: connections_on(s) for s in nodes}
    player = Player(balancer.url)
    where = wait_until(lambda: next((s.tmp.name for s in nodes if connections_on(s) > counts[s.tmp.name]), None), 10)
    assert where is not None, "the new connection reached no process"
    return player, where


def connections_on(server) -> int:                      # noqa: ANN001
    return health_of(port_of(server), header=PROXY_LOCAL)[1]["connections"]
