"""Tables on several processes (issue 21): a table is played by the one process holding its lease, and one whose
process died is taken over from the database, its open hand void and every stack exact (TR-REFUND-1).

Two rooms ("nodes") over one database (tests/support/leased_rooms.py): only the database is shared. A node "dies"
by its Clock no longer turning: it renews nothing and plays nothing more."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import event
from twisted.internet import defer
from twisted.internet.task import Clock

from pokerroom.bus.records import HeldRead, PayoutsRead
from pokerroom.bus.subjects import WALLET_HELD, WALLET_PAYOUTS, player_stream, table_public, table_seat
from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import WORLD, cash, payout, tournament_guarantee
from pokerroom.protocol.pushes import verify_push
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.leases import TTL
from pokerroom.shell.table_host import MOVED_KEPT
from pokerroom.shell.tenancy import MOVING_KEPT, Tenancy
from pokerroom.store.lease_records import node_resource
from tests.support.clocked_room import Connection, player, request, settle, with_token
from tests.support.leased_rooms import BUY_IN, ROULETTE, SIT_AND_GO, START, dealt, directors_sit_and_go, nodes
from tests.support.together import shared_database


@pytest.fixture(params=["postgresql", "sqlite"])
def database(request, tmp_path) -> Iterator[str]:
    with shared_database(request.param, tmp_path) as url:
        yield url


def test_a_table_is_played_by_the_one_node_holding_its_lease(database):
    with nodes(database, "east", "west") as (east, west):
        assert set(east.tables.runners) == {"t1"}
        assert west.tables.runners == {}                       # east's lease is live: west does not open t1
        assert east.store.leases.owner("cash:t1", START).node == "east"


def test_TR_REFUND_1_a_dead_nodes_table_is_taken_over_its_hand_void_and_every_stack_back_in_its_wallet(database):
    with nodes(database, "east", "west") as (east, west):
        seated = {}
        for seat, name in enumerate(("ana", "bob"), start=1):
            session, _ = player(east, name)
            assert request(east, session, "join", table="t1", buy_in=BUY_IN, seat=seat)["ok"]
            seated[name] = session
        dealt(east)                                             # east deals a hand and dies in it
        table = east.tables.runners["t1"].table
        east.recorder.flushed()
        (open_hand,) = east.store.hands.open_hands()
        assert sum(open_hand.start_stacks.values()) == 2 * BUY_IN
        assert {name: east.wallet.balance(name) for name in seated} == {"ana": 9_000, "bob": 9_000}

        heard: dict[str, list[dict]] = {"ana": [], "bob": [], "watching": []}   # each seat's stream, and the public
        for name in ("ana", "bob"):
            west.bus.subscribe(table_seat("t1", name), lambda _, frame, name=name: heard[name].append(frame.message))
        west.bus.subscribe(table_public("t1"), lambda _, frame: heard["watching"].append(frame.message))

        # east's clock stops: west's watch finds the lease run out and takes t1 over within a lease and a beat
        west.reactor.advance(TTL + TTL / 3)
        settle(west)
        assert "t1" in west.tables.runners
        for name in ("ana", "bob", "watching"):                # told in words, after the frames seating them again
            told = [m for m in heard[name] if m["type"] == "table_moved"]
            assert len(told) == 1 and heard[name][-1] == told[0], heard[name]
            verify_push(told[0])
            assert list(told[0]["voided"]) == [open_hand.hand_id] and told[0]["rule"] == "TR-REFUND-1"
            assert "moved to another server" in told[0]["message"] and "was void" in told[0]["message"]
        assert any(e["type"] == "player_seated" for m in heard["ana"] if m["type"] == "table_events"
                   for e in m["events"])
        assert west.store.leases.owner("cash:t1", west.reactor.seconds()).node == "west"
        assert west.store.hands.open_hands() == []              # the hand in flight is void (TR-REFUND-1)
        taken = west.tables.runners["t1"].table
        starts = dict(open_hand.start_stacks)
        for seat, name in enumerate(("ana", "bob"), start=1):   # the table goes on: each at their seat, with the
            assert taken.seat_of(name) == seat                  # stack the void hand started with, exactly
            assert taken.players[seat].stack == starts[name]
            assert west.wallet.balance(name) == 10_000 - starts[name]
            assert west.store.ledger.balances([cash(name)])[cash(name)] == 10_000 - starts[name]
        assert west.store.ledger.ledger_check() and west.store.ledger.ledger_problems() == []
        # the void hand's number, and the one after it (it may have been shown), are never dealt again
        assert west.tables.runners["t1"].table.hand_number == table.hand_number + 1

        # east wakes: its renewal finds the lease gone, and it stops serving t1 at once
        east.reactor.advance(TTL)
        settle(east)
        assert "t1" not in east.tables.runners
        # nobody on east's bus answers for t1 now, but the room lists it: it is moving, not gone -- ask again
        moving = request(east, seated["ana"], "observe", table="t1", on=True)
        assert moving["error"]["code"] == "table_moving" and "ask again" in moving["error"]["message"], moving
        assert request(east, seated["ana"], "observe", table="nope", on=True)["error"]["code"] == "no_such_table"


@pytest.mark.parametrize("named", [True, False], ids=["last-seq-named", "no-table-named"])
def test_TR_REFUND_1_a_player_whose_node_died_resumes_on_the_survivor_and_is_told_the_table_moved(database, named):
    """ana's connection was on east, which died mid-hand: she resumes on west, which took t1 over, and gets the
    table (a snapshot) and then the same ``table_moved`` its players heard live -- once, to her alone; a resume
    from after the takeover, and one at a table nobody took over, are told nothing."""
    with nodes(database, "east", "west") as (east, west):
        tokens = {}
        for seat, name in enumerate(("ana", "bob"), start=1):
            session, _ = player(east, name)
            tokens[name] = with_token(east, session)
            assert request(east, session, "join", table="t1", buy_in=BUY_IN, seat=seat)["ok"]
        dealt(east)                                             # east deals a hand and dies in it
        table = east.tables.runners["t1"].table
        east.recorder.flushed()
        (open_hand,) = east.store.hands.open_hands()
        # bob resumes on east, whose t1 was never taken over: a snapshot and no word of a move
        again = east.gateway.connected(Connection(), "10.0.0.9")
        assert request(east, again, "resume", token=tokens["bob"], tables={"t1": 0})["tables"] == {"t1": "snapshot"}
        assert [m for m in again.connection.sent if m.get("type") == "table_moved"] == []
        seen = table.seq                                        # the last seq ana saw from east

        west.reactor.advance(TTL + TTL / 3)                     # east died: west takes t1 over
        settle(west)
        moved_at = west.tables.runners["t1"].table.seq
        assert not moved_at <= seen <= west.tables.runners["t1"].table.seq   # east's numbering, not west's
        cy, _ = player(west, "cy")                              # another player on west, at no table
        back = west.gateway.connected(Connection(), "10.0.0.9")     # through the load balancer, to west
        answer = request(west, back, "resume", token=tokens["ana"], tables={"t1": seen} if named else {})
        assert answer["ok"] and answer["tables"] == {"t1": "snapshot"}, answer
        sent = [m for m in back.connection.sent if m.get("table") == "t1"]
        kinds = [m["type"] for m in sent]
        assert kinds.count("table_moved") == 1 and kinds.index("table_moved") == kinds.index("table_snapshot") + 1
        told = sent[kinds.index("table_moved")]
        verify_push(told)
        assert told["voided"] == [open_hand.hand_id] and told["rule"] == "TR-REFUND-1"
        assert "moved to another server" in told["message"] and "was void" in told["message"]
        assert [m for m in cy.connection.sent if m.get("type") == "table_moved"] == []

        # she resumes again from what she has now seen: the table, not the move again
        snapshot_seq = sent[kinds.index("table_snapshot")]["seq"]
        once = west.gateway.connected(Connection(), "10.0.0.9")
        answer = request(west, once, "resume", token=tokens["ana"], tables={"t1": snapshot_seq})
        assert answer["ok"], answer
        assert [m for m in once.connection.sent if m.get("type") == "table_moved"] == []


def seats_replayed(room: RoomServices, table_id: str) -> dict[str, int]:
    """Who sits where, as the table's whole seat audit history tells it (what a takeover used to read)."""
    seats: dict[str, int] = {}
    for record in room.store.audit_log.audit_records_naming("seat", table_id, field="table"):
        if record.data["what"] == "joined":
            seats[record.data["player"]] = record.data["seat"]
        elif record.data["what"] == "left":
            seats.pop(record.data["player"], None)
    return seats


def test_a_takeover_reads_a_row_a_seat_not_the_tables_seat_history(database):
    with nodes(database, "east", "west") as (east, west):
        for name, seat in (("ana", 2), ("cy", 3), ("bob", 5)):
            session, _ = player(east, name)
            assert request(east, session, "join", table="t1", buy_in=BUY_IN, seat=seat)["ok"]
            if name == "cy":
                assert request(east, session, "leave", table="t1")["ok"]
        for i in range(300):                                    # a long-lived table: hundreds came and went
            ghost = f"old{i:03d}"
            east.store.audit("seat", {"what": "joined", "table": "t1", "player": ghost, "seat": 4}, START)
            east.store.audit("seat", {"what": "left", "table": "t1", "player": ghost, "seat": 4}, START)
        east.recorder.flushed()
        assert east.store.tables.seats_at("t1") == seats_replayed(east, "t1") == {"ana": 2, "bob": 5}

        read: list[str] = []
        listen = lambda *a: read.append(a[2]) if a[2].lstrip().upper().startswith("SELECT") else None  # noqa: E731
        event.listen(west.store.engine, "before_cursor_execute", listen)
        try:
            west.reactor.advance(TTL + TTL / 3)                 # east died: west takes t1 over
            settle(west)
        finally:
            event.remove(west.store.engine, "before_cursor_execute", listen)
        taken = west.tables.runners["t1"].table
        assert {name: taken.seat_of(name) for name in ("ana", "bob")} == {"ana": 2, "bob": 5}
        audit_reads = [sql for sql in read if "audit_records" in sql]
        assert all("LIMIT" in sql.upper() for sql in audit_reads), audit_reads    # the chain's head, no history
        assert any("table_seats" in sql for sql in read)


def test_a_clean_stop_hands_the_tables_over_at_once(database):
    with nodes(database, "east", "west") as (east, west):
        east.stopService()
        settle(east)
        west.reactor.advance(TTL / 3)                           # west's next look, not a whole lease later
        settle(west)
        assert "t1" in west.tables.runners


def test_CR_5_a_dead_nodes_casino_table_is_taken_over_and_the_round_in_play_refunded(database):
    with nodes(database, "east", "west", config=ROULETTE) as (east, west):
        assert set(east.casino_floor.tables) == {"rou"} and west.casino_floor.tables == {}
        east.reactor.advance(0)                                      # its first round opens
        session, _ = player(east, "ana")
        assert request(east, session, "casino_join", table="rou")["ok"]
        bet = request(east, session, "casino_bet", table="rou", market="red", amount=2_500)
        assert bet["ok"], bet
        assert east.wallet.balance("ana") == 7_500                    # the stake left the wallet, under the lock
        number = east.casino_floor.tables["rou"].number
        heard: list[dict] = []
        west.bus.subscribe(player_stream("ana"), lambda _, frame: heard.append(frame.message))
        west.reactor.advance(TTL + TTL / 3)                          # east died with the round open
        settle(west)
        assert set(west.casino_floor.tables) == {"rou"}
        (told,) = [m for m in heard if m["type"] == "table_moved"]   # ana, who had a stake, hears why in words
        verify_push(told)
        assert told["rule"] == "CR-5" and list(told["voided"]) == [f"rou#{number}"]
        assert (told["refunded"], told["currency"]) == (2_500, "USD")
        assert "$25.00, are back in your wallet" in told["message"], told
        assert west.wallet.balance("ana") == 10_000                  # the round is void: the bet refunded (CR-5)
        assert west.store.ledger.ledger_check() and west.store.ledger.ledger_problems() == []
        east.reactor.advance(TTL)
        settle(east)
        assert east.casino_floor.tables == {}                        # the old owner stops at once
        moving = request(east, session, "casino_rules", table="rou")  # listed, answered by nobody here: moving
        assert moving["error"]["code"] == "table_moving", moving


def test_CR_5_a_casino_bettor_whose_node_died_is_told_the_table_moved_and_their_refund_on_return(database):
    """East dies with a roulette round open: bob, back on west before west takes the table over, hears it there
    live; ana, whose connection died with east, hears it when she resumes on west -- her own stakes, once; cy, who
    staked nothing, hears nothing; dan, back after the hour, finds his stake in his wallet and no sentence."""
    with nodes(database, "east", "west", config=ROULETTE) as (east, west):
        east.reactor.advance(0)                                      # its first round opens
        tokens = {}
        for name, stake in (("ana", 2_500), ("bob", 1_000), ("cy", 0), ("dan", 300)):
            session, _ = player(east, name)
            tokens[name] = with_token(east, session)
            assert request(east, session, "casino_join", table="rou")["ok"]
            if stake:
                assert request(east, session, "casino_bet", table="rou", market="red", amount=stake)["ok"]
        number = east.casino_floor.tables["rou"].number

        def back(name: str) -> list[dict]:
            """``name`` resumes on west (through the load balancer): the ``table_moved`` pushes they get."""
            again = west.gateway.connected(Connection(), "10.0.0.9")
            assert request(west, again, "resume", token=tokens[name], tables={})["ok"]
            settle(west)
            return again, [m for m in again.connection.sent if m.get("type") == "table_moved"]

        bob, early = back("bob")                                     # back before the takeover: nothing to tell
        assert early == []
        west.reactor.advance(TTL + TTL / 3)                          # east died: west takes the table over
        settle(west)
        assert set(west.casino_floor.tables) == {"rou"}
        (live,) = [m for m in bob.connection.sent if m.get("type") == "table_moved"]
        assert (live["rule"], live["voided"], live["refunded"]) == ("CR-5", [f"rou#{number}"], 1_000)
        assert "$10.00, are back in your wallet" in live["message"], live

        _, told = back("ana")                                        # her connection died with east
        assert len(told) == 1, told
        (moved,) = told
        verify_push(moved)
        assert (moved["table"], moved["rule"], moved["voided"]) == ("rou", "CR-5", [f"rou#{number}"])
        assert (moved["refunded"], moved["currency"]) == (2_500, "USD")
        assert moved["message"] == ("Casino table rou moved to another server of the room after its own stopped, "
                                    f"and goes on there. The round in play (rou#{number}) was void: your stakes on "
                                    "it, $25.00, are back in your wallet.")
        assert west.wallet.balance("ana") == 10_000                  # the round is void: her bet refunded (CR-5)
        assert back("ana")[1] == []                                  # told once on a return, not on each
        assert back("cy")[1] == []                                   # no stake on the round: nothing refunded

        west.reactor.advance(MOVED_KEPT + 1)                         # an hour on: the sentence is not kept
        settle(west)
        assert back("dan")[1] == [] and west.wallet.balance("dan") == 10_000
        assert west.casino_floor.moved == {}


def test_TR_REFUND_2_a_dead_nodes_tournament_is_refunded_where_its_lease_is_taken_over(database):
    with nodes(database, "east", "west", config=SIT_AND_GO) as (east, west):
        directors_sit_and_go(east)
        assert east.store.leases.owner("tournament:sng", START).node == "east"
        entrants = {}
        for name in ("ana", "bob"):
            session, _ = player(east, name)
            assert request(east, session, "tournament_register", tournament="sng")["ok"]
            entrants[name] = east.wallet.balance(name)
        assert all(balance < 10_000 for balance in entrants.values())     # the buy-in and fee were taken
        assert "sng" not in west.hall.directors
        west.reactor.advance(TTL + TTL / 3)                              # east died with the event registering
        settle(west)
        assert west.hall.directors["sng"].state == "cancelled"
        for name in entrants:                                            # not started: everything back
            assert west.wallet.balance(name) == 10_000
        assert west.store.ledger.ledger_check() and west.store.ledger.ledger_problems() == []


def test_what_an_event_holds_is_read_right_whichever_node_answers_wallet_held(database):
    """A guarantee is escrow, kept by the node that owns its event: ``wallet.held`` (one node answers) reads it
    as the database holds it, not as the answering node's memory has it (0 on a node that never moved it)."""
    guarantee = tournament_guarantee("sunday")
    with nodes(database, "east", "west") as (east, west):
        player(east, "ana")
        east.wallet.move(cash("ana"), guarantee, 700, "guarantee", "sunday")     # east owns the event
        assert east.wallet.held(guarantee) == 700 and west.wallet.held(guarantee) == 0
        answers: list = []
        west.bus.request(WALLET_HELD, HeldRead((guarantee, cash("ana")))).addCallback(answers.append)   # west answers
        west.recorder.flushed()
        settle(west)
        assert answers == [{"held": {guarantee: 700, cash("ana"): 9_300}}]


def test_the_held_withdrawals_are_read_right_whichever_node_answers_wallet_payouts(database):
    """A withdrawal's hold and its settling are stored under the wallet's lock by the process that made them:
    ``wallet.payouts`` (a cashier's start, one node answers) lists what the database holds, wherever it was held."""
    with nodes(database, "east", "west") as (east, west):
        player(east, "ana")
        for reference, amount in (("w-1", 600), ("w-2", 400)):
            east.wallet.move(cash("ana"), payout(reference, "ana"), amount, "withdrawal held", reference)
        west.wallet.move(payout("w-2", "ana"), WORLD, 400, "withdrawal", "w-2")     # paid out by west
        for node in (east, west):
            answers: list = []
            node.bus.request(WALLET_PAYOUTS, PayoutsRead()).addCallback(answers.append)
            node.recorder.flushed()
            settle(node)
            assert answers == [{"held": [["ana", "w-1", 600]]}], node.node


class _Keeper:
    """A keeper double: its store calls run at once on ``store``, or fail as an unreachable database's would."""

    def __init__(self, store, reachable: bool = True) -> None:  # noqa: ANN001
        self.leases = store.leases
        self.writer = self
        self.reachable = reachable

    def write(self, function, *args, quiet: bool = True):  # noqa: ANN001, ANN202
        return defer.maybeDeferred(function, *args) if self.reachable else defer.fail(ConnectionError("no database"))


def told_moving(tenancy: Tenancy, kind: str, table_id: str) -> str | None:
    """What the tenancy tells of a table nobody answered for: ``table_moving``'s sentence, or None (no such table)."""
    answers: list = []
    tenancy.moving([kind, table_id]).addBoth(answers.append)
    (answer,) = answers
    if answer is None:
        return None
    assert answer.check(RuleViolation) and answer.value.code == "table_moving", answer
    return answer.value.message


def test_the_tenancy_tells_a_table_between_owners_from_one_that_is_no_more_by_its_lease(store):
    """The side that knows the leases decides ``table_moving``: a table the room leases (held, run out, or let go at
    a clean stop) is between owners when nobody answers for it; one never leased, or closed for good, is not."""
    tenancy = Tenancy()
    tenancy.attach(_Keeper(store))
    store.leases.claim("cash:t1", "east", TTL, 0.0)
    store.leases.claim("casino:rou", "east", TTL, 0.0)
    store.leases.claim("cash:t2", "east", TTL, 0.0)
    store.leases.release("east", ["cash:t2"])
    store.leases.claim("cash:gone", "east", TTL, 0.0)
    store.leases.retire("east", "cash:gone")
    assert "table t1 is moving to another server" in told_moving(tenancy, "cash", "t1")
    assert "ask again in a few seconds" in told_moving(tenancy, "cash", "t2")
    assert "casino table rou is moving" in told_moving(tenancy, "casino", "rou")
    assert told_moving(tenancy, "cash", "gone") is None and told_moving(tenancy, "cash", "nope") is None
    assert told_moving(tenancy, "casino", "t1") is None               # leased as a cash table, not a casino one


def test_with_the_database_away_the_tenancy_tells_the_tables_it_lost_as_moving(store):
    tenancy = Tenancy()
    tenancy.attach(_Keeper(store, reachable=False))
    tenancy.lost("cash:t1")                                            # its renewals stopped landing: let go
    assert "table t1 is moving" in told_moving(tenancy, "cash", "t1")
    assert told_moving(tenancy, "cash", "t9") is None
    tenancy.serve("cash", lambda table_id: None, lambda table_id: None)
    tenancy.takeover("cash:t1", 2)                                     # its own again
    assert told_moving(tenancy, "cash", "t1") is None


def test_a_crowd_asking_whether_a_table_is_moving_reads_its_lease_once_a_moment(store):
    """A dead process's players all ask to sit again every moment until their table opens elsewhere: one read of
    the room's leases answers every ask, of every table, for MOVING_KEPT seconds, so the takeover's claims on the
    leases' thread are not queued behind thousands of them (bench/cluster.py: 2,000 asks in a takeover)."""
    reads: list[str] = []

    class Counted(_Keeper):
        def write(self, function, *args, quiet: bool = True):  # noqa: ANN001, ANN202
            reads.append(function.__name__)
            return super().write(function, *args, quiet=quiet)

    clock = Clock()
    tenancy = Tenancy(clock)
    tenancy.attach(Counted(store))
    store.leases.claim("cash:t1", "east", TTL, 0.0)
    store.leases.claim("casino:rou", "east", TTL, 0.0)
    store.leases.claim(node_resource("east"), "east", TTL, 0.0)
    assert all("table t1 is moving" in told_moving(tenancy, "cash", "t1") for _ in range(50))
    assert told_moving(tenancy, "cash", "nope") is None and told_moving(tenancy, "cash", "nope") is None
    assert "casino table rou is moving" in told_moving(tenancy, "casino", "rou")
    assert reads == ["leased_names"]                                   # one read answered them all
    store.leases.retire("east", "cash:t1")                             # closed for good meanwhile
    clock.advance(MOVING_KEPT)
    assert told_moving(tenancy, "cash", "t1") is None and reads == ["leased_names", "leased_names"]


def test_with_the_database_away_a_crowd_is_told_from_what_this_process_let_go(store):
    tenancy = Tenancy(Clock())
    tenancy.attach(_Keeper(store, reachable=False))
    tenancy.lost("cash:t1")
    assert "table t1 is moving" in told_moving(tenancy, "cash", "t1")
    assert told_moving(tenancy, "cash", "t9") is None
