"""One bus subscription per watched subject in this process, and its frame written to every local viewer in one loop.

A table's public stream (and a casino table's, a tournament's, the lobby's)
goes to every session of this process that watches it. Subscribing each
session on its own made the bus call a handler per session for every frame --
and most of those calls did nothing, for the seated players, whom a public
frame names in ``instead`` (they hear the table on their seat's stream). Here
a subject has one subscription, a :class:`Fanout`, holding the sessions that
watch it; a frame is forwarded to them in one pass, its bytes made once per
subprotocol (:mod:`pokerroom.gateway.frame_bytes`). A session's own streams --
its seat at a table, its player's -- stay subscriptions of its own: they carry
what only that viewer may see.
"""

from __future__ import annotations

from typing import Any

from pokerroom.bus import Bus
from pokerroom.bus.records import Frame
from pokerroom.gateway.sessions import Session


class Fanout:
    """The sessions of this process that watch ``subject``, behind one bus subscription."""

    __slots__ = ("subject", "fanouts", "members", "order", "subscription")

    def __init__(self, bus: Bus, subject: str, fanouts: dict[str, Fanout]) -> None:
        self.subject = subject
        self.fanouts = fanouts                          # every fanout of the gateway: this one leaves when empty
        self.members: dict[Session, Membership] = {}
        self.order: tuple[Session, ...] | None = ()     # the members as a tuple a frame loops over; None: remade
        self.subscription = bus.subscribe(subject, self.deliver)

    def join(self, session: Session) -> Membership:
        membership = self.members.get(session)
        if membership is None:
            membership = self.members[session] = Membership(self, session)
            self.order = None                           # remade by the next frame: 5,000 logins are not 5,000 copies
        return membership

    def leave(self, session: Session) -> None:
        if self.members.pop(session, None) is not None:
            self.order = None
            if not self.members:
                self.subscription.cancel()
                if self.fanouts.get(self.subject) is self:
                    del self.fanouts[self.subject]

    def deliver(self, subject: str, frame: Frame) -> None:
        """The bus's handler: ``frame`` to each member, but those it names ``instead`` and those whose table is being
        caught up (it waits for them in ``held``, :meth:`~pokerroom.gateway.routes.Gateway.hold`)."""
        instead = frame.instead
        members = self.members
        order = self.order
        if order is None:
            order = self.order = tuple(members)
        for session in order:
            if instead and session.player_id in instead:
                continue
            held = session.held
            if held and subject in held:
                held[subject].append(frame)
                continue
            connection = session.connection
            if connection is not None and session in members:   # not one that left while this frame went round
                connection.send_frame(frame)


class Membership:
    """A session's place in a :class:`Fanout`: what its ``streams`` keep for the subject, cancelled as a
    subscription is."""

    __slots__ = ("fanout", "session")

    def __init__(self, fanout: Fanout, session: Session) -> None:
        self.fanout, self.session = fanout, session

    def cancel(self) -> None:
        self.fanout.leave(self.session)


def join(bus: Bus, fanouts: dict[str, Fanout], subject: str, session: Session) -> Any:
    """``session`` among the viewers of ``subject`` in this process: its membership (``cancel()`` leaves)."""
    fanout = fanouts.get(subject)
    if fanout is None:
        fanout = fanouts[subject] = Fanout(bus, subject, fanouts)
    return fanout.join(session)
