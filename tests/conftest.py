"""Test-wide settings.

Hypothesis checks rules, not speed: the machines that run the suite are shared
and noisy, so no example may fail for taking long (benchmarks live in bench/).
"""

import pytest
from hypothesis import settings

from pokerroom.store.db import make_engine, migrate, sqlite_url
from pokerroom.store.room_store import RoomStore

settings.register_profile("room", deadline=None)
settings.load_profile("room")


@pytest.fixture
def store(tmp_path):
    """A migrated SQLite room store (tests/store overrides it to run on PostgreSQL too)."""
    engine = make_engine(sqlite_url(tmp_path))
    migrate(engine)
    yield RoomStore(engine)
    engine.dispose()
