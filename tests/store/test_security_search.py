"""The security team's hand search on SQLite and PostgreSQL (SEC-2): a tournament found by part of its id or its
name, whatever the case (issue 22: the filter needed the exact id)."""

from __future__ import annotations

from pokerroom.store.room_store import RoomStore


def _ended(store: RoomStore, hand_id: str, table: str, tournament: str | None, at: float) -> None:
    store.hands.hand_started(hand_id, table, at, {"ana": 1000, "bob": 1000}, tournament=tournament)
    store.hands.hand_ended(hand_id, at + 1, {"ana": 1000, "bob": 1000}, 0, [], None)


def test_SEC_2_the_tournament_filter_takes_part_of_the_id_or_the_name_in_any_case(store):
    store.tournaments.save_tournament("daily-0412", "Daily Deepstack", "finished", _Ended("daily-0412"), "dora",
                                      [], 1.0)
    store.tournaments.save_tournament("sng-77", "Turbo 50%", "finished", _Ended("sng-77"), "dora", [], 1.0)
    _ended(store, "h1", "daily-0412-t1", "daily-0412", 10.0)
    _ended(store, "h2", "sng-77-t1", "sng-77", 20.0)
    _ended(store, "h3", "cash-1", None, 30.0)

    def found(text: str) -> list[str]:
        return [hand.hand_id for hand, _ in store.security.search_hands(tournament=text)]

    assert found("daily-0412") == ["h1"]                      # the exact id, as before
    assert found("DAILY") == ["h1"] == found("0412")          # part of the id, any case
    assert found("deepSTACK") == ["h1"]                       # part of the name
    assert found("turbo") == ["h2"]
    assert found("50%") == ["h2"] and found("%") == ["h2"]    # a wildcard is a character like any other
    assert found("_") == []
    assert found("weekly") == []
    assert [hand.hand_id for hand, _ in store.security.search_hands()] == ["h3", "h2", "h1"]


class _Ended:
    """A finished tournament's step as the hall saves it: its ``tournaments`` row only."""

    def __init__(self, tid: str) -> None:
        self.ended = True
