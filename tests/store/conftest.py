"""A migrated, empty database per test: SQLite in a temporary directory, and the machine's PostgreSQL.

PostgreSQL is found at ``POKERROOM_TEST_POSTGRES`` (default: the local server,
trust auth). Without it the PostgreSQL half skips -- except under ``CI=true``,
where it must run.
"""

from __future__ import annotations

import os
import uuid

import pytest
from sqlalchemy import create_engine, text

from pokerroom.store.db import make_engine, migrate, sqlite_url
from pokerroom.store.room_store import RoomStore

POSTGRES = os.environ.get("POKERROOM_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")


def _postgres_admin():
    try:
        engine = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
        with engine.connect():
            return engine
    except Exception as e:                                  # noqa: BLE001 - any reason means "not here"
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is required under CI=true: {e}")
        pytest.skip(f"no PostgreSQL at {POSTGRES}: {e}")


@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request, tmp_path):
    if request.param == "sqlite":
        engine = make_engine(sqlite_url(tmp_path))
        migrate(engine)
        yield engine
        engine.dispose()
        return
    admin = _postgres_admin()
    name = f"pokerroom_test_{uuid.uuid4().hex[:12]}"
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    engine = make_engine(POSTGRES.rsplit("/", 1)[0] + f"/{name}")
    try:
        migrate(engine)
        yield engine
    finally:
        engine.dispose()
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def store(engine):
    return RoomStore(engine)
