"""The composition root (issue 35): every service built once, started and stopped in one lifecycle -- the restores
first, the writer flushed last -- and handed to nobody."""

from __future__ import annotations

from pathlib import Path

from twisted.application.service import MultiService
from twisted.internet import defer
from twisted.internet.task import Clock

from pokerroom.players import AccountRules
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.lifecycle import Step
from pokerroom.shell.own_threads import OwnThreads
from pokerroom.shell.password_desk import PasswordDesk
from pokerroom.table.config import load_config, tables_from_config
from tests.support.clocked_room import TABLES, player, request, settle
from tests.support.inline_threads import InlineClock, InlinePool

SHELL = Path(__file__).resolve().parents[2] / "pokerroom" / "shell"


def hashing_desk(clock, hashes: InlinePool) -> PasswordDesk:
    """A password desk whose own threads are ``hashes``."""
    return PasswordDesk(clock, own=OwnThreads(clock, "passwords", pool=hashes), threads=1, queue=4, per_network=4)


def composed(store, clock):
    writer, hashes = InlinePool(), InlinePool()
    room = RoomServices(tables_from_config(TABLES), store, clock, account_rules=AccountRules(), writer=writer,
                        password_desk=hashing_desk(clock, hashes))
    return room, writer, hashes


def test_the_root_starts_every_service_in_one_lifecycle_the_restores_first(store):
    clock = InlineClock()
    room, writer, hashes = composed(store, clock)
    assert room.recovery is None and not writer.started and not room.session_watch.running     # built, not started
    room.startService()
    assert room.running and all(service.running for service in room)
    assert [service.name for service in room][:2] == ["writer", "restores"]        # the writer before any write
    assert room.recovery is not None and room.recovery.voided_hands == ()
    assert writer.started and hashes.started and room.session_watch.running and room.session_watch.next_tick


def test_stopping_the_root_stops_timers_and_flushes_the_writer_before_its_thread_ends(store):
    clock = InlineClock()
    room, writer, hashes = composed(store, clock)
    room.startService()
    for name in ("ana", "bob"):
        assert request(room, player(room, name)[0], "join", table="t1", buy_in=1_000)["ok"]
    for _ in range(20):
        clock.advance(1)                                        # the first hand is dealt on its timer
    table = room.tables.runners["t1"].table
    assert table.hand_number >= 1
    room.recorder.audit("room_stopping", by="operator")        # queued: the writer gathers for its next batch
    stopped: list = []
    room.stopService().addBoth(stopped.append)
    assert not stopped                                          # the flush waits for the gathered batch
    clock.advance(1)
    settle(room)
    assert len(stopped) == 1 and not room.running
    assert [r.kind for r in store.audit_log.audit_records("room_stopping")] == ["room_stopping"]   # landed first
    assert not writer.started and not hashes.started            # then the threads ended
    assert not room.session_watch.running and room.session_watch.next_tick is None
    hand, calls = table.hand_number, writer.ran
    clock.advance(600)                                          # no table timer and no session poll fires again
    assert (table.hand_number, writer.ran) == (hand, calls)


def test_no_service_is_handed_the_root_nor_a_bundle_of_its_parts(tmp_path):
    """Issue 35: each service gets what it uses, one by one; the root is nobody's collaborator, and no service holds
    a bundle of the composed services (the casino floor and the security desk included)."""
    from pokerroom.app import build_room

    room = build_room(None, None, str(tmp_path), reactor=Clock(), casino_clock=Clock())
    services = {id(s): s for s in [*vars(room).values(), *(h.__self__ for h in room.gateway.handlers.values())]
                if hasattr(s, "__dict__") and not isinstance(s, type)}
    assert {"CasinoFloor", "CasinoPlay", "SecurityDesk"} <= {type(s).__name__ for s in services.values()}
    held = {type(s).__name__ for s in services.values() if any(v is room for k, v in vars(s).items() if k != "parent")}
    assert held == set()                                      # a lifecycle child knows its parent; nothing else does
    built = {id(s) for s in vars(room).values()}              # the services the root built

    def bundle(value: object) -> bool:                        # an object not built by the root, holding its services
        return (id(value) not in built and hasattr(value, "__dict__") and not isinstance(value, type)
                and sum(id(v) in built for v in vars(value).values()) > 2)

    holders: dict[int, set[str]] = {}                         # each bundle, and the services holding it
    for s in services.values():
        for k, v in vars(s).items():
            if k != "parent" and bundle(v):
                holders.setdefault(id(v), set()).add(type(s).__name__)
    bundles = [names for names in holders.values() if len(names) > 1]
    assert bundles == []                                      # no two services share a bundle of the services
    assert not (SHELL / "room_parts.py").exists()
    assert not (SHELL / "room.py").exists()                   # no Room: the root is built, started and stopped


def test_the_casino_floor_holds_no_gateway_and_casino_play_answers_every_casino_request(tmp_path):
    """Issue 35, the process line: the floor is the table process's and reaches nothing of the gateway's (no
    gateway, no may-play check, no claim book); every casino request is served by casino play, the gateway's side."""
    from pokerroom.app import build_room

    room = build_room(None, None, str(tmp_path), reactor=Clock(), casino_clock=Clock())
    floor, play = room.casino_floor, room.casino_play
    assert floor is not None and play is not None
    kinds = {type(v).__name__ for v in vars(floor).values()}
    assert not kinds & {"Gateway", "Moderation", "PlayCheck", "ClaimBook", "method"}
    casino = {kind for kind in room.gateway.handlers if kind.startswith("casino_")}
    assert casino == {"casino_list", "casino_rules", "casino_history", "casino_join", "casino_leave", "casino_bet",
                      "casino_decide", "casino_bets", "casino_claim", "casino_void"}
    assert {room.gateway.handlers[kind].__self__ for kind in casino} == {play}


def test_stopping_the_root_stops_the_casino_floors_round_timers(store):
    """The casino floor is stopped with the room: no round opens, closes or deals after ``stopService`` (the
    tables keep their state, as a crash would leave it)."""
    clock, casino_clock = InlineClock(), Clock()
    writer, hashes = InlinePool(), InlinePool()
    config = load_config(None)
    room = RoomServices(tables_from_config(config), store, clock, account_rules=AccountRules(), writer=writer,
                        password_desk=hashing_desk(clock, hashes),
                        config=config, casino_clock=casino_clock)
    room.startService()
    floor = room.casino_floor
    assert floor is not None and floor.tables
    casino_clock.advance(0)
    for _ in range(120):
        casino_clock.advance(1)                                 # rounds open, close and open again on their timers
    assert all(table.number >= 2 for table in floor.tables.values())
    assert casino_clock.getDelayedCalls()                       # each table waits on its timer
    stopped: list = []
    room.stopService().addBoth(stopped.append)
    clock.advance(1)
    settle(room)
    assert len(stopped) == 1 and not room.running
    assert casino_clock.getDelayedCalls() == []                 # every round timer cancelled
    rounds = {table_id: (table.number, table.summary()) for table_id, table in floor.tables.items()}
    casino_clock.advance(2 * 86_400)                            # nothing of the floor fires again
    assert {table_id: (table.number, table.summary()) for table_id, table in floor.tables.items()} == rounds


def test_a_room_of_several_processes_has_its_money_and_lease_threads_of_their_own_stopped_just_before_the_writer(
        store):
    """A server's room over one shared database (it has a writer thread): the locked money moves and the leases'
    store calls each on threads of their own, named for the job, started after the writer and so stopped just
    before it (after every table, desk and lease); a test's room (no writer thread) has neither."""
    from pokerroom.bus.in_process import InProcessBus
    from pokerroom.shell.composition import MONEY_THREADS

    clock = InlineClock()
    room = RoomServices([], store, clock, writer=InlinePool(), bus=InProcessBus(), shared_money=True)
    assert [service.name for service in room][:3] == ["writer", "money threads", "leases threads"]
    money, leases = room.getServiceNamed("money threads"), room.getServiceNamed("leases threads")
    assert (money.pool.name, money.pool.max) == ("pokerroom-money", MONEY_THREADS)
    assert (leases.pool.name, leases.pool.max) == ("pokerroom-leases", 1)
    assert room.wallet.money is money.pool
    inline = RoomServices([], store, clock, bus=InProcessBus(), shared_money=True)
    assert "money threads" not in {s.name for s in inline} and "leases threads" not in {s.name for s in inline}


def test_threads_a_step_uses_as_it_stops_stop_once_its_stop_has_landed_the_job_run_on_them():
    """The room's services stop together (a ``MultiService``): the leases' thread outlives the lease let go on it,
    or that job is given to a stopped pool, never runs, and the process never stops (a cluster node's SIGINT)."""
    clock, leases = InlineClock(), InlinePool()
    room = MultiService()
    own = OwnThreads(clock, "leases", pool=leases)
    own.setServiceParent(room)
    ran: list[str] = []
    let_go: defer.Deferred = defer.Deferred()
    releasing = Step("leases", None, lambda: let_go.addCallback(lambda _: own.run(ran.append, "let go")))
    releasing.setServiceParent(room)
    own.used_at_stop_by(releasing)
    room.startService()
    stopped = room.stopService()
    assert leases.started and not stopped.called                    # the release still on its way: threads kept
    let_go.callback(None)                                           # the writes landed: the lease let go, then
    assert ran == ["let go"] and not leases.started and stopped.called      # the threads stop and so does the room
