"""A small Twisted client for the room's protocol, and the bots built on it.

:class:`RoomClient` sends requests and matches answers by ``rid``
(:meth:`RoomClient.request` returns a Deferred of the answer); everything else
the server sends goes to ``on_push``. :class:`Bot` registers, logs in, sits at
a table and plays whatever the server says is legal. ``pokerroom serve --demo``
and ``pokerroom bots`` use them; so does the load benchmark.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from autobahn.twisted.websocket import WebSocketClientFactory, WebSocketClientProtocol, connectWS
from twisted.internet import defer
from twisted.logger import Logger

from pokerroom.bot_credentials import bot_password, new_secret
from pokerroom.gateway.closing import FreedOnClose
from pokerroom.protocol.codec import MSGPACK, Codec


class RoomClient(FreedOnClose, WebSocketClientProtocol):
    def onOpen(self) -> None:
        self.codec = Codec(self.factory.subprotocol)
        self.rid = 0
        self.pending: dict[int, defer.Deferred] = {}
        self.on_push: Callable[[dict], None] = lambda message: None
        self.factory.opened.callback(self)

    def request(self, kind: str, **fields: Any) -> defer.Deferred:
        self.rid += 1
        d: defer.Deferred = defer.Deferred()
        self.pending[self.rid] = d
        self.sendMessage(self.codec.encode({"type": kind, "rid": self.rid, **fields}), isBinary=self.codec.binary)
        return d

    def onMessage(self, payload: bytes, isBinary: bool) -> None:        # noqa: N803 - Autobahn's name
        message = self.codec.decode_from_server(payload)
        rid = message.get("rid")
        if "ok" in message and rid in self.pending:
            self.pending.pop(rid).callback(message)
        else:
            self.on_push(message)

    def onClose(self, wasClean: bool, code: int | None, reason: str | None) -> None:   # noqa: N803
        for d in self.pending.values():
            d.errback(ConnectionError(f"closed: {reason}"))
        self.pending.clear()
        if not self.factory.opened.called:
            self.factory.opened.errback(ConnectionError(f"could not connect: {reason}"))


def connect(reactor: Any, url: str, subprotocol: str = MSGPACK) -> defer.Deferred:
    """A Deferred of an open :class:`RoomClient`."""
    factory = WebSocketClientFactory(url, protocols=[subprotocol], reactor=reactor)
    factory.noisy = False           # no "Starting factory" line per bot: the terminal shows the room's own lines
    factory.protocol = RoomClient
    factory.subprotocol = subprotocol
    factory.opened = defer.Deferred()
    connectWS(factory)
    return factory.opened


STRATEGIES = {            # (bet when checked to, raise when bet into, call when bet into)
    "loose": (0.25, 0.08, 0.70),
    "tight": (0.15, 0.05, 0.35),
    "calling-station": (0.0, 0.0, 1.0),
}


def choose(legal: dict, rng: random.Random, strategy: str = "loose") -> dict:
    """A bot's action from the server's legal actions, by a strategy of :data:`STRATEGIES`."""
    bet, raise_, call = STRATEGIES[strategy]
    decision = legal["decision"]                    # the decision this action is for, sent back as it came
    if legal["run_it_twice"]:
        return {"action": "run_it_twice", "agree": rng.random() < 0.5, "decision": decision}
    r = rng.random()
    if legal["can_bet"] and r < bet:
        return {"action": "bet", "to": legal["min_to"], "decision": decision}
    if legal["can_raise"] and r < raise_:
        return {"action": "raise", "to": legal["min_to"], "decision": decision}
    if legal["can_check"]:
        return {"action": "check", "decision": decision}
    return {"action": "call" if r < call else "fold", "decision": decision}


class Bot:
    """A player bot: joins ``table`` and plays legal actions after ``think`` seconds."""

    log = Logger()

    def __init__(self, reactor: Any, url: str, name: str, table: str, *, think: tuple[float, float] = (0.3, 1.5),
                 seed: int | None = None, strategy: str = "loose", password: str | None = None) -> None:
        self.reactor, self.url, self.name, self.table = reactor, url, name, table
        self.password = password or bot_password(new_secret(), name)     # never one a stranger could work out
        self.strategy = strategy
        self.think = think
        self.rng = random.Random(seed)
        self.client: RoomClient | None = None
        self.seat: int | None = None
        self.actions = 0
        self.stopped = False

    def ask(self, kind: str, **fields: Any) -> defer.Deferred:
        """A request on the bot's connection; a ConnectionError once the bot has stopped."""
        if self.client is None:
            return defer.fail(ConnectionError(f"bot {self.name} stopped"))
        return self.client.request(kind, **fields)

    def stop(self) -> None:
        """Leave: the connection closes (the room it plays in is draining); one still being made closes once open."""
        self.stopped = True
        client, self.client = self.client, None
        if client is not None:
            client.sendClose()

    @defer.inlineCallbacks
    def log_in(self) -> Any:
        """Connect, register (an account that exists already is fine) and log in."""
        client = yield connect(self.reactor, self.url)
        if self.stopped:                                # stopped while it connected
            client.sendClose()
            raise ConnectionError(f"bot {self.name} stopped")
        self.client = client
        self.client.on_push = self.pushed
        yield self.ask("register", nickname=self.name, password=self.password, birth_date="1990-01-01", country="NL")
        answer = yield self.ask("login", nickname=self.name, password=self.password)
        if not answer["ok"]:
            raise RuntimeError(f"bot {self.name} could not log in: {answer['error']}")
        return answer

    @defer.inlineCallbacks
    def start(self) -> Any:
        yield self.log_in()
        lobby = yield self.ask("lobby_list")
        table = next(t for t in lobby["tables"] if t["table"] == self.table)
        joined = yield self.ask("join", table=self.table, buy_in=table["max_buy_in"])
        self.seat = joined.get("seat")
        return joined

    def pushed(self, message: dict) -> None:
        if message.get("type") != "table_events":
            return
        if "legal" in message:
            delay = self.rng.uniform(*self.think) if self.think[1] else 0
            self.reactor.callLater(delay, self.act, message["legal"])
        if self.client is not None and any(e["type"] == "player_sat_out" and e["seat"] == self.seat
                                           for e in message["events"]):
            self.reactor.callLater(1.0, self.back)

    def act(self, legal: dict) -> None:
        if self.client is not None:
            self.actions += 1
            kind, where = self.acting_at()
            d = self.client.request(kind, **where, **choose(legal, self.rng, self.strategy))
            d.addErrback(lambda failure: None)          # the connection closed under it: nothing to do

    def acting_at(self) -> tuple[str, dict]:
        """The request an action is sent with, and where: ``act`` at the bot's cash table."""
        return "act", {"table": self.table}

    @defer.inlineCallbacks
    def back(self) -> Any:
        if self.client is None:
            return
        answer = yield self.ask("sit_in", table=self.table)
        if not answer["ok"] and answer["error"]["code"] == "no_chips":
            yield self.ask("add_chips", table=self.table, amount=10_000)
            yield self.ask("sit_in", table=self.table)


class TournamentBot(Bot):
    """A bot that registers for ``tournament`` and plays its decisions there (the demo's tournament field)."""

    def __init__(self, reactor: Any, url: str, name: str, tournament: str, **options: Any) -> None:
        super().__init__(reactor, url, name, "", **options)
        self.tournament = tournament

    @defer.inlineCallbacks
    def start(self) -> Any:
        yield self.log_in()
        answer = yield self.ask("tournament_register", tournament=self.tournament)
        return answer

    def pushed(self, message: dict) -> None:
        if message.get("type") == "tournament_table_events" and "legal" in message:
            delay = self.rng.uniform(*self.think) if self.think[1] else 0
            self.reactor.callLater(delay, self.act, message["legal"])

    def acting_at(self) -> tuple[str, dict]:
        return "tournament_act", {"tournament": self.tournament}


def _stopped(failure: Any, bot: Any, kind: str) -> None:
    """A bot whose connection closed (the room stopping, say) says so in one line; anything else is a bug."""
    if failure.check(ConnectionError):
        bot.log.info("{kind} {name} stopped: {why}", kind=kind, name=bot.name, why=failure.value)
    else:
        bot.log.failure("{kind} {name}", failure, kind=kind, name=bot.name)


@defer.inlineCallbacks
def start_demo_tournament(reactor: Any, url: str, director: tuple[str, str], players: int,
                          start_in: int = 600, secret: bytes | None = None) -> Any:
    """The demo's tournament: the demo director creates it over the protocol and ``players`` bots enter it.

    It starts in ``start_in`` seconds (or when the director starts it from the admin lobby) with short levels,
    so a newcomer sees the admin lobby's live view move. Its id carries the time: a restart makes a new one.
    """
    client = yield connect(reactor, url)
    login = yield client.request("login", nickname=director[0], password=director[1])
    if not login["ok"]:
        raise RuntimeError(f"the demo director could not log in: {login['error']}")
    tournament = f"demo-{int(reactor.seconds()) % 1_000_000}"
    created = yield client.request("director_create", template="daily", id=tournament, name="Demo Daily",
                                   start_in=start_in, settings={"level_seconds": 120, "starting_stack": 5000,
                                                                "buy_in": 1000, "fee": 100, "table_size": 6,
                                                                "guarantee": 10_000})
    if not created["ok"]:
        raise RuntimeError(f"the demo tournament was refused: {created['error']}")
    secret = secret or new_secret()
    bots = [TournamentBot(reactor, url, f"tbot{i + 1:03d}", tournament, think=(0.5, 2.0), seed=100 + i,
                          password=bot_password(secret, f"tbot{i + 1:03d}")) for i in range(players)]
    for bot in bots:
        bot.start().addErrback(_stopped, bot, "tournament bot")
    client.sendClose()
    return tournament, bots


def start_bots(reactor: Any, url: str, count: int, tables: list[str], think: tuple[float, float] = (0.3, 1.5),
               strategy: str = "loose", prefix: str = "bot", secret: bytes | None = None) -> list[Bot]:
    """``count`` bots; their passwords come from ``secret`` (:mod:`pokerroom.bot_credentials`), random without."""
    secret = secret or new_secret()
    bots = []
    busy = tables[:max(1, count // 3)]              # three to a table, so every table they sit at plays
    for i in range(count):
        name = f"{prefix}{i + 1:03d}"
        bot = Bot(reactor, url, name, busy[i % len(busy)], think=think, seed=i, strategy=strategy,
                  password=bot_password(secret, name))
        bot.start().addErrback(_stopped, bot, "bot")
        bots.append(bot)
    return bots
