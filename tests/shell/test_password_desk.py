"""The password desk: a bounded queue, a share per network, networks served in turn, ``busy`` at once when full."""

from __future__ import annotations

import queue
import threading

import pytest
from twisted.internet.task import Clock
from twisted.python.failure import Failure

from pokerroom import players
from pokerroom.errors import RuleViolation
from pokerroom.gateway.throttle import network_of
from pokerroom.protocol.schema import parse_request
from pokerroom.shell.own_threads import OwnThreads
from pokerroom.shell.password_desk import PasswordDesk
from tests.support.clocked_room import Connection, make_room, settle


class HeldPool:
    """A thread pool that runs nothing until the test says so."""

    def __init__(self) -> None:
        self.jobs: list = []
        self.started = False

    def start(self) -> None:                                        # with the room (its lifecycle)
        self.started = True

    def stop(self) -> None:
        self.started = False

    def callInThreadWithCallback(self, on_result, work, *args):    # noqa: N802 - Twisted's name
        self.jobs.append((on_result, work, args))

    def finish_one(self) -> None:
        on_result, work, args = self.jobs.pop(0)
        try:
            result = work(*args)
        except Exception:
            on_result(False, Failure())
        else:
            on_result(True, result)


class Immediate:
    def callFromThread(self, f, *args):                             # noqa: N802
        f(*args)


def held_desk(pool: HeldPool, **limits) -> PasswordDesk:
    """A desk whose own threads are ``pool``."""
    return PasswordDesk(Immediate(), own=OwnThreads(Immediate(), "passwords", pool=pool), **limits)


def desk(**limits) -> tuple[PasswordDesk, HeldPool]:
    pool = HeldPool()
    return held_desk(pool, **limits), pool


def test_a_full_desk_answers_busy_at_once_and_takes_work_again_when_a_hash_ends():
    d, pool = desk(threads=1, queue=2, per_network=10)
    done = [d.run(f"10.0.{i}.0/24", str, i) for i in range(3)]
    with pytest.raises(RuleViolation) as busy:
        d.run("10.0.9.0/24", str, 9)
    assert busy.value.code == "busy" and "try again" in busy.value.message
    assert len(pool.jobs) == 1                               # one thread: one hash runs, two wait
    pool.finish_one()
    assert done[0].result == "0" and len(pool.jobs) == 1
    d.run("10.0.9.0/24", str, 9)                             # a place is free again


def test_one_network_holds_at_most_its_share_and_another_network_is_served_next():
    d, pool = desk(threads=1, queue=8, per_network=3)
    crowd = [d.run("10.0.0.0/24", str, f"crowd{i}") for i in range(3)]
    with pytest.raises(RuleViolation):
        d.run("10.0.0.0/24", str, "crowd3")                  # the crowd's network has used its share
    player = d.run("10.9.9.0/24", str, "player")
    pool.finish_one()                                        # the first of the crowd was already running...
    pool.finish_one()                                        # ...then the other network's turn comes
    assert crowd[0].result == "crowd0" and player.result == "player"
    assert not crowd[1].called


def test_a_failing_hash_frees_its_place_and_fails_its_caller():
    d, pool = desk(threads=1, queue=0, per_network=1)
    failed = d.run("n", int, "not a number")
    pool.finish_one()
    errors = []
    failed.addErrback(errors.append)
    assert errors and errors[0].check(ValueError)
    assert d.taken == 0 and d.by_network == {}
    d.run("n", str, 1)


def test_networks_are_ipv4_slash_24_and_ipv6_slash_64():
    assert network_of("203.0.113.7") == network_of("203.0.113.200") == "203.0.113.0/24"
    assert network_of("203.0.114.7") != network_of("203.0.113.7")
    assert network_of("2001:db8:1:2:aaaa::1") == network_of("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert network_of("::ffff:203.0.113.9") == "203.0.113.0/24"
    assert network_of("not an address") == "not an address"


def login(room, session, rid: int, nickname: str = "nobody"):
    return room.gateway.handle(session, parse_request({"type": "login", "rid": rid, "nickname": nickname,
                                                       "password": "x" * 8}))


def refusal_code(answer) -> str:                                  # noqa: ANN001
    """The code an answer refused with, or "" for a login let through to the password check."""
    return answer["error"]["code"] if isinstance(answer, dict) else ""


def test_a_network_shares_one_attempt_limit_whichever_of_its_addresses_tries(store):
    clock = Clock()
    room = make_room(store, clock, held_desk(HeldPool(), queue=100, per_network=100),
                     network_password_attempts_per_minute=6, network_password_attempts_burst=3)
    sessions = [room.gateway.connected(Connection(), f"198.51.100.{i}") for i in range(1, 5)]
    answers = [login(room, s, i, f"name{i}") for i, s in enumerate(sessions)]
    assert [refusal_code(a) for a in answers] == ["", "", "", "too_many_attempts"]   # four addresses, one /24
    assert refusal_code(login(room, room.gateway.connected(Connection(), "198.51.101.1"), 9, "other")) == ""


def test_an_account_has_its_own_attempt_limit_per_network_and_a_wider_one_across_networks(store):
    clock = Clock()
    room = make_room(store, clock, held_desk(HeldPool(), queue=100, per_network=100),
                     account_password_attempts_per_minute=6, account_password_attempts_burst=2)
    guesser = [room.gateway.connected(Connection(), f"192.0.2.{i}") for i in (1, 2, 3)]       # one /24, three addresses
    answers = [login(room, s, i, "Victim") for i, s in enumerate(guesser)]
    assert [refusal_code(a) for a in answers] == ["", "", "too_many_attempts"]
    assert "this account" in answers[2]["error"]["message"]
    assert refusal_code(login(room, guesser[2], 7, "VICTIM")) == "too_many_attempts"      # names ignore case (AC-3)
    assert refusal_code(login(room, guesser[2], 8, "someone")) == ""
    owner = room.gateway.connected(Connection(), "203.0.113.7")                               # the player, elsewhere
    assert refusal_code(login(room, owner, 9, "victim")) == ""                             # is not locked out
    clock.advance(10)                                        # one attempt back every ten seconds
    assert refusal_code(login(room, guesser[0], 200, "victim")) == ""


def outcome(answer) -> str:                                       # noqa: ANN001
    """An answer's error code, "hashing" while its hash waits on the desk, "slowed" while it waits its turn."""
    if isinstance(answer, dict):
        return answer["error"]["code"] if not answer["ok"] else "ok"
    if answer.called:
        return outcome(answer.result)
    return "waiting"


def test_an_account_wide_limit_slows_guesses_from_many_networks_and_never_counts_the_players_own_network(store):
    """Issue 33, finding 1: wrong passwords from 40 networks kept the account's all-networks bucket empty and the
    player, with the right password, got `too_many_attempts` 9 times in 10."""
    clock = Clock()
    pool = HeldPool()
    room = make_room(store, clock, held_desk(pool, threads=100, queue=100, per_network=100),
                     account_password_attempts_per_minute=6, account_password_attempts_burst=2,
                     account_attempts_wait_seconds=10)
    store.accounts.create_account("Victim", "victim", players.hash_password("right-pass"), "1990-01-01", "NL", 0.0)
    # where the player logged in before
    store.accounts.connection_opened("Victim", "203.0.113.7", "victims-phone", 0.0)
    networks = [room.gateway.connected(Connection(), f"198.51.{n}.1") for n in range(40)]
    wide = [login(room, s, 100 + n, "victim") for n, s in enumerate(networks)]
    assert len(pool.jobs) == 2 * 10                          # ACCOUNT_WIDE x the burst hash at once...
    assert [outcome(a) for a in wide[20:]] == ["waiting"] * 10 + ["too_many_attempts"] * 10   # ...10 s more wait
    assert "networks it has not logged in from" in outcome_message(wide[-1])
    home = room.gateway.connected(Connection(), "203.0.113.99")      # the player's own network: not counted, not slowed
    mine = room.gateway.handle(home, parse_request({"type": "login", "rid": 1, "nickname": "victim",
                                                    "password": "right-pass"}))
    phone = room.gateway.connected(Connection(), "192.0.2.50")       # elsewhere, on the device the account used before
    theirs = room.gateway.handle(phone, parse_request({"type": "login", "rid": 2, "nickname": "victim",
                                                       "password": "right-pass", "device": "victims-phone"}))
    assert len(pool.jobs) == 22                              # both hashing at once, behind nobody's turn
    del pool.jobs[:20]                                       # the guesses' hashes never end, and need not
    pool.finish_one()
    pool.finish_one()
    settle(room)                                             # the balance each answer shows: asked of the wallet
    assert outcome(mine) == "ok" and outcome(theirs) == "ok"
    clock.advance(10)                                        # the slowed guesses had their turn: hashed, not refused
    assert len(pool.jobs) == 10


def outcome_message(answer) -> str:                               # noqa: ANN001
    return (answer if isinstance(answer, dict) else answer.result)["error"]["message"]


def test_a_busy_answer_costs_the_caller_no_attempt(store):
    """Issue 33, finding 1: a `busy` answer used up the caller's own attempts, so retrying burnt their limit."""
    room = make_room(store, Clock(), held_desk(HeldPool(), threads=1, queue=0, per_network=1),
                     password_attempts_burst=2, network_password_attempts_burst=2, account_password_attempts_burst=2)
    first = room.gateway.connected(Connection(), "192.0.2.1")
    assert outcome(login(room, first, 1)) == "waiting"                      # the desk's one place
    player = room.gateway.connected(Connection(), "203.0.113.1")
    assert [outcome(login(room, player, 2 + n, "else")) for n in range(6)] == ["busy"] * 6      # not too_many_attempts


def test_a_full_desk_answers_a_login_busy(store):
    room = make_room(store, Clock(), held_desk(HeldPool(), threads=1, queue=0, per_network=1))
    first = room.gateway.connected(Connection(), "192.0.2.1")
    second = room.gateway.connected(Connection(), "203.0.113.1")
    assert refusal_code(login(room, first, 1)) == ""
    busy = login(room, second, 2, "else")
    answers = []
    busy.addCallback(answers.append)
    assert answers[0]["error"]["code"] == "busy"


class ThreadedClock(Clock):
    """A Clock that also takes results back from threads (``callFromThread``) and keeps shutdown triggers."""

    def __init__(self) -> None:
        super().__init__()
        self.rightNow = 1.8e9                                       # 2027: a birth date of 1990 is possible
        self.from_threads: queue.Queue = queue.Queue()
        self.triggers: list = []

    def callFromThread(self, f, *args, **kwargs):                   # noqa: N802 - Twisted's name
        self.from_threads.put((f, args, kwargs))

    def addSystemEventTrigger(self, phase, event, f, *args):        # noqa: N802
        self.triggers.append((phase, event, f, args))

    def until(self, done) -> None:                                 # noqa: ANN001
        """Run what the threads hand back, and the clock's calls, until ``done()``."""
        for _ in range(1000):
            if done():
                return
            try:
                f, args, kwargs = self.from_threads.get(timeout=0.05)
            except queue.Empty:
                self.advance(0.1)                                   # the writer gathers for 100 ms
                continue
            f(*args, **kwargs)
        raise AssertionError("the room did not answer")


def test_the_room_built_as_serve_builds_it_hashes_every_login_and_registration_on_the_desks_own_pool(
        tmp_path, monkeypatch):
    """Finding 7 of issue 33, and issue 35: `Accounts` kept the default desk, so hashes ran on the reactor's shared
    pool; the desk is now chosen once, as build_room composes the room, and started and stopped with it."""
    from pokerroom import players
    from pokerroom.app import build_room

    threads: list[str] = []
    hash_password, password_matches = players.hash_password, players.password_matches

    def hashing(password):                                       # noqa: ANN001, ANN202
        threads.append(threading.current_thread().name)
        return hash_password(password)

    def matching(digest, password):                              # noqa: ANN001, ANN202
        threads.append(threading.current_thread().name)
        return password_matches(digest, password)

    monkeypatch.setattr(players, "hash_password", hashing)
    monkeypatch.setattr(players, "password_matches", matching)
    reactor = ThreadedClock()
    room = build_room(None, None, str(tmp_path), reactor=reactor)
    room.startService()
    desk = room.password_desk
    try:
        assert desk.own.pool.started
        session = room.gateway.connected(Connection(), "192.0.2.1")
        answers: list = []
        answer = room.gateway.handle(session, parse_request({"type": "register", "rid": 1, "nickname": "anna",
                                                             "password": "x" * 8, "birth_date": "1990-01-01",
                                                             "country": "NL"}))
        assert not isinstance(answer, dict), answer
        answer.addCallback(answers.append)
        reactor.until(lambda: answers)
        room.gateway.handle(session, parse_request({"type": "login", "rid": 2, "nickname": "anna",
                                                    "password": "x" * 8})).addCallback(answers.append)
        reactor.until(lambda: len(answers) == 2)
        assert [a["ok"] for a in answers] == [True, True], answers
        assert len(threads) == 2 and all("pokerroom-passwords" in name for name in threads), threads
    finally:
        stopped: list = []
        room.stopService().addBoth(stopped.append)
        reactor.until(lambda: stopped)
    assert not desk.own.pool.started and not room.running                # stopped with the room, in its lifecycle


def test_a_login_hashes_on_the_desk_the_room_was_composed_with_and_the_built_room_has_a_bounded_pool(store, tmp_path):
    """Issue 35: the desk is chosen once, when the room is composed; the login's hash goes to that desk's pool."""
    from pokerroom.app import build_room

    pool = HeldPool()
    room = make_room(store, Clock(), held_desk(pool, threads=1, queue=0, per_network=1))
    answer = login(room, room.gateway.connected(Connection(), "192.0.2.1"), 1)
    assert outcome(answer) == "waiting" and len(pool.jobs) == 1      # the hash waits on the composed desk's pool
    assert pool.jobs[0][1] in (players.hash_password, players.password_matches)     # an unknown name hashes too
    built = build_room(None, None, str(tmp_path / "built"), reactor=Clock())
    rules = built.account_rules
    assert built.password_desk.own.pool is not None and built.password_desk.own.pool.name == "pokerroom-passwords"
    assert built.password_desk.capacity == rules.password_threads + rules.password_queue
    assert (built.password_desk.own.pool.min, built.password_desk.own.pool.max) == (1, rules.password_threads)
