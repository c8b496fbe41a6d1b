"""A client's session as the gateway keeps it, and what it forwards to it from the bus.

The gateway forwards and never redacts: a :class:`Delivery` arrives already
made for an audience (a table's observers, or one player), and a session
subscribes only to the subjects its viewer may read -- a table's public
stream while watching it, its own player's stream while signed in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

NOBODY: frozenset[str] = frozenset()


class Connection(Protocol):
    """What a session needs of a connection. It may also have ``identity_began()``, called when a player logs in
    or resumes on it (the edge counts it among the anonymous no more), and ``identity_ended()``, called when the
    player it carried logs out or is ended on it (the edge starts its login deadline again): the gateway's own
    hooks, in its own process, never a bus message."""

    def send(self, message: dict[str, Any]) -> None: ...

    def send_shared(self, shared: dict[str, Any], extra: dict[str, Any] | None = None) -> None:
        """Send ``shared["message"]`` with ``extra``'s keys; encodings made for it are cached in ``shared``."""

    def close(self, code: int, reason: str) -> None: ...


class Delivery:
    """One frame for one audience, encoded once per subprotocol for everyone it reaches.

    ``shared`` is ``{"message": …}``, and the codecs cache their bytes in it;
    ``extra`` keys are added for this audience only (a decision's ``legal``);
    ``instead`` names players who get a frame of their own in place of this one
    (their own hole cards, their decision).
    """

    __slots__ = ("shared", "extra", "instead")

    def __init__(self, shared: dict[str, Any], extra: dict[str, Any] | None = None,
                 instead: frozenset[str] = NOBODY) -> None:
        self.shared, self.extra, self.instead = shared, extra, instead

    @classmethod
    def of(cls, message: dict[str, Any]) -> Delivery:
        return cls({"message": message})


@dataclass(eq=False)
class Session:
    """A logged-in player (or an anonymous connection while ``player_id`` is None): who is on a connection.

    What a service keeps about a player or a connection (a reminder, a stored
    connection record, chat pacing) it keeps itself, keyed by the player or
    by ``id``, and learns of a session's end from the bus's session events.
    """

    connection: Connection | None
    id: str = ""                                            # unique in the room: the gateway names each connection
    epoch: int = 0                                          # the login or resume it carries (SessionBack.epoch)
    player_id: str | None = None
    token: str | None = None                                # in memory only: the store keeps its hash (STAFF-3)
    role: str = "player"
    client_type: str = "desktop"
    country: str = ""
    excluded_until: float | None = None
    deposit_limit: int | None = None
    logged_in_at: float = 0.0
    ip: str = ""
    device: str | None = None                               # the client's own device id, if it sends one
    tables: set[str] = field(default_factory=set)          # observing or seated
    lobby: bool = False
    streams: dict[str, Any] = field(default_factory=dict)  # subject -> its bus subscription, while connected

    def push(self, message: dict[str, Any]) -> None:
        if self.connection is not None:
            self.connection.send(message)

    def push_shared(self, shared: dict[str, Any], extra: dict[str, Any] | None = None) -> None:
        """Send ``shared["message"]`` (with ``extra``'s keys), encoded and framed once per subprotocol for everyone
        it goes to."""
        if self.connection is not None:
            self.connection.send_shared(shared, extra)

    def deliver(self, subject: str, delivery: Delivery) -> None:
        """A bus handler: forward the frame, unless this player gets one of their own instead."""
        if delivery.instead and self.player_id in delivery.instead:
            return
        connection = self.connection
        if connection is not None:
            connection.send_shared(delivery.shared, delivery.extra)
