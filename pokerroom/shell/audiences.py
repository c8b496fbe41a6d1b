"""The one redaction interface: a batch of a table's events as each audience may see it, made once.

Every kind of table -- cash (:mod:`pokerroom.shell.table_host`), tournament
(:mod:`pokerroom.shell.tournaments.feed`), casino
(:mod:`pokerroom.shell.casino_floor`) -- turns a batch of its events into
:class:`Audiences` with its own game's redaction, where the events are made,
and :func:`publish` sends them: the public frame once on the table's public
stream (encoded once for every watcher), and each player whose view differs
their own frame on their player stream, in its place. The gateway forwards
frames and never sees a card its viewer may not see.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pokerroom.bus import Bus
from pokerroom.bus.subjects import player_stream
from pokerroom.gateway.sessions import Delivery
from pokerroom.protocol.codec import MSGPACK, pack_with_packed_list


@dataclass(slots=True)
class Audiences:
    public: list[dict]                                          # what anyone watching the table may see
    own: dict[str, list[dict]] = field(default_factory=dict)    # player -> the batch as only they may see it
    extra: dict[str, dict[str, Any]] = field(default_factory=dict)   # player -> keys only they get (``legal``)
    public_packed: list[bytes] | None = None                    # the public events already packed, if they are
    own_packed: dict[str, list[bytes]] = field(default_factory=dict)  # player -> their batch packed, if it is

    def deliveries(self, head: dict[str, Any], key: str) -> tuple[Delivery, dict[str, Delivery]]:
        """The public frame ``head + {key: public}`` and the frames of the players who get their own instead."""
        shared: dict[str, Any] = {"message": dict(head, **{key: self.public})}
        if self.public_packed is not None:
            shared["encoded"] = {MSGPACK: pack_with_packed_list(head, key, self.public_packed)}
        private: dict[str, Delivery] = {}
        for player, events in self.own.items():
            extra = self.extra.get(player, {})
            own: dict[str, Any] = {"message": dict(head, **{key: events}, **extra)}
            packed = self.own_packed.get(player)
            if packed is not None:                              # their own events are packed already too
                own["encoded"] = {MSGPACK: pack_with_packed_list(dict(head, **extra), key, packed)}
            private[player] = Delivery(own)
        for player, extra in self.extra.items():
            if player not in private:
                private[player] = Delivery(shared, extra)
        return Delivery(shared, instead=frozenset(private)), private


def publish(bus: Bus, subject: str, head: dict[str, Any], key: str, audiences: Audiences) -> None:
    """The public frame on ``subject``; each player's own frame on their stream."""
    public, private = audiences.deliveries(head, key)
    if audiences.public:
        bus.publish(subject, public)
    for player, delivery in private.items():
        bus.publish(player_stream(player), delivery)
