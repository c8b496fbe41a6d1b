"""Each side of the process line keeps its own copy of who shows a real name (AC-4) and follows a rename (AC-3): the
gateway's side decides and publishes ``players.display_name`` and ``players.renamed``, and the table process's copy
follows them on the strict bus, on a later turn."""

from __future__ import annotations

from twisted.internet.task import Clock

from pokerroom.bus.records import DisplayName, PlayerRenamed
from pokerroom.bus.strict import StrictBus
from pokerroom.bus.subjects import PLAYERS_DISPLAY_NAME, PLAYERS_RENAMED
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.display_names import DecidedNames, DisplayNames
from tests.support.clocked_room import settle


def sides() -> tuple[StrictBus, DecidedNames, DisplayNames, list]:
    bus = StrictBus(Clock())
    decided, copy, heard = DecidedNames(bus), DisplayNames(), []
    copy.follow(bus)
    for subject in (PLAYERS_DISPLAY_NAME, PLAYERS_RENAMED):
        bus.subscribe(subject, lambda subject, change: heard.append((subject, change)))
    return bus, decided, copy, heard


def test_AC_4_a_real_name_shown_and_hidden_reaches_the_other_sides_copy_on_a_later_turn():
    bus, decided, copy, heard = sides()
    decided.show("ana", "Ana Lima")
    assert decided.get("ana") == "Ana Lima" and copy.get("ana") is None     # not yet: a message, not a call
    settle()
    assert copy.get("ana") == "Ana Lima"
    assert heard == [(PLAYERS_DISPLAY_NAME, DisplayName("ana", "Ana Lima"))]
    decided.hide("ana")
    settle()
    assert copy.get("ana") is None and heard[-1] == (PLAYERS_DISPLAY_NAME, DisplayName("ana", None))


def test_AC_3_a_rename_reaches_the_other_sides_copy_and_the_old_name_shows_nothing():
    bus, decided, copy, heard = sides()
    decided.show("bob", "Bob Stone")
    decided.renamed("bob", "robert")
    settle()
    assert copy.get("bob") is None and copy.get("robert") is None
    assert heard[-1] == (PLAYERS_RENAMED, PlayerRenamed("bob", "robert"))


def test_AC_4_the_rooms_table_host_draws_seats_from_its_own_copy_which_follows_the_decisions(store):
    room = RoomServices([], store, Clock())
    assert isinstance(room.bus, StrictBus)
    assert room.tables.display_names is not room.display_names          # one copy each side of the line
    room.display_names.show("ana", "Ana Lima")                           # as a login or the security desk decides
    assert room.tables.display_names.get("ana") is None
    settle(room)
    assert room.tables.display_names.get("ana") == "Ana Lima"
    room.display_names.renamed("ana", "anna")
    settle(room)
    assert room.tables.display_names.get("ana") is None
