"""A room on three processes, and one of them killed mid-hand (issue 21's acceptance).

NATS (the machine's, a room of this test's own), a fresh PostgreSQL database, a real HAProxy on
``config/haproxy.cfg`` and three ``pokerroom serve --proxy-protocol`` processes. Each process's config names the
tables it may play -- n1: t1 and the roulette table; n2: those and t2; n3: those, t2 and t3 -- and n1 starts
first, alone, so it owns t1 and the roulette, and t2 and t3 are n2's and n3's (checked on the lease rows); n2 and
n3 may take n1's tables over. Players connect through HAProxy (least connections spreads them); those
whose connection landed on n1 sit at t1 (and bet on the roulette), the others at t2 and t3; all play. n1 is
killed (SIGKILL) mid-hand at t1 with the bet open. Then:

* t1 and the roulette are open on another process within 10 s (the survivors' ``/health`` counts t1, the leases);
* the voided hand's players have in their wallet exactly what they had before it began (their stacks at its start
  back, TR-REFUND-1), the bettor his stake (CR-5), and once everyone leaves every chip is back: the wallets sum to
  what they were given; ``pokerroom ledger check`` passes;
* every player whose connection was on n1 reconnects through HAProxy, resumes with its token and plays at t1
  again, told on the resume that t1 moved (``table_moved``) if they sit there; the players on the surviving
  processes played on throughout, told live;
* no frame any player received shows a card they may not see.

A tournament whose tables span processes, one of them killed mid-hand: ``tests/net/test_cluster_tournament.py``.
Skips without NATS, PostgreSQL or haproxy (fails under CI).
"""

from __future__ import annotations

import subprocess
import sys
import time

from websockets.exceptions import ConnectionClosed

from pokerroom.store.lease_records import resource
from tests.net.server_process import Player, room_config, table_entry
from tests.support.cluster import (
    WELCOME,
    arrival,
    lease_owners,
    node,
    port_of,
    room_bus,
    start_nodes,
    stop_nodes,
    wallet,
)
from tests.support.databases import postgres_database
from tests.support.haproxy import PROXY_LOCAL, ROOM_FLAGS, Balancer, health_of, require_haproxy
from tests.support.leaks import decoded, leaks, own_holes
from tests.support.socket_play import PASSWORD
from tests.support.waiting import wait_until

BUY_IN = 1_000
STAKE = 100
ROULETTE = "roulette-c"
CASINO = f"""
[[casino]]
id = "{ROULETTE}"
name = "Cluster Roulette"
game = "roulette"
min_bet = 100
max_bet = 10000
betting_seconds = 8
decision_seconds = 10
pause_seconds = 1
currency = "USD"
"""
SEATS = {"ana": "t1", "bob": "t1", "cyd": "t2", "dee": "t2", "eve": "t3", "fay": "t3"}
BETTOR = "gus"
TAKEOVER = 10.0                 # seconds: the bound on a dead process's tables playing again


def escrow_reader(database: str):   # noqa: ANN201
    """A player's chips at t1 as the shared database holds them (the table's escrow)."""
    from pokerroom.money.accounts import table_escrow
    from pokerroom.store.db import make_engine
    from pokerroom.store.room_store import RoomStore

    store = RoomStore(make_engine(database.replace("postgresql://", "postgresql+psycopg://", 1)))
    return lambda name: store.ledger.balances([table_escrow("t1", name)])[table_escrow("t1", name)]


def config(*tables: str) -> str:
    """These tables, slow decisions (a hand waits for the kill), and a player who lost the connection keeps the seat
    while reconnecting (HR-DC)."""
    room = room_config(*(table_entry(t, f"Table {t}") for t in tables), decision=20) + CASINO
    return room.replace("reconnect_seconds = 0", "reconnect_seconds = 60")


def placed(owners: dict[str, str]) -> bool:
    """n1 owns t1 and the roulette (it started first, alone); t2 and t3 are on the other two processes."""
    return (owners.get(resource("cash", "t1")), owners.get(resource("casino", ROULETTE))) == ("n1", "n1") \
        and {owners.get(resource("cash", "t2")), owners.get(resource("cash", "t3"))} <= {"n2", "n3"} \
        and len(owners) == 4


class Tables:
    """Everyone checks or calls at their table; what each hand started with, and which hands ended, by table."""

    def __init__(self, players: dict[str, Player]) -> None:
        self.players = players
        self.hand: dict[str, str] = {}                  # table: its hand in play
        self.ended: dict[str, set[str]] = {}            # table: its hands ended
        self.stacks: dict[tuple[str, str], int] = {}    # (hand, player): the stack it started with
        self.held: dict[str, dict] = {}                 # table: a decision left waiting on purpose
        self.left: set[str] = set()                     # players seen leaving their table
        self.seats: dict[tuple[str, str], int] = {}     # (table, player): their seat
        self.leaving: set[str] = set()                  # players who asked to leave
        self.acted: dict[str, int] = {}                 # player: the acts the table took

    def next(self, player: Player) -> dict:
        return player.pushes.pop(0) if player.pushes else player.receive(timeout=0.05)

    def run(self, done, hold: frozenset[str] = frozenset(), timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < deadline, f"play did not get there: ended {self.ended}, held {self.held}"
            for name, player in self.players.items():
                try:
                    push = self.next(player)
                except TimeoutError:
                    continue
                self.note(name, push)
                if self.sat_out(name, push):           # away when its process died: back in at once
                    back = player.request("sit_in", table=push["table"])
                    assert back["ok"] or back["error"]["code"] == "not_sitting_out", back
                if "legal" in push:
                    if push["table"] in hold:
                        self.held[push["table"]] = push
                        continue
                    legal = push["legal"]
                    answer = player.request("act", table=push["table"], action="check" if legal["can_check"]
                                            else "call", decision=legal["decision"])
                    assert answer["ok"] or answer["error"]["code"] in self.refusable(name), (name, answer)
                    self.acted[name] = self.acted.get(name, 0) + answer["ok"]

    def refusable(self, name: str) -> set[str]:
        """An act may cross the decision's end (a timeout), or, once the player asked to leave, the seat's."""
        return {"stale_decision", "not_seated"} if name in self.leaving else {"stale_decision"}

    def sat_out(self, name: str, push: dict) -> bool:
        return push.get("type") == "table_event" and push["event"]["type"] == "player_sat_out" \
            and self.seats.get((push["table"], name)) == push["event"]["seat"] and name not in self.left

    def note(self, name: str, push: dict) -> None:
        if push.get("type") == "table_event" and push["event"]["type"] == "player_left":
            self.left.add(push["event"]["player"])
        if push.get("type") == "table_event" and push["event"]["type"] == "player_seated":
            self.seats[(push["table"], push["event"]["player"])] = push["event"]["seat"]
        if push.get("type") != "table_event" or push["event"]["type"] != "hand_event":
            return
        table, hand, event = push["table"], push["event"]["hand_id"], push["event"]["event"]
        if event["type"] == "hand_started":
            self.hand[table] = hand
        elif event["type"] == "seat_dealt_in":
            self.stacks[(hand, event["player"])] = event["stack"]
            self.seats[(table, event["player"])] = event["seat"]
        elif event["type"] == "hand_ended":
            self.ended.setdefault(table, set()).add(hand)

    def hands(self, table: str) -> int:
        return len(self.ended.get(table, ()))


def recorded(players: dict[str, list[Player]]) -> dict[str, list[dict]]:
    return {name: decoded(f for connection in connections for f in connection.frames)
            for name, connections in players.items()}


def signed(player: Player, name: str) -> str:
    """A new adult account with the welcome balance, logged in on ``player``'s connection: its token."""
    assert player.request("register", nickname=name, password=PASSWORD, birth_date="1990-01-01", country="NL")["ok"]
    login = player.request("login", nickname=name, password=PASSWORD)
    assert login["ok"] and login["balance"] == WELCOME, login
    return login["token"]


def casino_events(push: dict, kind: str) -> list[dict]:
    return [e for e in push.get("events", ()) if e["type"] == kind] if push.get("type") == "casino_events" else []


def dropped(player: Player) -> bool:
    """Whether the player's connection is gone (its process killed); what it still had to read is kept."""
    try:
        player.pushes.append(player.receive(timeout=0.05))
    except TimeoutError:
        return False
    except ConnectionClosed:
        return True
    return False


def tables_on(servers) -> int:                           # noqa: ANN001
    total = 0
    for server in servers:
        code, answer = health_of(port_of(server), header=PROXY_LOCAL)
        total += answer.get("tables", 0) if code == 200 else 0
    return total


def test_a_process_killed_mid_hand_has_its_tables_playing_elsewhere_within_10_s_and_every_chip_exact(tmp_path):
    require_haproxy()
    bus = room_bus()
    with postgres_database() as database:
        nodes = [node(tmp_path, "n1", config("t1"), database, bus, *ROOM_FLAGS),
                 node(tmp_path, "n2", config("t1", "t2"), database, bus, *ROOM_FLAGS),
                 node(tmp_path, "n3", config("t1", "t2", "t3"), database, bus, *ROOM_FLAGS)]
        n1, n2, n3 = nodes
        balancer = None
        try:
            start_nodes(nodes)
            assert wait_until(lambda: placed(lease_owners(database)), 15), lease_owners(database)
            balancer = Balancer(tmp_path, {s.tmp.name: port_of(s) for s in nodes}).start()
            assert wait_until(lambda: set(balancer.status().values()) == {"UP"}, 20), balancer.status()

            # least connections spreads them: ana (at t1, on n1's table) and cyd (at t2, on a surviving process's
            # table) are two of those whose connection landed on n1
            arrivals = [arrival(balancer, nodes) for _ in range(len(SEATS) + 1)]
            on_n1 = [p for p, where in arrivals if where == "n1"]
            elsewhere = [p for p, where in arrivals if where != "n1"]
            assert len(on_n1) >= 2 and len(elsewhere) >= 4, [where for _, where in arrivals]
            order = ["ana", "cyd", *(name for name in [*SEATS, BETTOR] if name not in ("ana", "cyd"))]
            tokens, connections = {}, {}
            for name, player in zip(order, on_n1 + elsewhere, strict=True):
                tokens[name] = signed(player, name)
                connections[name] = [player]
            players = {name: connections[name][0] for name in SEATS}
            for name, table in SEATS.items():
                joined = players[name].request("join", table=table, buy_in=BUY_IN)
                assert joined["ok"], joined

            play = Tables(players)
            play.run(lambda: all(play.hands(t) >= 2 for t in ("t1", "t2", "t3")))
            play.run(lambda: "t1" in play.held, hold=frozenset({"t1"}))      # t1's hand waits on a decision
            voided = play.hand["t1"]
            gus = connections[BETTOR][0]
            assert gus.request("casino_join", table=ROULETTE)["ok"]
            gus.wait_for(lambda m: bool(casino_events(m, "round_opened")))
            bet = gus.request("casino_bet", table=ROULETTE, market="red", amount=STAKE)
            assert bet["ok"] and bet["balance"] == WELCOME - STAKE, bet

            killed_at = time.monotonic()
            n1.kill()
            # (a) t1 and the roulette open on the survivors: the leases theirs, t1 among the tables they play
            survivors = (n2, n3)
            moved = wait_until(lambda: {lease_owners(database).get(r) for r in (resource("cash", "t1"),
                                                                              resource("casino", ROULETTE))}
                               <= {"n2", "n3"} and tables_on(survivors) == 3, 2 * TAKEOVER, every=0.1)
            took = time.monotonic() - killed_at
            assert moved and took < TAKEOVER, (took, lease_owners(database))

            # (d) whoever was on n1 lost the connection: back through HAProxy, resumed with the token
            gone: set[str] = set()
            for _ in range(20):                                 # a few reads each: what was sent first is kept
                gone |= {name for name in connections if name not in gone and dropped(connections[name][-1])}
            assert gone == set(order[:len(on_n1)]), (gone, order[:len(on_n1)])     # exactly those on n1
            for name in gone:
                again = Player(balancer.url)
                resumed = again.request("resume", token=tokens[name], tables={})
                assert resumed["ok"] and resumed["nickname"] == name, resumed
                at = {SEATS[name]} if name in SEATS else set()      # t1's players seated again where it moved
                assert resumed["tables"] == {table: "snapshot" for table in at}, resumed    # every seat, drawn
                connections[name].append(again)
                if name in players:
                    players[name] = again

            # (b) the voided hand's players sit at t1 again with what they had before it began (TR-REFUND-1),
            # their wallets as they were; the bettor has his stake back (CR-5)
            escrow = escrow_reader(database)
            for name in ("ana", "bob"):
                start = play.stacks[(voided, name)]
                assert wait_until(lambda n=name, b=start: escrow(n) == b, 10), (name, start, escrow(name))
                assert wallet(players[name]) == WELCOME - BUY_IN, name
            assert wait_until(lambda: wallet(connections[BETTOR][-1]) == WELCOME, 10)

            # every table plays on, t1 on its new process with the same players
            counted = {t: play.hands(t) for t in ("t1", "t2", "t3")}
            acted = dict(play.acted)
            play.held.clear()
            play.run(lambda: all(play.hands(t) >= counted[t] + 1 for t in ("t1", "t2", "t3"))
                     and all(play.acted.get(n, 0) > acted.get(n, 0) for n in gone & set(SEATS)))

            # everyone leaves: every chip back in a wallet, the sum what they were given
            for name, table in SEATS.items():
                play.leaving.add(name)
                assert players[name].request("leave", table=table)["ok"]
            play.run(lambda: play.left >= set(SEATS), timeout=40)
            balances = {name: wallet(player) for name, player in players.items()}
            balances[BETTOR] = wallet(connections[BETTOR][-1])
            assert sum(balances.values()) == WELCOME * len(balances), balances

            # (c) the ledger, checked by the operator's command on the shared database
            checked = subprocess.run([sys.executable, "-m", "pokerroom.cli", "ledger", "check", "--database",
                                      database], capture_output=True, text=True, timeout=120)
            assert checked.returncode == 0, checked.stdout + checked.stderr

            # (e) no frame showed anyone a card they may not see, on any process
            received = recorded(connections)
            found, checked_events = leaks(received, own_holes(received))
            assert found == [] and checked_events > 100, (found[:5], checked_events)
            assert any(voided == hand for _, hand in own_holes(received))        # the voided hand was checked too
            # (f) who stayed connected through the takeover was told in words: t1's players of the voided hand
            # (TR-REFUND-1), the bettor of the refunded round (CR-5); gus's connection never lands on n1
            stayed = {"ana": "TR-REFUND-1", "bob": "TR-REFUND-1", BETTOR: "CR-5"}
            told = {name: [m["rule"] for m in received[name] if m.get("type") == "table_moved"]
                    for name in stayed if name not in gone}
            assert BETTOR in told and told == {name: [stayed[name]] for name in told}, told
            assert all(m["voided"] == [voided] for name in told if name != BETTOR for m in received[name]
                       if m.get("type") == "table_moved")
            # who was on n1 heard it when they resumed, once, after t1's snapshot: t1's players (TR-REFUND-1); cyd,
            # whose t2 never moved, nothing
            for name in gone:
                moved = [m for m in received[name] if m.get("type") == "table_moved"]
                assert [m["rule"] for m in moved] == (["TR-REFUND-1"] if SEATS.get(name) == "t1" else []), name
                assert all(m["voided"] == [voided] for m in moved), moved
            for connection in (c for cs in connections.values() for c in cs):
                connection.close()
        finally:
            if balancer is not None:
                balancer.stop()
            stop_nodes(nodes)
