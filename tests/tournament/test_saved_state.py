"""A director saved as records step by step, and restored: the same state, the same refunds as a pickled one."""

from __future__ import annotations

import json
import pickle
import random
from dataclasses import fields, replace
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.poker.actions import Call, Raise
from tests.tournament.director_drivers import Room, bust_one, observable, spec, started
from tournament import director as td
from tournament import saved_state as ss
from tournament import simulate as sim
from tournament.structure import STRUCTURES, TournamentSpec


class Rows:
    """The store's rows of one tournament, upserted as the store does (and through JSON, as its columns are)."""

    def __init__(self) -> None:
        self.state = self.terms = None
        self.tables: dict = {}
        self.entries: dict = {}
        self.steps: list[ss.Saved] = []

    def apply(self, saved: ss.Saved) -> None:
        self.steps.append(saved)
        if saved.ended:
            self.__init__()
            return
        self.state = through_json(saved.state)
        if saved.terms is not None:
            self.terms = through_json(saved.terms)
        for t in saved.closed_tables:
            self.tables.pop(t, None)
        for t in saved.tables:
            self.tables[t.table] = through_json(t)
        for key in saved.withdrawn:
            self.entries.pop(tuple(key), None)
        for e in saved.entries:
            self.entries[(e.player, e.number)] = through_json(e)

    def whole(self) -> ss.Saved:
        return ss.Saved(self.state.tournament, self.state, self.terms, tuple(self.tables.values()),
                        tuple(self.entries.values()))


def through_json(record):
    return replace(record, **{f.name: json.loads(json.dumps(getattr(record, f.name))) for f in fields(record)})


def pickled(d: td.Director) -> td.Director:
    return pickle.loads(pickle.dumps(d))


def assert_restores(d: td.Director, rows: Rows) -> None:
    restored = ss.restore(rows.whole())
    before = pickled(d)
    assert observable(restored) == observable(before)
    if d.state in (td.REGISTERING, td.RUNNING) and (d.state == td.REGISTERING or d.entries):
        reason = "the server stopped"
        assert restored.cancel(reason) == before.cancel(reason)


def structure(name: str, players: int) -> TournamentSpec:
    return replace(TournamentSpec.load(STRUCTURES / f"{name}.toml"), max_players=players * 2, min_players=2)


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 40), seed=st.integers(0, 10_000),
       name=st.sampled_from(["daily", "knockout", "satellite", "sit_and_go"]), every=st.integers(1, 9))
def test_TR_REFUND_2_to_7_a_director_restored_from_its_saved_steps_refunds_what_the_pickled_one_would(
        players, seed, name, every):
    """Saved now and then (several commands' changes at once), restored at every save: the same director."""
    rows = Rows()
    pace = random.Random(seed)
    checked = []
    seen = []

    def save(d: td.Director) -> None:
        seen[:] = [d]
        if not checked or pace.randrange(every) == 0:
            rows.apply(ss.step(d))
            if rows.state is not None and (not checked or pace.random() < 0.3):
                assert_restores(d, rows)
                checked.append(d.state)

    sim.simulate(players, seed=seed, spec=structure(name, players), observe=save)
    rows.apply(ss.step(seen[0]))
    assert rows.state is None and not rows.tables and not rows.entries      # finished: nothing is kept
    assert checked


def test_TR_REFUND_3_a_restored_registration_and_start_refund_as_before():
    room = started([f"p{i}" for i in range(14)])
    rows = Rows()
    rows.apply(ss.step(room.director))
    assert_restores(room.director, rows)
    bust_one(room)
    rows.apply(ss.step(room.director))
    assert_restores(room.director, rows)


def test_a_hand_at_one_table_saves_that_table_its_players_and_the_scalars_only():
    room = started([f"p{i:02d}" for i in range(60)], table_size=6)
    d = room.director
    ss.step(d)
    table = d.ready_tables()[0]
    players = set(d.tables[table].seats.values())
    room.deal(table)
    room.check_down(table)
    saved = ss.step(d)
    assert saved.terms is None and saved.closed_tables == () and saved.withdrawn == ()
    assert [t.table for t in saved.tables] == [table]
    assert {e.player for e in saved.entries} <= players
    again = ss.step(d)
    assert again.tables == () and again.entries == ()


def test_TR_REFUND_3_a_table_in_a_hand_is_saved_with_the_stacks_it_began_with_and_no_deck():
    room = started(["a", "b", "c"])
    d = room.director
    table = room.only_table()
    start = dict(d.tables[table].stacks)
    room.deal(table)
    room.apply(d.act(*_raise(d, table)))                      # chips go into the pot: the hand is running
    saved = ss.step(d)
    (record,) = saved.tables
    assert {player: chips for _, player, chips in record.seats} == start
    restored = ss.restore(saved)
    assert not restored.tables[table].in_hand and restored.stacks() == start


def _raise(d: td.Director, table: str):
    player, legal = d.tables[table].to_act()
    return player, Raise(legal.seat, legal.min_to) if legal.can_raise else Call(legal.seat)


def test_a_finished_tournament_keeps_no_records():
    room = started(["a", "b"])
    d = room.director
    ss.step(d)
    while d.state == td.RUNNING:
        bust_one(room)
    saved = ss.step(d)
    assert saved.ended and saved.tables == () and saved.entries == ()


def test_TR_REFUND_6_backers_stakes_and_a_substituted_prize_survive_the_records():
    room = Room(spec())
    room.register("a", "b", "c", "d", "e", "f", "g")
    room.fund("backer")
    d = room.director
    rows = Rows()
    rows.apply(ss.step(d))
    room.apply(d.registration.sell_shares("a", "backer", Fraction(40), Fraction("1.1"), room.cash("backer")))
    rows.apply(ss.step(d))
    assert_restores(d, rows)                                   # TR-REFUND-2 with a backer: the stake comes back
    room.apply(d.registration.start())
    room.house_adds(3500 - d.eliminations.prizes[0])
    room.apply(d.eliminations.substitute_prize(1, "a seat at the festival", 3500, by="td"))
    rows.apply(ss.step(d))
    assert ss.restore(rows.whole()).eliminations.substitutes == {1: ("a seat at the festival", 3500)}
    assert [s.percent for s in ss.restore(rows.whole()).entries["a"].stakes] == [Fraction(40)]
    assert_restores(d, rows)                                   # TR-REFUND-6: the backer shares the refund
