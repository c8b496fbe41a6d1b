"""Where else a player is in play, asked on the bus: the casino floor's open bets, the tournament hall's entries.

A promotion to staff (SEC-2) and a rename (AC-3) wait until a player is out
of play. The cash tables answer ``tables.where``; the floor and the hall are
on the table process's side too, so each answers an
:class:`~pokerroom.bus.records.InPlayRead` on a subject of its own
(``casino.playing``, ``tournaments.playing``) with True or False, and the
desks on the gateway's side ask instead of calling them -- every node, each
for its own tables and events (a gathered read): in play on any is in play.
"""

from __future__ import annotations

from collections.abc import Callable

from twisted.internet import defer
from twisted.python.failure import Failure

from pokerroom.bus import Bus, NoResponder, Subscription
from pokerroom.bus.records import InPlayRead
from pokerroom.errors import RuleViolation
from pokerroom.shell.every_node import answer_every_gather, any_yes, ask_every_node


def answer_in_play(bus: Bus, subject: str, playing: Callable[[str], bool]) -> Subscription:
    """Answer ``subject`` with ``playing(player)`` for each :class:`InPlayRead`; anything else is refused."""

    def answer(read: object) -> bool:
        if not isinstance(read, InPlayRead):
            raise RuleViolation("unknown_read", f"{subject} answers whether a player is in play, not "
                                                f"{type(read).__name__}")
        return bool(playing(read.player))

    return answer_every_gather(bus, subject, answer)      # each node for its own tables and events


def ask_in_play(bus: Bus, subject: str, player: str, *, absent: bool | None = None) -> defer.Deferred:
    """Fires with whether ``player`` is in play where ``subject`` is answered. ``absent`` (when given) is the
    answer when nobody answers it: a room without that service has nobody in play there."""
    asked = ask_every_node(bus, subject, InPlayRead(player), any_yes, whole=True)   # in play on any node: a
                                                    # decision's read, so a silent node fails it (node_unanswered)
    if absent is None:
        return asked

    def unanswered(failure: Failure) -> bool | None:
        failure.trap(NoResponder)
        return absent

    return asked.addErrback(unanswered)
