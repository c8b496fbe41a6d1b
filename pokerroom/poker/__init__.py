"""The pure hand engine: variants, betting, pots, showdown, events and their redaction.

Start a hand with :class:`Hand` (``Hand(HandSetup(...), deck)``), ask it
:meth:`Hand.legal_actions`, feed it commands with :meth:`Hand.apply` and
:meth:`Hand.timeout`, and send each event through :func:`redact` before it
leaves the core. See ``docs/engine.md``.
"""

from pokerroom.errors import RuleViolation
from pokerroom.poker.actions import Action, Bet, Call, Check, Fold, LegalActions, Raise, RunItTwice
from pokerroom.poker.hand import Hand
from pokerroom.poker.hand_setup import BlindSeats, HandSetup, Post, Seat, standard_blind_seats
from pokerroom.poker.rake import RakeSchedule
from pokerroom.poker.redact import Viewer, redact
from pokerroom.poker.variants import FLHE, NLHE, PLO, PLO5, VARIANTS, Stakes, Variant

__all__ = [
    "FLHE", "NLHE", "PLO", "PLO5", "VARIANTS",
    "Action", "Bet", "BlindSeats", "Call", "Check", "Fold", "Hand", "HandSetup", "LegalActions", "Post",
    "Raise", "RakeSchedule", "RuleViolation", "RunItTwice", "Seat", "Stakes", "Variant", "Viewer",
    "redact", "standard_blind_seats",
]
