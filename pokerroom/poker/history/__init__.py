"""Hand histories built from a finished hand's events: PokerStars text, OHH JSON and PHH (import too).

See ``docs/hand-histories.md``.
"""

from pokerroom.poker.history.ohh import to_ohh
from pokerroom.poker.history.phh import replay_phh, to_phh
from pokerroom.poker.history.pokerstars import TournamentHeader, to_pokerstars
from pokerroom.poker.history.record import Money

__all__ = ["Money", "TournamentHeader", "replay_phh", "to_ohh", "to_phh", "to_pokerstars"]
