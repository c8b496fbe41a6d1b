"""Test-wide settings.

Hypothesis checks rules, not speed: the machines that run the suite are shared
and noisy, so no example may fail for taking long (benchmarks live in bench/).
"""

import pytest
from hypothesis import settings

from pokerroom.store.db import make_engine, migrate, sqlite_url
from pokerroom.store.room_store import RoomStore
from tests.support.clocked_room import MALFORMED

settings.register_profile("room", deadline=None)
settings.load_profile("room")


@pytest.fixture
def store(tmp_path):
    """A migrated SQLite room store (tests/store overrides it to run on PostgreSQL too)."""
    engine = make_engine(sqlite_url(tmp_path))
    migrate(engine)
    yield RoomStore(engine)
    engine.dispose()


@pytest.fixture(autouse=True)
def pushes_conform():
    """Every message an in-process connection was sent is declared by the protocol (pokerroom/protocol/pushes.py),
    even one whose error a bus subscriber's guard swallowed."""
    MALFORMED.clear()
    yield
    assert MALFORMED == [], "the room sent messages the protocol does not declare"
