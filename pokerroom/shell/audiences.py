"""The one redaction interface: a batch of a table's events as each audience may see it, made once.

Every kind of table -- cash (:mod:`pokerroom.shell.table_host`), tournament
(:mod:`pokerroom.shell.tournaments.feed`), casino
(:mod:`pokerroom.shell.casino_floor`) -- turns a batch of its events into
:class:`Audiences` with its own game's redaction, where the events are made,
and :func:`publish` sends them: the public frame once on the table's public
stream, for its observers; and to each seated player, on their seat's stream
(:func:`~pokerroom.bus.subjects.table_seat`), every frame of the table -- the
public one, or their own where their view differs -- so one subject carries
all a seated player sees of a table, in the table's order, whatever the bus
does across subjects. The gateway encodes each frame once per subprotocol for
all its viewers, forwards it, and never sees a card its viewer may not see.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pokerroom.bus import Bus
from pokerroom.bus.records import Frame
from pokerroom.bus.subjects import player_stream
from pokerroom.protocol.codec import pack_with_packed_list

_new = object.__new__
_set_message, _set_packed = Frame.message.__set__, Frame.packed.__set__      # type: ignore[attr-defined]
_set_extra, _set_instead = Frame.extra.__set__, Frame.instead.__set__        # type: ignore[attr-defined]


def _frame(message: dict, packed: bytes | None, extra: dict | None = None, instead: tuple[str, ...] = ()) -> Frame:
    """A :class:`Frame` made through its slots: a frozen dataclass's ``__init__`` sets each field through
    ``object.__setattr__``, at twice the cost, and a table makes two or three frames for every action."""
    frame = _new(Frame)
    _set_message(frame, message)
    _set_packed(frame, packed)
    _set_extra(frame, extra)
    _set_instead(frame, instead)
    return frame


@dataclass(slots=True)
class Audiences:
    public: list[dict]                                          # what anyone watching the table may see
    own: dict[str, list[dict]] = field(default_factory=dict)    # player -> the batch as only they may see it
    extra: dict[str, dict[str, Any]] = field(default_factory=dict)   # player -> keys only they get (``legal``)
    public_packed: list[bytes] | None = None                    # the public events already packed, if they are
    own_packed: dict[str, list[bytes]] = field(default_factory=dict)  # player -> their batch packed, if it is

    def frames(self, head: dict[str, Any], key: str, seated: tuple[str, ...] = ()) -> tuple[Frame, Frame,
                                                                                          dict[str, Frame]]:
        """The public frame ``head + {key: public}`` (for observers: ``instead`` names ``seated`` and every player
        with a frame of their own), the same frame for a seated player who has none of their own, and each
        player's own frame (their events, or the public ones with their ``extra`` keys)."""
        message = {**head, key: self.public}
        packed = pack_with_packed_list(head, key, self.public_packed) if self.public_packed is not None else None
        own: dict[str, Frame] = {}
        if not self.own:                                        # nearly every action's: at most a ``legal``
            for player, extra in self.extra.items():
                own[player] = _frame(message, packed, extra)
            return _frame(message, packed, None, _instead(seated, own)), _frame(message, packed), own
        for player, events in self.own.items():
            extra = self.extra.get(player, {})
            mine = self.own_packed.get(player)                  # their own events are packed already too
            own[player] = _frame(dict(head, **{key: events}, **extra),
                                 None if mine is None else pack_with_packed_list(dict(head, **extra), key, mine))
        for player, extra in self.extra.items():
            if player not in own:
                own[player] = _frame(message, packed, extra)
        return _frame(message, packed, None, _instead(seated, own)), _frame(message, packed), own


def _instead(seated: tuple[str, ...], own: dict[str, Frame]) -> tuple[str, ...]:
    """Who hears the table elsewhere than the public frame: the seated, and anyone else with a frame of their own."""
    if not own:
        return seated
    unseated = tuple(p for p in own if p not in seated)
    return seated + unseated if unseated else seated


Seats = tuple[tuple[str, str], ...]          # (player, the subject they hear the table on), for each seated player


def publish(bus: Bus, subject: str, head: dict[str, Any], key: str, audiences: Audiences, seated: tuple[str, ...] = (),
            seats: Seats | None = None) -> None:
    """The public frame on ``subject``, for observers; each of ``seated`` gets the table whole -- the public frames
    and their own -- on their seat's stream (``seats``: each player's subject, in the order of ``seated``), so
    their frames keep the table's order on any bus. Without seat streams (a tournament, whose players hear it on
    their own stream) a player's own frame goes to their player stream."""
    public, everyone, own = audiences.frames(head, key, seated)
    send = bus.publish
    shown = bool(audiences.public)
    if shown:
        send(subject, public)
    if seats is None:
        for player, frame in own.items():
            send(player_stream(player), frame)
        return
    if not own:
        if shown:
            for _, stream in seats:
                send(stream, everyone)
        return
    for player, stream in seats:
        frame = own.get(player, everyone if shown else None)
        if frame is not None:
            send(stream, frame)
    for player, frame in own.items():
        if player not in seated:                            # a bet's payout to a casino player who left
            send(player_stream(player), frame)


def announce(bus: Bus, subject: str, message: dict[str, Any], seated: tuple[str, ...] = (),
             seats: Seats = ()) -> None:
    """A frame for everyone at a table (a chat line, its closing): on ``subject`` for observers, and on each seated
    player's stream, in its place among the table's frames."""
    bus.publish(subject, _frame(message, None, None, seated))
    if seats:
        everyone = _frame(message, None)
        for _, stream in seats:
            bus.publish(stream, everyone)


@dataclass(frozen=True, slots=True)
class Told:
    """A message told whole, not a table's batch (a tournament's level, bust or prize): on the public stream for its
    subscribers -- but ``instead`` of those who hear it on their own stream -- and to each of ``players`` on theirs."""

    players: tuple[str, ...] | frozenset[str]
    instead: tuple[str, ...] = ()


def tell(bus: Bus, subject: str, message: dict, told: Told) -> None:
    """``message`` on ``subject`` for its subscribers and on each of ``told.players``' own streams, encoded once."""
    bus.publish(subject, Frame(message, None, None, told.instead))
    everyone = Frame(message)
    for player in told.players:
        bus.publish(player_stream(player), everyone)
