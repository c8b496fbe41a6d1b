"""A real room with casino tables on a real port, its casino time driven from standard input.

    python -m tests.net.casino_run DIR

Builds the room with :func:`pokerroom.app.build_room` from ``DIR/room.toml``
(store: SQLite in ``DIR/data``; demo rules: a welcome balance), with the
casino tables' timers on a :class:`twisted.internet.task.Clock`, while the
sockets and the store's writer run on the real reactor. Prints the room's
``ws://`` URL as one line, then answers one line per command it reads:

``advance SECONDS``
    ``clock.advance(SECONDS)`` on the reactor thread; answers ``ok NOW``
    (the clock's time) once every write it caused has landed. As with any
    ``Clock``, a timer set while the clock advances counts from the new time:
    one ``advance``, however long, moves each table on by one step.
``gone PLAYER``
    answers ``ok`` once the room has seen PLAYER's connection close (the
    casino floor has been told of the disconnection).

Anything else is answered ``error ...``. The room logs to standard error;
end of input stops it.
"""

from __future__ import annotations

import sys
from pathlib import Path

from twisted.internet import defer, reactor, stdio, task
from twisted.logger import (
    FilteringLogObserver,
    LogLevel,
    LogLevelFilterPredicate,
    globalLogBeginner,
    textFileLogObserver,
)
from twisted.protocols.basic import LineReceiver

from pokerroom.app import build_room
from pokerroom.bus.records import SessionGone
from pokerroom.bus.subjects import SESSION_EVENTS
from pokerroom.gateway.limits import own_origins
from pokerroom.gateway.server import build_site


class Commands(LineReceiver):
    delimiter = b"\n"

    def __init__(self, room, clock: task.Clock) -> None:    # noqa: ANN001
        self.room = room
        self.clock = clock
        self.gone: set[str] = set()
        self.waiting: dict[str, list[defer.Deferred]] = {}
        room.bus.subscribe(SESSION_EVENTS, self._session_event)     # after the floor's own

    def _session_event(self, subject: str, event) -> None:   # noqa: ANN001
        player = event.player
        if not isinstance(event, SessionGone):
            self.gone.discard(player)
            return
        if player is None:
            return
        self.gone.add(player)
        for d in self.waiting.pop(player, []):
            d.callback(None)

    def _answer(self, text: str) -> None:
        self.transport.write(text.encode() + b"\n")

    def lineReceived(self, line: bytes) -> None:              # noqa: N802 - Twisted's name
        words = line.decode().split()
        try:
            if words[:1] == ["advance"] and len(words) == 2:
                self.clock.advance(float(words[1]))
                self.room.recorder.flushed().addCallback(lambda _: self._answer(f"ok {self.clock.seconds()!r}"))
            elif words[:1] == ["gone"] and len(words) == 2:
                player = words[1]
                if player in self.gone:
                    self.gone.discard(player)
                    self._answer("ok")
                else:
                    d: defer.Deferred = defer.Deferred()
                    d.addCallback(lambda _: (self.gone.discard(player), self._answer("ok")))
                    self.waiting.setdefault(player, []).append(d)
            else:
                self._answer(f"error unknown command {line.decode()!r}")
        except Exception as e:                                # a bad command is answered, never fatal
            self._answer(f"error {type(e).__name__}: {e}")

    def connectionLost(self, reason) -> None:                 # noqa: ANN001, N802
        if reactor.running:
            reactor.stop()


def main() -> None:
    directory = Path(sys.argv[1])
    observer = FilteringLogObserver(textFileLogObserver(sys.stderr), [LogLevelFilterPredicate(LogLevel.info)])
    globalLogBeginner.beginLoggingTo([observer], redirectStandardIO=False)
    clock = task.Clock()
    room = build_room(str(directory / "room.toml"), None, str(directory / "data"), reactor, demo=True,
                      casino_clock=clock)
    room.startService()                                 # the writer, and the logins' hashes on the desk's threads
    reactor.addSystemEventTrigger("before", "shutdown", room.stopService)
    site = build_site(room.gateway, reactor, None, tables=lambda: len(room.tables.runners), demo=True, rate=1000.0,
                      burst=1000.0)
    port = reactor.listenTCP(0, site, interface="127.0.0.1")
    site.room_factory.allowed_origins = own_origins("127.0.0.1", port.getHost().port)   # its pages' sockets too
    print(f"ws://127.0.0.1:{port.getHost().port}/ws", flush=True)
    stdio.StandardIO(Commands(room, clock))
    reactor.run()


if __name__ == "__main__":
    main()
