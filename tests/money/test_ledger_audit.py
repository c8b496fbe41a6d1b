"""``pokerroom ledger check`` (STAFF-1): a balanced ledger that mints money still fails it."""

from __future__ import annotations

from pokerroom.cli import main
from pokerroom.money.accounts import HOUSE_RAKE, PROMOTIONS, WORLD, cash
from pokerroom.money.ledger import Ledger, Posting, Transfer
from pokerroom.money.ledger_audit import ledger_problems
from pokerroom.store.db import make_engine, migrate, sqlite_url
from pokerroom.store.room_store import RoomStore


def test_STAFF_1_each_kind_of_problem_is_one_line():
    ledger = Ledger()
    good = [ledger.move(WORLD, cash("ana"), 500, "deposit", "ana", 1.0),
            ledger.move(cash("ana"), WORLD, 200, "withdrawal", "ana", 2.0),
            ledger.move(WORLD, PROMOTIONS, 100, "deposit", "house", 3.0)]
    assert ledger_problems(good, ledger.balances) == []
    minted = ledger.move(WORLD, cash("bo"), 10**12, "guarantee overlay", "sng", 4.0)
    unbalanced = Transfer(9, (Posting(cash("cy"), 5),), "hand", "t1-1", 5.0)
    overdrawn = Transfer(10, (Posting(cash("di"), -7), Posting(HOUSE_RAKE, 7)), "rake", "t1-2", 6.0)
    cached = {**ledger.balances, cash("cy"): 5, cash("di"): -7, HOUSE_RAKE: 7, cash("ana"): 1}
    problems = ledger_problems([*good, minted, unbalanced, overdrawn], cached)
    assert len(problems) == 4
    assert "transfer 4 moves 1000000000000 from world for 'guarantee overlay'" in problems[0]
    assert "STAFF-1" in problems[0]
    assert problems[1].startswith("transfer 9 (hand t1-1) does not balance")
    assert problems[2] == "cash:ana holds 1 but its postings sum to 300"
    assert problems[3] == "cash:di is negative: -7"


def test_STAFF_1_the_command_exits_0_on_a_sound_store_and_1_with_a_line_per_problem(tmp_path, capsys):
    engine = make_engine(sqlite_url(tmp_path))
    migrate(engine)
    store = RoomStore(engine)
    ledger = Ledger()
    store.ledger.save_transfers([ledger.move(WORLD, cash("ana"), 500, "deposit", "ana", 1.0)])
    assert main(["ledger", "check", "--data-dir", str(tmp_path)]) == 0
    assert "sound" in capsys.readouterr().out
    store.ledger.save_transfers([ledger.move(WORLD, cash("ana"), 10**12, "guarantee overlay", "sng", 2.0)])
    assert main(["ledger", "check", "--data-dir", str(tmp_path)]) == 1
    (line,) = capsys.readouterr().out.splitlines()
    assert "world for 'guarantee overlay'" in line
    assert main(["ledger", "check", "--data-dir", str(tmp_path / "none")]) == 2
