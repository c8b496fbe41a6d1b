"""A casino table's commands as records on ``casino.<id>.command``, answered by the floor on the strict bus (a
broker's round trip, a later turn): the answer is plain data, a refusal keeps its code, rule and amounts, and a
record of no command the floor takes is refused with a code (CR-3, CR-4); the floor holds no gateway, and a
returning member is shown their table by the gateway's side (CR-6)."""

from __future__ import annotations

from twisted.internet.task import Clock

from pokerroom.bus.records import DISCONNECTED, LOGGED_IN, CasinoRead, MembershipsRead, SessionBack, SessionGone
from pokerroom.bus.strict import StrictBus
from pokerroom.bus.subjects import (
    CASINO_MEMBERSHIPS,
    SESSION_EVENTS,
    TABLES_MOVING,
    casino_command,
    casino_read,
    casino_seat,
)
from pokerroom.casino import commands as cc
from pokerroom.casino.config import build_table
from pokerroom.errors import RuleViolation
from pokerroom.money.ledger import cash, casino_escrow
from pokerroom.players import AccountRules
from pokerroom.shell.casino_floor import CasinoFloor
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.every_node import ask_every_node
from pokerroom.table import commands as table_commands
from tests.support.casino_room import quick_rules, strict_floor
from tests.support.clocked_room import Connection, deposit, request, settle


def answer_of(bus: StrictBus, clock: Clock, asked):   # noqa: ANN001, ANN201
    """A request's answer, or its refusal as the exception, once the turns it takes have passed."""
    out: list = []
    asked.addBoth(out.append)           # (``called`` is true of a Deferred still waiting on one it chained)
    for _ in range(20):
        if out:
            break
        clock.advance(0)
    assert out, "no answer came"
    return out[0].value if hasattr(out[0], "raiseException") else out[0]


def test_CR_4_a_players_requests_go_to_the_table_as_records_on_the_strict_bus(store):
    clock, bus, room, session = strict_floor(store)
    joined = request(room, session, "casino_join", table="bac")
    assert joined["ok"] and joined["table"] == "bac" and joined["round"] == 1
    placed = request(room, session, "casino_bet", 2, table="bac", market="player", amount=1_000)
    assert placed["ok"] and (placed["market"], placed["amount"], placed["balance"]) == ("player", 1_000, 99_000)
    assert room.wallet.books.balance(casino_escrow("bac", "ana")) == 1_000


def test_CR_3_a_refused_command_comes_back_over_the_bus_with_its_code_rule_and_amounts(store):
    clock, bus, room, session = strict_floor(store)
    request(room, session, "casino_join", table="bac")
    refused = answer_of(bus, clock, bus.request(casino_command("bac"), cc.Bet("ana", "player", 50, 100_000)))
    assert isinstance(refused, RuleViolation)
    assert (refused.code, refused.rule_id) == ("below_minimum", "CR-3")
    assert refused.amounts == {"min": 100, "given": 50} and "€1.00" in refused.message   # priced in the table's EUR
    assert room.wallet.books.balance(cash("ana")) == 100_000
    answer = request(room, session, "casino_bet", 3, table="bac", market="player", amount=50)
    assert not answer["ok"] and answer["error"]["code"] == "below_minimum"


def test_a_casino_command_record_the_floor_does_not_take_by_request_is_refused_with_a_code(store):
    clock, bus, room, session = strict_floor(store)
    for stranger in (cc.Expire(), cc.Disconnect("ana", 0.0), table_commands.Leave("ana")):
        refused = answer_of(bus, clock, bus.request(casino_command("bac"), stranger))
        assert isinstance(refused, RuleViolation) and refused.code == "unknown_command"
    refused = answer_of(bus, clock, bus.request(casino_command("bac"), cc.Bet("bob", "player", 100, 500)))
    assert refused.code == "not_at_table"
    assert room.wallet.books.balance(cash("bob")) == 0


def test_a_table_nobody_answers_for_is_unknown_to_the_player(store):
    clock, bus, room, session = strict_floor(store)
    answer = request(room, session, "casino_join", table="no-such-table")
    assert not answer["ok"] and answer["error"]["code"] == "unknown_table"
    assert all("no-such-table" not in subject for subject in session.streams)



def test_BOB_6_a_claims_table_is_asked_of_the_floor_and_one_nobody_answers_for_takes_no_claim(store, monkeypatch):
    """The table is the table process's: a claim asks that it exists (its rules read on ``casino.<id>.read``);
    about a table nobody answers for, the claim is refused ``unknown_table`` and none is reserved."""
    clock, bus, room, session = strict_floor(store)
    floor = room.gateway.handlers["casino_claim"].__self__
    asked: list = []
    real = bus.request

    def spy(subject: str, payload: object) -> object:
        asked.append((subject, payload))
        return real(subject, payload)

    monkeypatch.setattr(bus, "request", spy)
    answer = request(room, session, "casino_claim", table="no-such-table", round=1, text="the shoe was short")
    assert answer["error"]["code"] == "unknown_table"
    # the table is asked first; nobody answering, whether it is between owners is asked of the tables' side
    assert asked == [(casino_read("no-such-table"), CasinoRead("rules")), (TABLES_MOVING, ["casino", "no-such-table"])]
    assert floor.claims.filed == set()
    answer = request(room, session, "casino_claim", table="bac", round=10**6, text="the shoe was short")
    assert answer["error"]["code"] == "unknown_round" and floor.claims.filed == set()   # found, no such round


def test_CR_6_the_floor_built_with_no_gateway_answers_a_returning_players_tables_from_the_records(store):
    """The floor is the table process's: built with no gateway and no may-play check, it answers
    ``casino.memberships`` (the ids only, nothing private), takes a disconnection from the ``SessionGone`` record
    alone, and a member's ``Reconnect`` by request answers the ``casino_state``; a non-member's is refused."""
    clock = Clock()
    bus = StrictBus(clock)
    room = RoomServices([], store, clock, account_rules=AccountRules(), bus=bus)   # its wallet and writer only
    room.startService()
    table = build_table(quick_rules("bac", "baccarat"))
    floor = CasinoFloor([table], clock=clock, store=room.store, bus=bus, wallet=room.wallet, recorder=room.recorder)
    floor.install()
    floor.start()
    clock.advance(0)
    assert "casino_join" not in room.gateway.handlers            # no request of a player's is the floor's
    deposit(room, "ana", 100_000)
    assert answer_of(bus, clock, bus.request(casino_command("bac"), cc.Join("ana")))["table"] == "bac"
    read = answer_of(bus, clock, ask_every_node(bus, CASINO_MEMBERSHIPS, MembershipsRead("ana")))
    assert read == {"tables": ["bac"]}
    assert answer_of(bus, clock, ask_every_node(bus, CASINO_MEMBERSHIPS, MembershipsRead("bob"))) == {"tables": []}
    for stranger in (None, CasinoRead("rules"), cc.Reconnect("ana")):
        refused = answer_of(bus, clock, ask_every_node(bus, CASINO_MEMBERSHIPS, stranger))
        assert isinstance(refused, RuleViolation) and refused.code == "unknown_read"
    bus.publish(SESSION_EVENTS, SessionGone("s1", "ana", DISCONNECTED, True, (), 1))
    settle(room)
    assert "ana" in table.away                                   # from the record alone
    state = answer_of(bus, clock, bus.request(casino_command("bac"), cc.Reconnect("ana")))
    assert state["table"] == "bac" and state["round"] == 1 and "decision" in state and "ana" not in table.away
    refused = answer_of(bus, clock, bus.request(casino_command("bac"), cc.Reconnect("bob")))
    assert isinstance(refused, RuleViolation) and refused.code == "not_at_table"


def test_CR_3_a_bets_funds_are_the_floors_wallets_whatever_the_record_says(store):
    """A record that claims more funds than the wallet holds stakes nothing more: the floor reads its own wallet."""
    clock, bus, room, session = strict_floor(store)
    request(room, session, "casino_join", table="bac")
    placed = answer_of(bus, clock, bus.request(casino_command("bac"), cc.Bet("ana", "banker", 1_000, 10**12)))
    assert placed["balance"] == 99_000 and room.wallet.books.balance(cash("ana")) == 99_000
    refused = answer_of(bus, clock, bus.request(casino_command("bac"), cc.Bet("ana", "player", 99_001, 10**12)))
    assert isinstance(refused, RuleViolation) and refused.code == "insufficient_funds"
    assert room.wallet.books.balance(cash("ana")) == 99_000


def test_CR_6_a_player_back_on_a_new_connection_is_shown_their_table_by_the_gateways_side(store):
    """On a ``SessionBack``, casino play asks the floor for the player's tables, follows each seat's stream and
    sends the ``Reconnect``: the new connection gets the ``casino_state`` (their bet in it) and the round's
    frames after it; the connection the player left gets nothing more."""
    clock, bus, room, session = strict_floor(store)
    request(room, session, "casino_join", table="bac")
    request(room, session, "casino_bet", 2, table="bac", market="player", amount=1_000)
    old = session.connection
    room.gateway.disconnected(session)
    settle(room)
    connection = Connection()
    back = room.gateway.connected(connection, "10.0.0.2")
    back.country, back.role = "NL", "player"
    room.gateway.identify(back, "ana")
    room.gateway.returned(back, LOGGED_IN)
    settle(room)
    states = [m for m in connection.sent if m.get("type") == "casino_state"]
    assert len(states) == 1 and states[0]["table"] == "bac" and states[0]["round"] == 1
    assert states[0]["bets"] == [{"market": "player", "amount": 1_000, "odds": states[0]["bets"][0]["odds"],
                                  "seat": None}]
    assert casino_seat("bac", "ana") in back.streams
    before = len(old.sent)
    clock.advance(10)                                            # the round is dealt and settled
    settle(room)
    assert any(m.get("type") == "casino_events" for m in connection.sent)
    assert len(old.sent) == before


def test_CR_6_a_comeback_of_a_session_that_is_not_the_players_current_one_reads_nothing(store, monkeypatch):
    """``casino.memberships`` is sent only for the player of the session their gateway holds now: a record naming
    another session (one a newer login took over) asks nothing and shows nothing."""
    clock, bus, room, session = strict_floor(store)
    request(room, session, "casino_join", table="bac")
    asked: list = []
    real, real_gather = bus.request, bus.gather

    def spy(subject: str, payload: object) -> object:
        asked.append(subject)
        return real(subject, payload)

    def gather_spy(subject: str, payload: object, expected: int, **waits: object) -> object:
        asked.append(subject)
        return real_gather(subject, payload, expected, **waits)

    monkeypatch.setattr(bus, "request", spy)
    monkeypatch.setattr(bus, "gather", gather_spy)
    bus.publish(SESSION_EVENTS, SessionBack("s-stale", "ana", LOGGED_IN, (), 99))
    settle(room)
    assert asked == [] and not [m for m in session.connection.sent if m.get("type") == "casino_state"]
    room.gateway.returned(session, LOGGED_IN)                    # the player's own session: asked, and shown
    settle(room)
    assert asked == [CASINO_MEMBERSHIPS, casino_command("bac")]
    assert [m["table"] for m in session.connection.sent if m.get("type") == "casino_state"] == ["bac"]
