"""Money across processes in tournaments: one account entering two sit & gos whose halls run on two processes over
one database, at the same instant, with just the price of one entry -- exactly one entry is taken and paid, the
other refused before its director takes it (TR-REG-6), and the ledger adds up (issue 21)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

import pytest
from twisted.internet.defer import Deferred
from twisted.internet.task import Clock

from pokerroom.bus.in_process import InProcessBus
from pokerroom.bus.records import LOGGED_IN
from pokerroom.money.accounts import cash, tournament_pool
from pokerroom.players import AccountRules
from pokerroom.protocol.schema import parse_request
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.promotions_desk import fund_promotions
from pokerroom.store.db import make_engine, migrate
from pokerroom.store.room_store import RoomStore
from tests.support.clocked_room import Connection
from tests.support.hall_lobby import hall_of
from tests.support.together import at_once, shared_database

ROUNDS = 3


@pytest.fixture(params=["postgresql", "sqlite"])
def database(request, tmp_path) -> Iterator[str]:
    with shared_database(request.param, tmp_path) as url:
        yield url


class Process:
    """One process of the room: its own engine, store, bus and clock, with the tournament hall installed."""

    def __init__(self, url: str) -> None:
        engine = make_engine(url)
        migrate(engine)
        self.clock = Clock()
        self.clock.advance(1_000)
        self.room = RoomServices([], RoomStore(engine), self.clock, account_rules=AccountRules(),
                                 bus=InProcessBus(), shared_money=True)
        self.room.startService()
        self.hall = hall_of(self.room, decision_seconds=10, between_hands=1, clock_scale=1)
        self.hall.install()
        self.sessions: dict[str, object] = {}
        self.rid = 0

    def person(self, name: str, role: str = "player") -> None:
        session = self.room.gateway.connected(Connection(), "10.0.0.1")
        session.player_id, session.country, session.role = name, "NL", role
        self.room.gateway.identify(session, name)
        self.room.gateway.returned(session, LOGGED_IN)
        if self.room.store.accounts.find_account(name.casefold()) is None:
            self.room.store.accounts.create_account(name, name.casefold(), "-", "1990-01-01", "NL", 0.0, role=role)
        self.sessions[name] = session

    def ask(self, who: str, kind: str, **fields) -> dict:
        self.rid += 1
        answer = self.room.gateway.handle(self.sessions[who], parse_request({"type": kind, "rid": self.rid,
                                                                             **fields}))
        if isinstance(answer, Deferred):
            out: list = []
            answer.addBoth(out.append)
            answer = out[0]
        return answer


def test_TR_REG_6_one_account_entering_two_processes_tournaments_at_once_with_one_entrys_price_enters_once(database):
    processes = [Process(database), Process(database)]
    try:
        fund_promotions(processes[0].room.wallet, processes[0].room.recorder, "deposit", 1_000_000, "house",
                        "guarantees")
        for process, event in zip(processes, ("east", "west"), strict=True):
            process.person("boss", role="director")
            created = process.ask("boss", "director_create", template="sit_and_go", id=event, name=event,
                                  start_in=None, settings={"min_players": 3, "max_players": 9})
            assert created["ok"], created
        cost = processes[0].hall.directors["east"].spec.entry_cost
        assert cost == processes[1].hall.directors["west"].spec.entry_cost > 0
        for round_number in range(ROUNDS):
            player = f"ana{round_number}"
            processes[0].room.wallet.deposit(player, cost, None)
            for process in processes:
                process.person(player)
            answers = at_once(*[partial(process.ask, player, "tournament_register", tournament=event)
                                for process, event in zip(processes, ("east", "west"), strict=True)])
            entered = [i for i, a in enumerate(answers) if a["ok"]]
            refused = [a for a in answers if not a["ok"]]
            assert len(entered) == 1 and len(refused) == 1, answers
            assert refused[0]["error"]["code"] == "insufficient_funds"
            winner, loser = processes[entered[0]], processes[1 - entered[0]]
            assert player in winner.hall.directors[("east", "west")[entered[0]]].entries
            assert player not in loser.hall.directors[("east", "west")[1 - entered[0]]].entries
            assert winner.room.wallet.balance(player) == loser.room.wallet.balance(player) == 0
        store = processes[0].room.store
        pools = store.ledger.balances([tournament_pool("east"), tournament_pool("west")])
        assert sum(pools.values()) == ROUNDS * processes[0].hall.directors["east"].spec.buy_in
        assert store.ledger.balances([cash(f"ana{r}") for r in range(ROUNDS)]) == {
            cash(f"ana{r}"): 0 for r in range(ROUNDS)}
        numbers = [t.number for t in store.ledger.load_ledger().transfers]
        assert len(numbers) == len(set(numbers))
        assert store.ledger.ledger_check() and store.ledger.ledger_problems() == []
    finally:
        for process in processes:
            process.room.stopService()
            process.room.store.engine.dispose()
