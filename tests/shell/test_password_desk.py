"""The password desk: a bounded queue, a share per network, networks served in turn, ``busy`` at once when full."""

from __future__ import annotations

import pytest
from twisted.python.failure import Failure

from pokerroom.errors import RuleViolation
from pokerroom.shell.password_desk import PasswordDesk
from pokerroom.shell.throttle import network_of


class HeldPool:
    """A thread pool that runs nothing until the test says so."""

    def __init__(self) -> None:
        self.jobs: list = []

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


def desk(**limits) -> tuple[PasswordDesk, HeldPool]:
    pool = HeldPool()
    return PasswordDesk(Immediate(), pool=pool, **limits), pool


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
