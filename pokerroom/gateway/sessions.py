"""A client's session as the gateway keeps it, and what it forwards to it from the bus.

The gateway forwards and never redacts: a :class:`~pokerroom.bus.records.Frame`
arrives already made for an audience (a table's observers, or one seated
player), and a session subscribes only to the subjects its viewer may read --
a table's public stream and its own seat's stream while watching it, its own
player's stream while signed in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from pokerroom.bus.records import Frame


class Connection(Protocol):
    """What a session needs of a connection. It may also have ``identity_began()``, called when a player logs in
    or resumes on it (the edge counts it among the anonymous no more), and ``identity_ended()``, called when the
    player it carried logs out or is ended on it (the edge starts its login deadline again): the gateway's own
    hooks, in its own process, never a bus message."""

    def send(self, message: dict[str, Any]) -> None: ...

    def send_frame(self, frame: Frame) -> None:
        """Send ``frame.message`` with ``frame.extra``'s keys, encoded once per subprotocol for all its viewers (the
        connection's side keeps those bytes: the frame is never written into)."""

    def close(self, code: int, reason: str) -> None: ...


@dataclass(eq=False, slots=True)
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
    excluded_until: float | None = None                     # what the may-play check reads (deposits read the store)
    logged_in_at: float = 0.0
    ip: str = ""
    device: str | None = None                               # the client's own device id, if it sends one
    tables: set[str] = field(default_factory=set)          # observing or seated
    lobby: bool = False
    streams: dict[str, Any] = field(default_factory=dict)  # subject -> its bus subscription, while connected
    held: dict[str, list[Frame]] = field(default_factory=dict)  # subject -> frames come while its table catches up

    def push(self, message: dict[str, Any]) -> None:
        if self.connection is not None:
            self.connection.send(message)

    def push_frame(self, frame: Frame) -> None:
        """Send a frame made for many (a table's missed frames on a resume), encoded once per subprotocol."""
        if self.connection is not None:
            self.connection.send_frame(frame)

    def deliver(self, subject: str, frame: Frame) -> None:
        """A bus handler: forward the frame, unless this player gets the table on their seat's stream instead."""
        if frame.instead and self.player_id in frame.instead:
            return
        if self.held and subject in self.held:             # after the catch-up, those it did not carry
            self.held[subject].append(frame)
            return
        connection = self.connection
        if connection is not None:
            connection.send_frame(frame)
