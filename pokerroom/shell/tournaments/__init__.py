"""The tournament hall: the Twisted shell of the pure :mod:`tournament` directors (clock, timers, ledger, pushes)."""

from pokerroom.shell.tournaments.decisions import BankRefill
from pokerroom.shell.tournaments.hall import TournamentHall
from pokerroom.shell.tournaments.invitations import InvitationDesk

__all__ = ["BankRefill", "InvitationDesk", "TournamentHall"]
