"""Test-wide settings.

Hypothesis checks rules, not speed: the machines that run the suite are shared
and noisy, so no example may fail for taking long (benchmarks live in bench/).

Every test runs its rooms on the strict bus (``POKERROOM_BUS=strict``: payloads packed, delivery on a later turn
-- of the test's Clock, or of the reactor of a room server a test starts in a subprocess, which inherits the
setting --, a subscriber's exception raised in the test, or logged by the server and failing the test when it
stops). ``POKERROOM_BUS`` set by whoever runs the suite is left as it is, for every test. The application's own
default stays the in-process bus.
"""

import os
import signal

import pytest
from hypothesis import settings

from pokerroom.bus.strict import StrictBus
from pokerroom.store.db import make_engine, migrate, sqlite_url
from pokerroom.store.room_store import RoomStore
from tests.support.clocked_room import STRICT_BUSES, keep, settle

settings.register_profile("room", deadline=None)
settings.load_profile("room")

if "POKERROOM_BUS" not in os.environ:                # a bus chosen for the run holds for every test
    os.environ["POKERROOM_BUS"] = "strict"

# A suite started where SIGINT is ignored (a background job of a non-interactive shell: `pytest &` in a script)
# passes that on to every room server a test starts, whose reactor then never hears the SIGINT that stops it:
# each stop waited out its 10 s before the SIGKILL. Its servers hear Ctrl-C again, as in a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# The modules whose tests wait longest on wall clocks (a tournament's levels, bots' hands, a killed process's
# tables coming back) run first. In collection order the longest (tests/web sorts last) were what the workers stole
# and ran at the end: a minute or two of a run with the other workers done and the two cores idle. First, they
# overlap the CPU-bound tests instead. Whole modules move, in their own order: a module's shared fixture is built
# once.
RUN_FIRST = ("tests/web/test_tournament_table_browser.py", "tests/web/test_phone_browser.py",
             "tests/web/test_player_browser.py", "tests/net/test_split_roles.py",
             "tests/net/test_tournament_sockets.py", "tests/net/test_cluster_tournament.py",
             "tests/net/test_cluster.py")


def pytest_collection_modifyitems(items) -> None:   # noqa: ANN001
    first = {path: rank for rank, path in enumerate(RUN_FIRST)}
    items.sort(key=lambda item: first.get(item.nodeid.partition("::")[0], len(first)))


@pytest.fixture
def store(tmp_path):
    """A migrated SQLite room store (tests/store overrides it to run on PostgreSQL too)."""
    engine = make_engine(sqlite_url(tmp_path))
    migrate(engine)
    yield RoomStore(engine)
    engine.dispose()


_made = StrictBus.__init__


def _kept(self, *args, **kwargs) -> None:   # noqa: ANN001, ANN002, ANN003
    _made(self, *args, **kwargs)
    keep(self)


StrictBus.__init__ = _kept       # every strict bus a test makes is kept, to be settled and checked at its end


@pytest.fixture(autouse=True)
def strict_buses_raise():
    """A subscriber's exception on a strict bus fails the test that caused it: at the end, what the test's strict
    buses still hold is delivered (their Clocks turned by 0) and the first failure raised."""
    STRICT_BUSES.clear()
    yield
    try:
        settle()
    finally:
        STRICT_BUSES.clear()
