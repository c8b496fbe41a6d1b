"""Work a large field leaves for later reactor turns gives the same result as doing it in one step (TR-PLAY-3)."""

from __future__ import annotations

from tournament import director as td
from tournament import eliminations
from tournament import simulate as sim


def test_TR_PLAY_3_late_registration_busts_are_placed_a_slice_at_a_time_with_the_same_places(monkeypatch):
    results = []
    for work in (100_000, 1):
        monkeypatch.setattr(eliminations, "PLACES_WORK", work)
        awarded: list[tuple[tuple[str, ...], tuple[int, ...]]] = []
        behind: list[bool] = []

        def heard(events: list, awarded=awarded) -> None:
            awarded.extend((e.players, e.places) for e in events if type(e) is td.Eliminated)

        report = sim.simulate(150, seed=4, on_events=heard,
                              observe=lambda d, behind=behind: behind.append(d.registration.behind))
        results.append((sorted(awarded), report.hands))
        if work == 1:
            assert any(behind)                              # the places waited for later turns...
    assert results[0] == results[1]                         # ...and came out as in one step
    assert len(results[0][0]) > 150                         # re-entries: more entries than players
