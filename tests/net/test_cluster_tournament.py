"""A tournament whose tables span processes, and one of them killed mid-hand (issue 21's acceptance).

NATS (a room of this test's own), a fresh PostgreSQL database, a real HAProxy on ``config/haproxy.cfg`` and three
``pokerroom serve --node`` processes, each with ``[tournaments] play_hands = "anywhere"``: the event is directed by
the process its ``director_create`` landed on (its lease row says which), and each of its tables' hands is played
by whichever table process takes it (``tournaments.hands``). Eight bots register through HAProxy for a sit & go of
two tables of four and check or call. Then:

* the event's hands are played on at least two processes (each process's ``/health`` counts the tournament hands
  it plays; with both tables' hands held on a decision the counts add up to two);
* a bot's chat line at its table (HR-CHAT), asked of the event's director, reaches that table's bots on whichever
  process they are connected, and nobody at the other table;
* a process that is not the director, playing a held hand of the event, is killed (SIGKILL): within 10 s its hand
  is void, every stack as the hand began (``hand_voided`` to its players, TR-REFUND-1), and its table deals
  again from exactly those stacks;
* every bot whose connection was on the killed process reconnects through HAProxy, resumes with its token and
  acts again; the others played on throughout;
* the event's chips are all there (the director's page: every table's stacks add up to the entrants' starting
  stacks), ``pokerroom ledger check`` passes, and no frame showed anyone a card they may not see.

Skips without NATS, PostgreSQL or haproxy (fails under CI).
"""

from __future__ import annotations

import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from websockets.exceptions import ConnectionClosed

from pokerroom.store.lease_records import resource
from tests.net.server_process import Player, room_config
from tests.support.cluster import arrival, lease_owners, node, port_of, room_bus, start_nodes, stop_nodes
from tests.support.databases import postgres_database
from tests.support.haproxy import PROXY_LOCAL, ROOM_FLAGS, Balancer, health_of, require_haproxy
from tests.support.leaks import decoded, tournament_leaks
from tests.support.socket_play import PASSWORD
from tests.support.waiting import wait_until

EVENT = "spread"
ENTRANTS = 8
TABLE_SIZE = 4                  # two tables
STACK = 1_500                   # the sit & go template's starting stack
TAKEOVER = 10.0                 # seconds: the bound on a dead process's hands playing again
REFUSABLE = {"stale_decision", "hand_unreachable", "no_hand"}   # an act crossing a timeout, a death, a hand's end


def config() -> str:
    """Tournament hands played by any process, decisions slow enough for a held hand to wait for the kill (no time
    bank: the event's is 0), and a cash table each process may play (the room needs one)."""
    room = room_config(decision=20).replace("reconnect_seconds = 0", "reconnect_seconds = 60")
    return room + '\n[tournaments]\nplay_hands = "anywhere"\ndecision_seconds = 40\nbetween_hands_seconds = 0.2\n'


class Field:
    """Everyone checks or calls at their table, except at the tables held; what each hand began with, who heard
    what, and each connection's frames (``Player.frames``)."""

    def __init__(self, players: dict[str, Player]) -> None:
        self.players = players
        self.current: dict[tuple[str, str], str] = {}   # (player, table): the hand their frames are of
        self.started: dict[str, list[str]] = {}         # table: its hands, in the order they began
        self.ended: dict[str, set[str]] = {}            # table: its hands ended
        self.stacks: dict[str, dict[str, int]] = {}     # hand: each player's stack at its start
        self.held: dict[str, tuple[str, dict]] = {}     # table: the decision left waiting on purpose, and whose
        self.voided: dict[str, dict] = {}               # hand: its hand_voided event
        self.told: dict[str, set[str]] = {}             # hand: who heard it was void
        self.acted: dict[str, int] = {}                 # player: the acts the table took
        self.closed: set[str] = set()                   # players whose connection closed
        self.table: dict[str, str] = {}                 # player: the table their frames are of
        self.heard: dict[str, list[tuple[str, str]]] = {}   # player: the chat lines they heard (speaker, text)

    def run(self, done, hold: frozenset[str] = frozenset(), timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            assert time.monotonic() < deadline, f"play did not get there: ended {self.ended}, held {self.held}"
            for name, player in self.players.items():
                if name in self.closed:
                    continue
                try:
                    push = player.pushes.pop(0) if player.pushes else player.receive(timeout=0.05)
                except TimeoutError:
                    continue
                except ConnectionClosed:
                    self.closed.add(name)
                    continue
                self.note(name, push)
                if "legal" in push and push.get("type") == "tournament_table_events":
                    if push["table"] in hold:
                        self.held[push["table"]] = (name, push)
                    else:
                        self.act(name, push)

    def act(self, name: str, push: dict) -> None:
        legal = push["legal"]
        answer = self.players[name].request("tournament_act", tournament=EVENT, decision=legal["decision"],
                                            action="check" if legal["can_check"] else "call")
        assert answer["ok"] or answer["error"]["code"] in REFUSABLE, (name, answer)
        self.acted[name] = self.acted.get(name, 0) + answer["ok"]

    def release(self) -> None:
        """The held decisions are taken (check or call), still on their connections if those are open."""
        held, self.held = self.held, {}
        for name, push in held.values():
            if name not in self.closed:
                self.act(name, push)

    def note(self, name: str, push: dict) -> None:
        if push.get("type") == "tournament_chat":
            self.heard.setdefault(name, []).append((push["player"], push["text"]))
        if push.get("type") == "tournament_event" and push["event"]["type"] == "hand_voided":
            event = push["event"]
            self.voided.setdefault(event["hand_id"], event)
            self.told.setdefault(event["hand_id"], set()).add(name)
        if push.get("type") != "tournament_table_events":
            return
        table = self.table[name] = push["table"]
        for event in push["events"]:
            if event["type"] == "hand_started":
                self.current[(name, table)] = hand = event["hand_id"]
                if hand not in self.started.setdefault(table, []):
                    self.started[table].append(hand)
            hand = self.current.get((name, table))
            if event["type"] == "seat_dealt_in":
                self.stacks.setdefault(hand, {})[event["player"]] = event["stack"]
            elif event["type"] == "hand_ended":
                self.ended.setdefault(table, set()).add(hand)

    def hands(self, table: str) -> int:
        return len(self.ended.get(table, ()))


def hands_on(server) -> int:                            # noqa: ANN001
    """The tournament hands the process plays now, as its ``/health`` says."""
    code, answer = health_of(port_of(server), header=PROXY_LOCAL)
    assert code == 200, answer
    return answer["tournament_hands"]


def signed(balancer: Balancer, nodes, name: str) -> tuple[Player, str, str]:      # noqa: ANN001
    """A new adult account logged in through HAProxy: its connection, token and the process it landed on."""
    player, where = arrival(balancer, nodes)
    made = player.request("register", nickname=name, password=PASSWORD, birth_date="1990-01-01", country="NL")
    assert made["ok"], made
    login = player.request("login", nickname=name, password=PASSWORD)
    assert login["ok"], login
    return player, login["token"], where


def resumed(balancer: Balancer, name: str, token: str) -> Player:
    """``name`` back through HAProxy with their token (a connection to the dead process is redispatched)."""
    def attempt() -> Player | None:
        try:
            player = Player(balancer.url)
        except OSError:
            return None
        answer = player.request("resume", token=token, tables={})
        assert answer["ok"] and answer["nickname"] == name, answer
        return player
    player = wait_until(attempt, TAKEOVER, every=0.2)
    assert player is not None, f"{name} could not reconnect through HAProxy"
    return player


def logged_in(balancer: Balancer, name: str) -> Player:
    """``name`` logged in on a new connection through HAProxy."""
    player = Player(balancer.url)
    login = player.request("login", nickname=name, password=PASSWORD)
    assert login["ok"], login
    return player


def page(balancer: Balancer) -> dict:
    """The event's page, read by its director on a new connection through HAProxy."""
    reader = logged_in(balancer, "tdir")
    try:
        answer = reader.request("tournament_details", tournament=EVENT)
        assert answer["ok"], answer
        return answer
    finally:
        reader.close()


def test_TR_REFUND_1_a_process_playing_a_tournament_hand_killed_mid_hand_has_it_void_and_dealt_again_within_10_s(
        tmp_path):
    require_haproxy()
    bus = room_bus()
    with postgres_database() as database:
        nodes = [node(tmp_path, name, config(), database, bus, *ROOM_FLAGS) for name in ("n1", "n2", "n3")]
        named = {s.tmp.name: s for s in nodes}
        balancer = None
        try:
            start_nodes(nodes)
            balancer = Balancer(tmp_path, {name: port_of(s) for name, s in named.items()}).start()
            assert wait_until(lambda: set(balancer.status().values()) == {"UP"}, 20), balancer.status()

            # the director, made so by the operator's command on the shared database, creates a sit & go of two
            # tables of four that starts when full
            signed(balancer, nodes, "tdir")[0].close()
            granted = subprocess.run([sys.executable, "-m", "pokerroom.cli", "role", "tdir", "director",
                                      "--database", database], capture_output=True, text=True, timeout=60)
            assert granted.returncode == 0, granted.stdout + granted.stderr
            td = logged_in(balancer, "tdir")
            created = td.request("director_create", template="sit_and_go", id=EVENT, name="Spread", start_in=None,
                                 settings={"min_players": ENTRANTS, "max_players": ENTRANTS,
                                           "table_size": TABLE_SIZE, "time_bank": 0})
            assert created["ok"], created
            director = wait_until(lambda: lease_owners(database).get(resource("tournament", EVENT)), 10)
            assert director in named, lease_owners(database)

            players, tokens, where = {}, {}, {}
            for i in range(ENTRANTS):
                name = f"bot{i}"
                players[name], tokens[name], where[name] = signed(balancer, nodes, name)
            for player in players.values():
                entered = player.request("tournament_register", tournament=EVENT)
                assert entered["ok"], entered
            field = Field(players)
            field.run(lambda: len(field.started) == 2)                      # full: both tables deal
            tables = frozenset(field.started)

            # (1) with every table's hand waiting on a decision, each process's /health counts the hands it plays:
            # two in all; until they were seen on two processes and a process not the director plays one
            seen: set[str] = set()
            for _ in range(30):
                field.run(lambda: set(field.held) == tables, hold=tables)
                counts = {name: hands_on(s) for name, s in named.items()}
                assert sum(counts.values()) == len(tables), counts
                seen |= {name for name, count in counts.items() if count}
                victim = next((name for name in sorted(named) if name != director and counts[name]), None)
                if len(seen) >= 2 and victim is not None:
                    break
                ended = {t: field.hands(t) for t in tables}
                field.release()
                field.run(lambda e=ended: all(field.hands(t) > e[t] for t in tables))
            else:
                raise AssertionError(f"the event's hands were played only on {seen}")
            assert len(seen) >= 2, seen
            playing = {t: field.started[t][-1] for t in tables}              # the hands held, by table

            # HR-CHAT: a line at a table whose hand another process plays is asked of the event's director and heard
            # by that table's players, on whichever process they are connected, and by nobody at the other table
            speaker = sorted(players)[0]
            here = {name for name, table in field.table.items() if table == field.table[speaker]}
            said = players[speaker].request("tournament_chat", tournament=EVENT, table=field.table[speaker],
                                            text="nice hand")
            assert said["ok"], said
            field.run(lambda: all(field.heard.get(name) for name in here), hold=tables, timeout=10)
            assert {name: field.heard.get(name) for name in players} == {
                name: [(speaker, "nice hand")] if name in here else None for name in players}
            doomed = counts[victim]                                          # the hands to be voided

            # (2) the process playing a held hand, not the director, is killed
            killed_at = time.monotonic()
            named[victim].kill()
            gone = {name for name, at in where.items() if at == victim}
            assert gone, where                                                  # least connections: some are
            field.run(lambda: gone <= field.closed, hold=tables, timeout=10)    # what they were sent is kept
            assert field.closed == gone, (field.closed, gone)                   # exactly those on it
            # (4) whoever was on it is back through HAProxy with their token at once (together: HAProxy may try the
            # dead process first, a second's wait each time, until its checks find it down)
            first = {name: players[name] for name in gone}
            with ThreadPoolExecutor(len(gone) or 1) as pool:
                back = dict(zip(sorted(gone), pool.map(lambda name: resumed(balancer, name, tokens[name]),
                                                       sorted(gone)), strict=True))
            players.update(back)
            field.closed -= gone
            acted = dict(field.acted)

            # (3) within 10 s its hands are void, every stack as the hand began, and their tables deal again
            def dealt_again() -> bool:
                return len(field.voided) == doomed and all(
                    field.started[v["table"]][-1] != hand and len(field.stacks.get(field.started[v["table"]][-1], ()))
                    == len(v["stacks"]) for hand, v in field.voided.items())

            field.run(dealt_again, hold=tables, timeout=2 * TAKEOVER)
            took = time.monotonic() - killed_at
            assert took < TAKEOVER, took
            for hand, voided in field.voided.items():
                assert playing[voided["table"]] == hand, (playing, voided)            # a hand held at the kill
                assert voided["stacks"] == field.stacks[hand], (voided, field.stacks[hand])     # TR-REFUND-1
                again = field.started[voided["table"]][-1]
                assert field.stacks[again] == voided["stacks"], (again, field.stacks[again])   # dealt from those
                assert field.told[hand] == set(voided["stacks"]), (hand, field.told[hand])    # all its players told
            assert sum(hands_on(named[name]) for name in named if name != victim) == len(tables)

            # play goes on at every table; every bot that was on the killed process acts again
            ended = {t: field.hands(t) for t in tables}
            field.release()
            field.run(lambda: all(field.hands(t) >= ended[t] + 2 for t in tables)
                      and all(field.acted.get(name, 0) > acted.get(name, 0) for name in gone))
            assert not field.closed, field.closed

            # (5) every chip of the event is on its tables: no hand voided twice, none lost
            details = page(balancer)
            assert details["tournament"]["state"] == "running" and details["players_left"] == ENTRANTS, details
            assert sum(sum(t["stacks"].values()) for t in details["tables"].values()) == ENTRANTS * STACK, details
            assert details["tournament"]["prize_pool"] == ENTRANTS * details["tournament"]["buy_in"], details
            received = {name: decoded([*(first[name].frames if name in first else ()), *player.frames])
                        for name, player in players.items()}
            found, checked = tournament_leaks(received)
            assert found == [] and checked > 100, (found[:5], checked)

            # (6) the ledger, checked by the operator's command on the shared database
            checked_ledger = subprocess.run([sys.executable, "-m", "pokerroom.cli", "ledger", "check", "--database",
                                             database], capture_output=True, text=True, timeout=120)
            assert checked_ledger.returncode == 0, checked_ledger.stdout + checked_ledger.stderr
        finally:
            if balancer is not None:
                balancer.stop()
            stop_nodes(nodes)
