"""The lobby feed: the list of tables, and an update of the ones that changed at most once a second.

Table hosts send each changed lobby line whole on :data:`LOBBY_CHANGED` (a
:class:`~pokerroom.bus.records.LobbyLine`; its ``line`` None once the table
has left the room). The feed keeps its own copy of the lines -- it reads
nothing of a table host, which may live in another process -- gathers the
changes and publishes one ``lobby_update`` on :data:`LOBBY_UPDATE`, encoded
once for every subscriber. A service on the table side sends another section
of the list whole on :data:`LOBBY_SECTION` (a
:class:`~pokerroom.bus.records.LobbySection`: the casino tables), and the
feed keeps that copy too. A feed in a gateway process that starts after the tables' process
:meth:`asks <LobbyFeed.ask>` for the lines on :data:`LOBBY_WANTED`: the table side sends each again, not as news.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from twisted.internet.interfaces import IReactorTime

from pokerroom.bus import Bus
from pokerroom.bus.records import Frame, LobbyLine, LobbySection
from pokerroom.bus.subjects import LOBBY_CHANGED, LOBBY_SECTION, LOBBY_UPDATE, LOBBY_WANTED
from pokerroom.protocol.schema import Request, ok

LOBBY_EVERY = 1.0                   # seconds between lobby updates at most


class LobbyFeed:
    def __init__(self, reactor: IReactorTime, bus: Bus, follow: Callable[[Any, bool], None]) -> None:
        self.reactor = reactor
        self.bus = bus
        self.lines: dict[str, dict] = {}        # table -> its lobby line, as its host last sent it
        self.follow = follow                    # (session, on): the gateway sends it lobby updates, or stops
        self.sections: dict[str, Callable[[], list]] = {}   # name -> its lines as last sent (lobby.section)
        self._dirty: set[str] = set()
        self._call: Any = None
        bus.subscribe(LOBBY_CHANGED, self._changed)
        bus.subscribe(LOBBY_SECTION, self._section)

    def ask(self) -> None:
        """At a gateway process's start: every table side sends its lines again (those it sent at its own start
        were before this feed listened)."""
        self.bus.publish(LOBBY_WANTED, None)

    def _section(self, subject: str, section: LobbySection) -> None:
        """A section as its service sent it last: ``lobby_list`` answers this copy."""
        self.sections[section.name] = partial(list, section.lines)

    def _on_lobby_list(self, session: Any, request: Request) -> dict:
        return ok(request, tables=list(self.lines.values()),
                  **{name: section() for name, section in self.sections.items()})

    def _on_lobby_subscribe(self, session: Any, request: Request, on: bool) -> dict:
        """Lobby subscribers get a ``lobby_update`` of the tables that changed, at most once a second."""
        self.follow(session, on)
        return ok(request)

    def _changed(self, subject: str, change: LobbyLine) -> None:
        table_id = change.table
        if change.line is None:
            self.lines.pop(table_id, None)
        else:
            self.lines[table_id] = change.line
        if not change.news:
            return
        self._dirty.add(table_id)
        if self._call is None:
            self._call = self.reactor.callLater(LOBBY_EVERY, self._update)

    def _update(self) -> None:
        self._call = None
        changed, self._dirty = sorted(self._dirty), set()
        lines = self.lines
        message = {"type": "lobby_update", "tables": [lines[t] for t in changed if t in lines]}
        closed = [t for t in changed if t not in lines]
        if closed:
            message["closed"] = closed                  # tables that left the room since the last update
        self.bus.publish(LOBBY_UPDATE, Frame.of(message))
