"""A director's rows in the store, on SQLite and PostgreSQL: saved per step with its transfers, loaded, deleted."""

from __future__ import annotations

import pickle

from sqlalchemy import func, select, text

from pokerroom.store.db import make_engine, migrate, sqlite_url
from pokerroom.store.models import TournamentEntryRow, TournamentTableRow
from pokerroom.store.room_store import RoomStore
from tests.support.migrations import differences, downgrade
from tests.tournament.director_drivers import LEVELS, Room, bust_one, observable, spec, started
from tournament import director as td
from tournament import saved_state as ss


def save(store, room: Room, at: float = 1.0) -> ss.Saved:
    """One step as the hall stores it: the records the director changed, with the ledger's new transfers."""
    d = room.director
    saved = ss.step(d)
    posted = getattr(room, "posted", 0)
    room.posted = len(room.ledger.transfers)
    store.tournaments.save_tournament(d.spec.id, d.spec.name, d.state, saved, "dora",
                                      list(room.ledger.transfers)[posted:], at)
    return saved


def restored(store, tid: str = "t") -> td.Director:
    return ss.restore(ss.from_rows(store.tournaments.saved_tournament(tid)))


def leader(d: td.Director) -> str:
    """The player with the most chips: the one whose winning shove busts somebody."""
    return max(d.entries, key=d.chips)


def count(store, model) -> int:
    with store.engine.connect() as c:
        return c.execute(select(func.count()).select_from(model)).scalar_one()


def test_TR_REFUND_3_a_running_tournament_saved_step_by_step_loads_as_the_same_director(store):
    room = started([f"p{i:02d}" for i in range(20)], table_size=6, seed=3)
    save(store, room)
    for _ in range(6):
        bust_one(room)
        save(store, room, 2.0)
    d = room.director
    again = restored(store)
    assert observable(again) == observable(pickle.loads(pickle.dumps(d)))
    assert count(store, TournamentTableRow) == len(d.tables)
    assert count(store, TournamentEntryRow) == len(d.entries) + len(d.eliminations.busted)
    assert store.ledger.load_ledger().balances == room.ledger.balances      # the transfers landed with the rows
    (unfinished,) = store.tournaments.unfinished_tournaments()
    assert unfinished.id == "t" and unfinished.created_by == "dora" and unfinished.state == td.RUNNING
    assert again.cancel("stopped") == pickle.loads(pickle.dumps(d)).cancel("stopped")


def test_TR_REFUND_2_a_withdrawn_registration_is_deleted_and_the_rest_refund_as_before(store):
    room = Room(spec())
    room.register("ana", "bo", "cy")
    save(store, room)
    room.apply(room.director.registration.unregister("bo", 0.0))
    save(store, room)
    again = restored(store)
    assert list(again.entries) == ["ana", "cy"] and count(store, TournamentEntryRow) == 2
    assert again.cancel("stopped") == pickle.loads(pickle.dumps(room.director)).cancel("stopped")


def test_a_finished_tournament_keeps_only_its_tournaments_row(store):
    room = started(["a", "b", "c"])
    save(store, room)
    while room.director.state == td.RUNNING:
        bust_one(room, leader(room.director))
    save(store, room)
    assert store.tournaments.saved_tournament("t") is None and store.tournaments.unfinished_tournaments() == []
    assert count(store, TournamentEntryRow) == count(store, TournamentTableRow) == 0
    assert store.tournaments.tournament("t").state == td.FINISHED


def test_a_closed_table_is_deleted(store):
    room = started([f"p{i}" for i in range(7)], table_size=6)       # two tables of 3 and 4
    save(store, room)
    while len(room.director.tables) > 1:
        bust_one(room, leader(room.director))
    saved = save(store, room)
    assert saved.closed_tables and count(store, TournamentTableRow) == 1


def test_the_migration_turns_an_unfinished_tournaments_pickle_into_rows(tmp_path):
    engine = make_engine(sqlite_url(tmp_path))
    migrate(engine, "0007_rules")
    room = started([f"p{i}" for i in range(9)], table_size=6, seed=11)
    bust_one(room)
    d = room.director
    old = pickle.loads(pickle.dumps(d))
    for name in ("clock", "eliminations", "balancing", "deal_desk"):  # pickled by a version before: no parts
        part = dict(vars(old.__dict__.pop(name)))
        del part["director"]
        old.__dict__.update(part)
    for e in [*old.entries.values(), *old.busted]:                  # ... and no ordinals
        e.ordinal = 0
    del old.__dict__["registrations"], old.__dict__["changes"]
    with engine.begin() as c:
        c.execute(text("INSERT INTO tournaments (id, name, state, snapshot, created_by, updated_at) "
                       "VALUES ('t', 'Test', 'running', :s, 'dora', 1.0)"), {"s": pickle.dumps(old)})
    migrate(engine)
    store = RoomStore(engine)
    again = restored(store)
    assert list(again.entries) == list(d.entries)
    assert again.cancel("stopped") == pickle.loads(pickle.dumps(d)).cancel("stopped")
    downgrade(engine, "0007_rules")                                  # and back: the rows pickled again
    with engine.connect() as c:
        snapshot = c.execute(text("SELECT snapshot FROM tournaments WHERE id = 't'")).scalar_one()
    assert pickle.loads(snapshot).cancel("stopped") == pickle.loads(pickle.dumps(d)).cancel("stopped")
    engine.dispose()


def test_TR_PLAY_4_a_directors_move_queued_for_a_hands_end_survives_a_restart_and_is_made(store):
    room = started([f"p{i}" for i in range(9)], table_size=6)
    d = room.director
    save(store, room)
    source, target = sorted(d.tables, key=lambda t: -len(d.tables[t].seats))      # 5 and 4: balanced after
    room.deal(source)
    mover = next(iter(d.tables[source].seats.values()))
    room.apply(d.balancing.move_player(mover, target, "td"))
    save(store, room, 2.0)
    again = restored(store)                         # the hand in play is not kept: between hands everywhere
    assert [(m.player, m.table, m.by) for m in again.balancing.queued] == [(mover, target, "td")]
    other = Room(d.spec)
    other.director, other.ledger = again, room.ledger
    other.deal(source)
    other.check_down(source)
    assert again.table_of(mover).id == target and again.balancing.queued == []


def test_the_queued_moves_column_is_built_as_the_model_has_it(engine):
    assert differences(engine, "tournament_terms") == []


def test_a_hand_history_reads_the_entry_price_from_the_terms_and_once_finished_from_the_ledger(store):
    """The PokerStars tournament header's buy-in (and levels while they are stored): what an entry paid."""
    assert store.tournaments.entry_price("t") is None
    room = started(["a", "b", "c"])
    save(store, room)
    running = store.tournaments.entry_price("t")["spec"]
    assert (running["buy_in"], running["fee"], running["levels"][0]["big_blind"]) == (900, 100, LEVELS[0].big_blind)
    while room.director.state == td.RUNNING:
        bust_one(room, leader(room.director))
    save(store, room)
    assert store.tournaments.entry_price("t") == {"legs": {"tournament buy-in": 900, "tournament fee": 100}}
