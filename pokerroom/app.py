"""The server: config, database, the room (composed by :mod:`pokerroom.shell.composition`) and site, run on the
reactor.

``pokerroom serve`` calls :func:`serve`. It is the only module that imports
every layer.
"""

from __future__ import annotations

import dataclasses
import os
import re
import signal
import sys
import time
from pathlib import Path

from twisted.internet import reactor as default_reactor
from twisted.logger import (
    FilteringLogObserver,
    Logger,
    LogLevel,
    LogLevelFilterPredicate,
    globalLogBeginner,
    textFileLogObserver,
)
from twisted.python.failure import Failure
from twisted.python.threadpool import ThreadPool

from pokerroom import conduct, players
from pokerroom.bot_credentials import SECRET_ENV, demo_secret, operator_secret
from pokerroom.bus import Bus, make_bus
from pokerroom.bus.nats_options import BusRefused, BusTls, shown
from pokerroom.bus.records import TableBatch
from pokerroom.bus.subjects import table_full
from pokerroom.gateway.draining import DRAIN_SECONDS, Drain
from pokerroom.gateway.limits import ConnectionLimits, own_origins, raise_open_files
from pokerroom.gateway.proxy_protocol import check_bots, listen
from pokerroom.gateway.server import build_site
from pokerroom.players import AccountRules
from pokerroom.shell.collector import CollectorPacer, CollectorWatch
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.password_desk import PasswordDesk
from pokerroom.store.db import make_engine, migrate, sqlite_url
from pokerroom.store.room_store import RoomStore
from pokerroom.table.config import load_config, tables_from_config

log = Logger()


def build_room(config: str | None, database: str | None, data_dir: str, reactor=default_reactor,  # noqa: ANN001
               *, demo: bool = False, casino_clock=None, node: str = "main", bus: str | Bus = "",  # noqa: ANN001
               shared_money: bool = False, role: str = "both") -> RoomServices:
    """Migrate the database and compose the room (its writer thread and the password desk's own pool in it); the
    caller starts it (``startService``: crash recovery first, blocking, before listening) and stops it.

    ``shared_money``: the room runs on several processes over this database, so wallets are moved under its lock
    (:class:`~pokerroom.shell.shared_wallet.SharedWallet`); one process keeps the in-memory wallet. A room on a
    broker's bus may be several processes: its money is shared and its tables are played where their leases are
    held (:mod:`pokerroom.shell.tenancy`), whatever ``shared_money`` says.

    ``casino_clock`` runs the casino tables' timers on another clock than the reactor (a test's ``Clock``).
    ``node`` is this process's name in the room; ``bus`` the broker's URL (``nats://…``), or "" for the
    in-process bus, or a bus already connected (``serve`` connects a NATS bus before it builds the room).
    ``role`` is the side of the process line this process runs (``serve --role``: both, gateway or tables).
    """
    node = node_name(node)
    chosen_bus = room_bus(reactor, bus) if isinstance(bus, str) else bus   # a bad URL stops it before the database
    url = database or os.environ.get("POKERROOM_DATABASE") or sqlite_url(data_dir)
    engine = make_engine(url)
    migrate(engine)
    data = load_config(config)
    rules = AccountRules.from_config(data)
    if demo:                        # play money, and bots that all log in from this machine at once
        rules = dataclasses.replace(
            rules, welcome_balance=100_000,
            password_attempts_per_minute=max(rules.password_attempts_per_minute, 600.0),
            password_attempts_burst=max(rules.password_attempts_burst, 200.0),
            **demo_password_limits(data.get("accounts", {})))
    # the password hashes' own bounded pool, given to the room as it is composed (started and stopped with it)
    desk = PasswordDesk.own_pool(reactor, threads=rules.password_threads, queue=rules.password_queue,
                                 per_network=rules.password_queue_per_network)
    conduct.prepare()               # the chat and nickname filters' tables, before the first line arrives
    return RoomServices(tables_from_config(data), RoomStore(engine), reactor, account_rules=rules,
                        writer=ThreadPool(minthreads=1, maxthreads=1, name="pokerroom-store"), password_desk=desk,
                        config=data, demo=demo, casino_clock=casino_clock, node=node, bus=chosen_bus,
                        shared_money=shared_money or chosen_bus is not None, role=role,
                        leases=chosen_bus is not None)


NODE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")


def node_name(name: str) -> str:
    """``--node``: 1 to 64 letters, digits and ``. _ : -``, starting with a letter or digit (it names the process in
    logs, /health and, with the lease work, the tables it owns)."""
    if not NODE_NAME.fullmatch(name):
        raise ValueError(f"--node {name[:80]!r}: a node's name is 1 to 64 letters, digits, '.', '_', ':' or '-', "
                         "starting with a letter or digit")
    return name


def room_bus(reactor, url: str, tls: BusTls | None = None) -> Bus | None:  # noqa: ANN001
    """The bus ``--bus`` names: None for "" (the room makes its in-process one), or the broker's at a ``nats://``
    (or ``tls://``) URL, made by :func:`pokerroom.bus.make_bus` (not yet connected) with ``tls``'s files; anything
    else is refused before the room starts, never run on a bus the operator did not ask for."""
    if not url:
        return None
    if not url.startswith(("nats://", "tls://")):
        raise ValueError(f"--bus {shown(url)[:80]!r}: give a nats:// URL (e.g. nats://127.0.0.1:4222), or leave it "
                         "out for the in-process bus")
    return make_bus(reactor, url, tls)


def demo_password_limits(configured: dict) -> dict:
    """The demo's bots log in from this machine at once: its network limits are wide, unless the config sets them."""
    wide = {"network_password_attempts_per_minute": 600.0, "network_password_attempts_burst": 200.0,
            "account_password_attempts_per_minute": 600.0, "account_password_attempts_burst": 200.0,
            "password_threads": 16, "password_queue": 32, "password_queue_per_network": 48}
    return {key: value for key, value in wide.items() if key not in configured}


def serve(host: str, port: int, config: str | None, database: str | None, data_dir: str, demo: bool,
          bots: int, max_rate: float = 20.0, max_connections: int = 10_000, *, node: str = "main", bus: str = "",
          drain_seconds: float = DRAIN_SECONDS, proxy_protocol: bool = False, role: str = "both",
          bus_tls: BusTls | None = None) -> int:
    """``pokerroom serve``. ``proxy_protocol``: every connection starts with HAProxy's PROXY header, whose client
    address the room sees (:mod:`pokerroom.gateway.proxy_protocol`); one without it is closed."""
    check_bots(bots, proxy_protocol)                # before anything starts: the bots could not get in
    level = LogLevel.levelWithName(os.environ.get("POKERROOM_LOG_LEVEL", "info"))
    observer = FilteringLogObserver(textFileLogObserver(sys.stderr), [LogLevelFilterPredicate(level)])
    globalLogBeginner.beginLoggingTo([observer], redirectStandardIO=False)
    before, after = raise_open_files()
    if after > before:
        log.info("open files: soft limit raised from {before} to {after} (the hard limit)", before=before, after=after)
    else:
        log.info("open files: soft limit {soft} (already the hard limit, or it could not be raised)", soft=before)
    settings = load_config(config)
    limits = ConnectionLimits.from_config(settings, demo=demo)
    reactor = default_reactor
    pacer = CollectorPacer.from_config(reactor, settings)      # a bad [collector] stops the room before it opens
    chosen_bus = room_bus(reactor, bus, bus_tls)
    if role != "both" and chosen_bus is None:
        raise ValueError(f"--role {role}: the two sides of a room reach each other over a broker; give --bus "
                         "nats://HOST:PORT/ROOM (and the same --database) to both processes, or leave --role out")
    opened: list[bool] = []
    if chosen_bus is None:
        open_room(reactor, settings, limits, pacer, config, database, data_dir, demo, bots, max_rate,
                  max_connections, host, port, node, chosen_bus, drain_seconds, role, proxy_protocol)
    else:                           # a broker's bus connects first: the room is built on a bus that is up
        def connected(_: object) -> None:
            opened.append(True)
            open_room(reactor, settings, limits, pacer, config, database, data_dir, demo, bots, max_rate,
                      max_connections, host, port, node, chosen_bus, drain_seconds, role, proxy_protocol)

        def unreachable(failure: Failure) -> None:
            if failure.check(BusRefused):           # a sentence, no traceback, no secret
                log.error("{refusal}: the room does not open", refusal=failure.getErrorMessage())
            else:
                log.failure("the bus at {url} could not be reached: the room does not open", failure, url=shown(bus))
            reactor.stop()

        reactor.callWhenRunning(lambda: chosen_bus.connect().addCallbacks(connected, unreachable))
    reactor.run()
    return 0 if chosen_bus is None or opened else 1


def open_room(reactor, settings: dict, limits: ConnectionLimits, pacer: CollectorPacer,  # noqa: ANN001, PLR0913
              config: str | None, database: str | None, data_dir: str, demo: bool, bots: int, max_rate: float,
              max_connections: int, host: str, port: int, node: str, bus: Bus | None, drain_seconds: float,
              role: str = "both", proxy_protocol: bool = False) -> None:
    """Build the room, start it, listen, and print where it is (and start the demo's bots)."""
    room = build_room(config, database, data_dir, reactor, demo=demo, node=node, bus=bus or "", role=role)
    room.startService()             # crash recovery first (blocking: before listening), then each service's start
    # Every service stops with the server; what is queued for the writer (a batch gathering, the prizes just paid)
    # lands before its thread stops.
    reactor.addSystemEventTrigger("before", "shutdown", room.stopService)
    CollectorWatch(room.metrics.registry).install()
    pacer.start()
    room.ready().addCallbacks(
        lambda _: listen_room(reactor, room, limits, data_dir, demo, bots, max_rate, max_connections, host, port,
                              drain_seconds, role, proxy_protocol),
        lambda failure: (log.failure("the room could not open its tables", failure), reactor.stop()))


def listen_room(reactor, room: RoomServices, limits: ConnectionLimits, data_dir: str, demo: bool,  # noqa: ANN001, PLR0913
                bots: int, max_rate: float, max_connections: int, host: str, port: int, drain_seconds: float,
                role: str, proxy_protocol: bool) -> None:
    """The room's tables are open (or, on several processes, known to be elsewhere): listen, and print where."""
    if role == "tables":            # no client connects here: /health and /metrics only
        open_tables(reactor, room, host, port, data_dir, demo)
        return
    drain = Drain(reactor, lambda: len(room.gateway.connections), reactor.stop, seconds=drain_seconds)
    reactor.addSystemEventTrigger("before", "shutdown", drain.cancel)
    drain_on_sigterm(reactor, drain)
    hosted = room.tables                    # None in a gateway process: the lobby's copy counts the room's tables
    site = build_site(room.gateway, reactor, None, demo=demo,
                      tables=(lambda: len(hosted.runners)) if hosted is not None else lambda: len(room.lobby.lines),
                      rate=max_rate, burst=max(40.0, 2 * max_rate), max_connections=max_connections,
                      limits=limits, node=room.node, drain=drain, hands=room.hands_played_here)
    listening = listen(reactor, host, port, site, proxy_protocol=proxy_protocol)
    actual = listening.getHost().port
    site.room_factory.allowed_origins = limits.allowed_origins if limits.allowed_origins is not None \
        else own_origins(host, actual)
    print(f"pokerroom is serving on ws://{host}:{actual}/ws  (health: http://{host}:{actual}/health)",
          flush=True)
    if proxy_protocol:
        print("PROXY protocol on: only HAProxy (send-proxy-v2) may connect; a connection without the header is "
              "closed", flush=True)
    print(f"node {room.node}" + (f"; tables: {', '.join(room.tables.runners)}" if room.tables is not None
                                  else " (--role gateway: the tables run in the table process)")
          + f"; data in {Path(data_dir).resolve()}", flush=True)
    print(f"player client: http://{host}:{actual}/   admin lobby: http://{host}:{actual}/admin   "
          f"security review: http://{host}:{actual}/security", flush=True)
    director = demo_director(room) if demo else None
    if director:
        print(f"demo tournament director: nickname {director[0]}, password {director[1]} "
              "(play money; this machine)", flush=True)
        officer = demo_security(room)
        print(f"demo security officer: nickname {officer[0]}, password {officer[1]} (the review pages)", flush=True)
    casino = list(room.casino_floor.tables) if room.casino_floor is not None else []  # the floor's
    if casino:
        print(f"casino tables: {', '.join(casino)} (docs/casino.md)", flush=True)
    if bots:
        from pokerroom.client import start_bots

        secret = demo_secret(data_dir) if demo else operator_secret(None, os.environ)
        if secret is None:
            raise ValueError(f"--bots in a room not in demo mode needs the bots' secret in {SECRET_ENV} "
                             "(docs/operations.md)")
        own = start_bots(reactor, f"ws://{host}:{actual}/ws", bots, list(room.tables.runners), secret=secret)
        drain.letting_go(lambda: [bot.stop() for bot in own])       # they would keep a draining room open
        print(f"{bots} bots are playing; connect a client to {actual} to join them (docs/protocol.md)", flush=True)
        if director:
            from pokerroom.client import start_demo_tournament

            entered = start_demo_tournament(reactor, f"ws://{host}:{actual}/ws", director, 8, secret=secret)
            entered.addCallback(lambda made: drain.letting_go(lambda: [bot.stop() for bot in made[1]]))
            entered.addErrback(lambda failure: log.failure("the demo tournament", failure))
            print("8 bots are registered for the demo tournament; it starts in 10 minutes, or when the director "
                  "starts it at /admin", flush=True)
    watched = narrated_table(room) if demo else None
    if watched is not None:
        narrate(room, watched)


def narrated_table(room: RoomServices) -> str | None:
    """The table a demo process narrates: its first; none when it plays no table (a gateway, or a process of
    several whose tables' leases the others hold)."""
    runners = room.tables.runners if room.tables is not None else {}
    return next(iter(runners), None)


def open_tables(reactor, room: RoomServices, host: str, port: int, data_dir: str, demo: bool) -> None:  # noqa: ANN001
    """A ``--role tables`` process: its tables run once its restores are done; it listens only for ``/health`` and
    ``/metrics`` (:mod:`pokerroom.tables_site`), and prints where, as the gateway's process prints its /ws."""
    from pokerroom.tables_site import build_tables_site

    site = build_tables_site(room.metrics, lambda: len(room.tables.runners), node=room.node, demo=demo,
                             hands=room.hands_played_here)
    actual = reactor.listenTCP(port, site, interface=host).getHost().port
    print(f"pokerroom tables serving on http://{host}:{actual}/health  (--role tables: no WebSocket; clients "
          "connect to a --role gateway process)", flush=True)
    print(f"node {room.node}; tables: {', '.join(room.tables.runners)}; data in {Path(data_dir).resolve()}",
          flush=True)


def drain_on_sigterm(reactor, drain: Drain) -> None:  # noqa: ANN001
    """SIGTERM drains the process for a deploy instead of stopping it (:mod:`pokerroom.gateway.draining`); SIGINT
    (Ctrl-C) still stops it at once. Installed after the reactor's own handlers, which it replaces for SIGTERM."""

    def on_sigterm(_number: int, _frame: object) -> None:
        log.info("SIGTERM: draining (a second SIGTERM, or SIGINT, stops now)")
        reactor.callFromThread(drain.begin)

    if reactor.running:             # opened after a broker's bus connected: the reactor's handlers are in already
        signal.signal(signal.SIGTERM, on_sigterm)
    else:
        reactor.addSystemEventTrigger("after", "startup", signal.signal, signal.SIGTERM, on_sigterm)


DEMO_DIRECTOR = ("director", "director-demo")
DEMO_SECURITY = ("security", "security-demo")


def demo_director(room: RoomServices) -> tuple[str, str]:
    """The demo room's tournament director, made (or reset to the printed password) at every demo start."""
    return demo_account(room, DEMO_DIRECTOR, "director")


def demo_security(room: RoomServices) -> tuple[str, str]:
    """The demo room's security officer, for the review pages at ``/security``."""
    return demo_account(room, DEMO_SECURITY, "security")


def demo_account(room: RoomServices, account: tuple[str, str], role: str) -> tuple[str, str]:
    nickname, password = account
    key = players.nickname_key(nickname)
    hashed = players.hash_password(password)
    now = time.time()
    if room.store.accounts.find_account(key) is None:
        room.store.accounts.create_account(nickname, key, hashed, "1980-01-01", "NL", now, role=role)
    else:
        room.store.accounts.update_account(key, password_hash=hashed, role=role, closed=False)
    room.store.audit("role_granted", {"nickname": nickname, "role": role, "by": "demo"}, now)
    return nickname, password


def narrate(room: RoomServices, table_id: str) -> None:
    """Print one table's play to the terminal, as ``pokerroom demo`` does, with the bots' real hands redacted."""
    from pokerroom.demo import Narrator
    from pokerroom.poker.redact import Viewer
    from pokerroom.table.events import redact, table_event_from_dict

    narrator = Narrator(room.tables.runners[table_id].table.rules.currency)
    print(f"watching {table_id} (as an observer: hole cards stay hidden until shown)", flush=True)

    def show(subject: str, batch: TableBatch) -> None:
        for as_dict in batch.events:
            seen = redact(table_event_from_dict(as_dict), Viewer.observer())
            text = narrator.line(seen) if seen is not None else None
            if text:
                print(text, flush=True)

    room.bus.subscribe(table_full(table_id), show)
