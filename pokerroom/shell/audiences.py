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
from typing import Any, Protocol

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


class Redaction(Protocol):
    """What a table of any game does with a batch of its events before anyone sees them."""

    def audiences(self, events: list) -> Audiences | None: ...


def publish(bus: Bus, subject: str, head: dict[str, Any], key: str, audiences: Audiences) -> None:
    """The public frame ``head + {key: public}`` on ``subject``; each player's own frame on their stream."""
    shared: dict[str, Any] = {"message": dict(head, **{key: audiences.public})}
    if audiences.public_packed is not None:
        shared["encoded"] = {MSGPACK: pack_with_packed_list(head, key, audiences.public_packed)}
    private: dict[str, Delivery] = {}
    for player, events in audiences.own.items():
        private[player] = Delivery.of(dict(head, **{key: events}, **audiences.extra.get(player, {})))
    for player, extra in audiences.extra.items():
        if player not in private:
            private[player] = Delivery(shared, extra)
    if audiences.public:
        bus.publish(subject, Delivery(shared, instead=frozenset(private)))
    for player, delivery in private.items():
        bus.publish(player_stream(player), delivery)
