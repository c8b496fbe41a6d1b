"""The tournament hall in a room on a ``Clock``: people with sessions and money, requests by name, the pushes
each got -- a sit & go brought to the point where a deal can be made, and one whose hands another process plays."""

from __future__ import annotations

from twisted.internet.defer import Deferred
from twisted.internet.task import Clock
from twisted.python.failure import Failure

from pokerroom.bus.records import LOGGED_IN
from pokerroom.bus.strict import StrictBus
from pokerroom.players import AccountRules
from pokerroom.protocol.schema import parse_request
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.every_node import ask_every_node
from pokerroom.shell.promotions_desk import fund_promotions
from pokerroom.shell.tournaments import TournamentHall
from pokerroom.shell.tournaments.hand_host import HandHost
from pokerroom.shell.tournaments.requests import serve_tournament_requests
from pokerroom.store.room_store import RoomStore
from tests.support.clocked_room import Connection, conform, deposit, settle
from tournament import director as td


def hall_of(room: RoomServices, **settings) -> TournamentHall:
    """The tournament hall built from the room's services, its requests served on the gateway, as the composition
    root builds them."""
    hall = TournamentHall(room.reactor, room.bus, room.store, room.recorder, room.wallet, **settings)
    serve_tournament_requests(room.gateway, room.bus, room.reactor, room.recorder, room.store, room.play_check,
                              room.account_rules.banned_words, hall.bounds.keep_ended_minutes, room.chat_conduct)
    return hall


class Lobby:
    """A room on its own ``Clock`` with the tournament hall installed and promotions funded for guarantees."""

    def __init__(self, store: RoomStore, **hall_settings) -> None:
        self.clock = Clock()
        self.room = RoomServices([], store, self.clock, account_rules=AccountRules())
        self.room.startService()
        self.hall = hall_of(self.room, **{"decision_seconds": 10, "between_hands": 1, "clock_scale": 1,
                                          **hall_settings})
        self.hall.install()
        fund_promotions(self.room.wallet, self.room.recorder, "deposit", 10_000_000, "house",
                        "guarantees of the tests' events")   # STAFF-1
        self.rid = 0
        self.people: dict[str, tuple] = {}

    def person(self, name: str, role: str = "player"):   # noqa: ANN201
        """``name`` connected and logged in with ``role`` and 100,000 deposited; a stored account if new."""
        connection = Connection()
        session = self.room.gateway.connected(connection, "10.0.0.1")
        session.player_id, session.country, session.role = name, "NL", role
        self.room.gateway.identify(session, name)
        self.room.gateway.returned(session, LOGGED_IN)         # as a login does: the hall hears they are connected
        if self.room.store.accounts.find_account(name.casefold()) is None:         # a director's named player is real
            self.room.store.accounts.create_account(name, name.casefold(), "-", "1990-01-01", "NL", 0.0, role=role)
        deposit(self.room, name, 100_000)
        settle(self.room)
        self.people[name] = (session, connection)
        return session

    def ask(self, who: str, kind: str, /, **fields) -> dict:
        """``who`` asks for ``kind``: the answer, a Deferred one resolved (the store answers at once here)."""
        self.rid += 1
        answer = conform(self.room.gateway.handle(self.people[who][0], parse_request({"type": kind, "rid": self.rid,
                                                                                      **fields})))
        settle(self.room)                           # on a strict bus: what the request published delivered
        if isinstance(answer, Deferred):            # no writer thread here: the store answers at once
            answered: list = []
            answer.addBoth(answered.append)
            answer = answered[0]
        return answer

    def pushes(self, name: str, kind: str) -> list[dict]:
        """The tournament events of ``kind`` pushed to ``name`` so far (on a strict bus: once what was published
        is delivered)."""
        settle(self.room)
        return [m["event"] for m in self.people[name][1].sent
                if m.get("type") == "tournament_event" and m["event"]["type"] == kind]

    def create(self, **settings) -> str:
        """Director "boss" creates the three-player sit & go "sng" with these ``settings``."""
        self.person("boss", role="director")
        answer = self.ask("boss", "director_create", template="sit_and_go", id="sng", name="SNG", start_in=None,
                          settings={"min_players": 3, "max_players": 3, **settings})
        assert answer["ok"], answer
        return "sng"


def between_hands_in_the_money(store, **settings) -> tuple[Lobby, td.Director]:
    """A three-player sit & go allowing deals, as if the bubble had burst, after its first hand."""
    lobby = Lobby(store)
    lobby.create(deals=1, **settings)
    for name in ("ana", "bo", "cy"):
        lobby.person(name)
        lobby.ask(name, "tournament_register", tournament="sng")
    d = lobby.hall.directors["sng"]
    d.eliminations.in_money = True
    table = next(iter(d.tables.values()))
    lobby.clock.advance(1)
    while table.hand is not None:                                    # let the timers play the hand out
        lobby.clock.advance(10)
    return lobby, d


def started(store, **settings) -> tuple[Lobby, td.Director]:
    """A three-player sit & go "sng" with these ``settings``: registered, started, its first hand dealt."""
    lobby = Lobby(store)
    lobby.create(**settings)
    for name in ("ana", "bo", "cy"):
        lobby.person(name)
        assert lobby.ask(name, "tournament_register", tournament="sng")["ok"]
    d = lobby.hall.directors["sng"]
    lobby.clock.advance(1)                                           # the first hand is dealt
    return lobby, d


def asked(lobby: Lobby, subject: str, payload: object) -> object:
    """The hall's answer to ``payload`` on ``subject`` once the strict bus has carried it both ways (a refusal as
    the RuleViolation itself)."""
    assert isinstance(lobby.room.bus, StrictBus)
    bus = lobby.room.bus                    # a read every node answers is gathered, as the gateway's side asks it
    answer = ask_every_node(bus, subject, payload) if subject in bus.gatherers else bus.request(subject, payload)
    settle(lobby.room)
    out: list = []
    answer.addBoth(out.append)
    assert out, "the hall did not answer"
    return out[0].value if isinstance(out[0], Failure) else out[0]


class AwayLobby(Lobby):
    """A lobby whose hall sends every hand away, and a table process "n2" (here, on the same bus) playing them;
    ``live`` is the roster's live nodes as the hall reads them; ``steps`` every event the hall's steps had."""

    PLAYERS = ("ana", "bo", "cy")

    def __init__(self, store) -> None:
        self.live = {"n1", "n2"}
        super().__init__(store, hands_away=True, live_nodes=lambda: set(self.live))
        self.host = HandHost(self.clock, self.room.bus, self.room.recorder, "n2")
        self.host.install()
        self.steps: list = []
        run = self.hall.run
        self.hall.run = lambda d, events: (self.steps.extend(events), run(d, events))[1]

    def started(self, **settings) -> td.Director:
        self.create(**settings)
        for name in self.PLAYERS:
            self.person(name)
            assert self.ask(name, "tournament_register", tournament="sng")["ok"]
        return self.hall.directors["sng"]

    def of(self, kind: type) -> list:
        return [e for e in self.steps if isinstance(e, kind)]

    def frames(self, name: str) -> list[dict]:
        settle(self.room)
        return [m for m in self.people[name][1].sent if m.get("type") == "tournament_table_events"]

    def turn(self) -> tuple[str, dict] | None:
        """Whose turn it is at the hand played away, and their ``legal``, as their own last frame says."""
        for hand in self.host.hands.values():
            turn = hand.play.to_act()
            if turn is not None:
                name = turn[0]
                mine = [f for f in self.frames(name) if "legal" in f]
                return name, mine[-1]["legal"]
        return None
