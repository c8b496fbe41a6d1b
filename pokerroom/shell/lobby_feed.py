"""The lobby feed: the list of tables, and an update of the ones that changed at most once a second.

Table hosts send each changed lobby line whole on :data:`LOBBY_CHANGED` (a
:class:`~pokerroom.bus.records.LobbyLine`; its ``line`` None once the table
has left the room). The feed keeps its own copy of the lines -- it reads
nothing of a table host, which may live in another process -- gathers the
changes and publishes one ``lobby_update`` on :data:`LOBBY_UPDATE`, encoded
once for every subscriber. A service on the table side sends another section
of the list whole on :data:`LOBBY_SECTION` (a
:class:`~pokerroom.bus.records.LobbySection`: the casino tables), and the
feed keeps that copy too, line by table (several nodes each send the lines of
their own casino tables: each replaces its own lines, not the others').

A node whose feed starts after the other nodes' tables opened has heard none
of their lines: :meth:`LobbyFeed.catch_up` (a step of the room's start) asks
every node for its open tables' lines (``lobby.lines``, and the casino's
``casino.tables``, both gathered reads) and keeps those it has not heard of
since -- a line heard on ``lobby.changed`` meanwhile is newer, and a table
that left the room meanwhile stays gone.
A feed in a gateway process that starts after the tables' process also
:meth:`asks <LobbyFeed.ask>` for the lines on :data:`LOBBY_WANTED`: the table
side sends each again, not as news.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from pokerroom.bus import Bus, NoResponder
from pokerroom.bus.records import Frame, LobbyLine, LobbySection
from pokerroom.bus.subjects import (
    CASINO_TABLES,
    LOBBY_CHANGED,
    LOBBY_LINES,
    LOBBY_SECTION,
    LOBBY_UPDATE,
    LOBBY_WANTED,
)
from pokerroom.protocol.schema import Request, ok
from pokerroom.shell.every_node import ask_every_node

LOBBY_EVERY = 1.0                   # seconds between lobby updates at most


class LobbyFeed:
    log = Logger()

    def __init__(self, reactor: IReactorTime, bus: Bus, follow: Callable[[Any, bool], None]) -> None:
        self.reactor = reactor
        self.bus = bus
        self.lines: dict[str, dict] = {}        # table -> its lobby line, as its host last sent it
        self.follow = follow                    # (session, on): the gateway sends it lobby updates, or stops
        self.sections: dict[str, dict[str, dict]] = {}   # name -> table -> its line as last sent (lobby.section)
        self._heard: set[str] | None = None     # tables heard of while a catch-up is on its way
        self._dirty: set[str] = set()
        self._call: Any = None
        bus.subscribe(LOBBY_CHANGED, self._changed)
        bus.subscribe(LOBBY_SECTION, self._section)

    def ask(self) -> None:
        """At a gateway process's start: every table side sends its lines again (those it sent at its own start
        were before this feed listened)."""
        self.bus.publish(LOBBY_WANTED, None)

    def _section(self, subject: str, section: LobbySection) -> None:
        """A section's lines as its service sent them last (each node's own tables): ``lobby_list`` answers this
        copy."""
        self.sections.setdefault(section.name, {}).update((line["table"], line) for line in section.lines)

    def _on_lobby_list(self, session: Any, request: Request) -> dict:
        return ok(request, tables=list(self.lines.values()),
                  **{name: list(lines.values()) for name, lines in self.sections.items()})

    def catch_up(self) -> defer.Deferred:
        """Every node's open tables' lines, asked once at start, kept where nothing newer was heard; fires once
        they are in (a node that does not answer is only left out, logged by the bus)."""
        self._heard = set()
        cash, casino = (ask_every_node(self.bus, subject, None, list).addErrback(_none)
                        for subject in (LOBBY_LINES, CASINO_TABLES))
        return defer.gatherResults([cash, casino], consumeErrors=True).addCallbacks(self._caught_up, self._not_caught)

    def _caught_up(self, answers: list[list]) -> None:
        heard, self._heard = self._heard or set(), None
        cash, casino = answers
        for lines in cash:
            for change in lines:
                if change.table not in heard and change.line is not None:
                    self.lines.setdefault(change.table, change.line)
        section = self.sections.get("casino", {})
        for lines in casino:
            for line in lines:
                section.setdefault(line["table"], line)
        if section:
            self.sections["casino"] = section

    def _not_caught(self, failure: Any) -> None:
        self._heard = None
        self.log.failure("the lobby could not ask the other nodes for their tables", failure)

    def _on_lobby_subscribe(self, session: Any, request: Request, on: bool) -> dict:
        """Lobby subscribers get a ``lobby_update`` of the tables that changed, at most once a second."""
        self.follow(session, on)
        return ok(request)

    def _changed(self, subject: str, change: LobbyLine) -> None:
        table_id = change.table
        if self._heard is not None:
            self._heard.add(table_id)
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


def _none(failure: Failure) -> list:
    """No node answers (or none answered in time): no lines of it to catch up on."""
    failure.trap(NoResponder)
    return []
