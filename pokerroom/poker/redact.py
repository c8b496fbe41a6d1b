"""What each viewer may see of a hand's events: one function, three rules.

1. Hole cards (:class:`HoleCardsDealt`, :class:`HandMucked`) reach only the
   seat they were dealt to; everyone else gets the event with ``cards=()``.
   Shown and exposed hands (:class:`HandShown`, :class:`CardsExposed`) are
   public (SEC-2).
2. The deck order (:class:`DeckRevealed`) reaches no client, ever; ``redact``
   returns None for it (HR-RNG-2).
3. The security team sees what an observer sees while the hand runs, and
   everything -- all hole cards and the deck -- once it has ended
   (``hand_ended=True``, e.g. when reading the stored history) (SEC-2).

Everything else is public.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pokerroom.poker.events import EVENT_TYPES, DeckRevealed, Event, HandMucked, HoleCardsDealt

PLAYER = "player"
OBSERVER = "observer"
SECURITY = "security"


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: a seated player (with their seat), an observer, or the security team."""

    kind: str
    seat: int | None = None

    @classmethod
    def player(cls, seat: int) -> Viewer:
        return cls(PLAYER, seat)

    @classmethod
    def observer(cls) -> Viewer:
        return cls(OBSERVER)

    @classmethod
    def security(cls) -> Viewer:
        return cls(SECURITY)


def redact(event: Event, viewer: Viewer, *, hand_ended: bool = False) -> Event | None:
    """The event as ``viewer`` may see it, or None when they may not see it at all."""
    cls = type(event)
    if cls in PUBLIC:                           # nearly every event: seen as it is, looked at no further
        return event
    full_view = viewer.kind == SECURITY and hand_ended
    if isinstance(event, DeckRevealed):
        return event if full_view else None
    if isinstance(event, HoleCardsDealt | HandMucked):
        if full_view or (viewer.kind == PLAYER and viewer.seat == event.seat):
            return event
        if cls is HoleCardsDealt or cls is HandMucked:
            return cls(event.seq, event.seat, ())
        return replace(event, cards=())
    return event


PUBLIC = frozenset(EVENT_TYPES.values()) - {DeckRevealed, HoleCardsDealt, HandMucked}   # every viewer's, whole
