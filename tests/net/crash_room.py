"""A room killed with SIGKILL the moment a client is shown an outcome, then started again on the same data.

:class:`CrashRoom` runs ``pokerroom serve`` on SQLite (its data directory) or on a PostgreSQL database
(``--database``), kills it as soon as a predicate holds for a push a client received -- the frame has only just
reached the client, so the server has done nothing the client has not seen -- and checks the restarted room the
way an operator does: ``pokerroom ledger check`` and ``pokerroom audit verify``.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from pathlib import Path

from pokerroom.cli import main as pokerroom
from pokerroom.store.db import make_engine, sqlite_url
from pokerroom.store.room_store import RoomStore
from tests.net.server_process import Player, Server
from tests.support.databases import postgres_database

DATABASES = ("sqlite", "postgresql")

Push = dict


class CrashRoom:
    def __init__(self, tmp: Path, database: str | None, config: str | None = None) -> None:
        """``config``: the room.toml text (None: the fast test room of :mod:`tests.net.server_process`)."""
        if config is not None:
            (tmp / "room.toml").write_text(config)
        self.tmp = tmp
        self.database = database
        self.server: Server | None = None
        self._store: RoomStore | None = None

    @property
    def _where(self) -> list[str]:
        return ["--database", self.database] if self.database else ["--data-dir", str(self.tmp / "data")]

    def start(self) -> Server:
        self.server = Server(self.tmp, *(["--database", self.database] if self.database else [])).start()
        Player(self.server.url).close()     # the reactor runs: a SIGINT before it would wait out stop()'s 10 s
        return self.server

    def store(self) -> RoomStore:
        """The room's database, read as the restarted room reads it."""
        if self._store is None:
            self._store = RoomStore(make_engine(self.database or sqlite_url(self.tmp / "data")))
        return self._store

    def kill_when(self, players: dict[str, Player], shown: Callable[[str, Push], bool],
                  answer: Callable[[str, Player, Push], None] = lambda name, player, push: None,
                  timeout: float = 60) -> tuple[str, Push]:
        """Read every player's pushes (``answer`` plays them) until ``shown(name, push)``; then SIGKILL at once."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for name, player in players.items():
                try:
                    push = player.pushes.pop(0) if player.pushes else player.receive(timeout=0.05)
                except TimeoutError:
                    continue
                if shown(name, push):
                    self.server.kill()
                    return name, push
                answer(name, player, push)
        raise TimeoutError("the outcome was never shown")

    def grant(self, nickname: str, role: str) -> None:
        """``pokerroom role NICKNAME ROLE`` on the room's database, as the operator gives it."""
        said = io.StringIO()
        with redirect_stdout(said):
            assert pokerroom(["role", nickname, role, *self._where]) == 0

    def operator_checks(self) -> None:
        """``pokerroom ledger check`` and ``pokerroom audit verify`` pass on the room's database."""
        for command in (["ledger", "check"], ["audit", "verify"]):
            said = io.StringIO()
            with redirect_stdout(said), redirect_stderr(said):          # the command as the operator types it
                code = pokerroom([*command, *self._where])
            assert code == 0, f"{' '.join(command)}: {said.getvalue()}"

    def close(self) -> None:
        if self.server is not None:
            self.server.stop()
        if self._store is not None:
            self._store.engine.dispose()


@contextmanager
def crash_room(tmp: Path, database: str, config: str | None = None) -> Iterator[CrashRoom]:
    """A :class:`CrashRoom` on ``database`` ("sqlite": in ``tmp``; "postgresql": a new database), closed after."""
    if database == "sqlite":
        room = CrashRoom(tmp, None, config)
        try:
            yield room
        finally:
            room.close()
        return
    with postgres_database() as url:
        room = CrashRoom(tmp, url, config)
        try:
            yield room
        finally:
            room.close()
