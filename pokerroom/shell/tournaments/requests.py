"""The tournament requests, served on the gateway's side of the process line: they reach the hall only through
:class:`~pokerroom.shell.tournaments.hall_line.HallLine`, so the hall (on the table process's side) holds no
gateway and no may-play check, and the requests hold no hall."""

from __future__ import annotations

from twisted.internet.interfaces import IReactorTime

from pokerroom.bus import Bus
from pokerroom.gateway.routes import Gateway
from pokerroom.shell.chat_conduct import ChatConduct
from pokerroom.shell.play_check import PlayCheck
from pokerroom.shell.recorder import Recorder
from pokerroom.shell.tournaments.chat_requests import TournamentChat
from pokerroom.shell.tournaments.director_requests import DirectorRequests
from pokerroom.shell.tournaments.hall_line import HallLine
from pokerroom.shell.tournaments.invitation_requests import InvitationRequests
from pokerroom.shell.tournaments.player_requests import PlayerRequests
from pokerroom.store.room_store import RoomStore


def serve_tournament_requests(gateway: Gateway, bus: Bus, reactor: IReactorTime, recorder: Recorder,
                              store: RoomStore, play_check: PlayCheck, banned_words: tuple[str, ...],
                              keep_ended_minutes: float, chat: ChatConduct) -> None:
    """The players', the directors', the invitations' and the tables' chat requests, each given the one line to
    the hall (the chat, the checks every table's chat makes: ``chat``)."""
    line = HallLine(bus, keep_ended_minutes)
    PlayerRequests(line, reactor, play_check, gateway).install()
    gateway.serve(DirectorRequests(line, reactor, recorder, store))
    gateway.serve(InvitationRequests(line, recorder, play_check, banned_words))
    gateway.serve(TournamentChat(line, chat))
