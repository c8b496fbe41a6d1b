"""A migrated, empty database per test: SQLite in a temporary directory, and the machine's PostgreSQL.

PostgreSQL is found at ``POKERROOM_TEST_POSTGRES`` (default: the local server,
trust auth). Without it the PostgreSQL half skips -- except under ``CI=true``,
where it must run.
"""

from __future__ import annotations

import pytest

from pokerroom.store.db import make_engine, migrate, sqlite_url
from pokerroom.store.room_store import RoomStore
from tests.support.databases import postgres_database


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request, tmp_path):
    if request.param == "sqlite":
        engine = make_engine(sqlite_url(tmp_path))
        migrate(engine)
        yield engine
        engine.dispose()
        return
    with postgres_database() as url:
        engine = make_engine(url)
        try:
            migrate(engine)
            yield engine
        finally:
            engine.dispose()


@pytest.fixture
def store(engine):
    return RoomStore(engine)
