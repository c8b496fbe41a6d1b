"""What a buy-in's money costs on a room on several processes: the locked move against the in-memory one.

    PYTHONPATH=. .venv/bin/python bench/locked_move.py [--database URL] [--moves N]

The in-memory wallet (one process, the default) moves a buy-in from a player's
wallet to a table in memory; the transfer is stored later, with the table's
batch, by the writer thread. The shared wallet (several processes over one
database, :class:`~pokerroom.shell.shared_wallet.SharedWallet`) stores it at
once, in one transaction that locks the wallet's row. Prints µs per buy-in for
each (wall clock, and the calling thread's CPU: the reactor's share), and the
ratios; one buy-in per player, on a fresh database
(``--database``: a PostgreSQL server's maintenance URL, a throwaway database
made and dropped there; default: a SQLite file in a temporary directory).
"""

from __future__ import annotations

import argparse
import tempfile
import time
import uuid

from sqlalchemy import create_engine, text
from twisted.internet.task import Clock

from pokerroom.money.accounts import cash, table_escrow
from pokerroom.players import AccountRules
from pokerroom.shell.recorder import Recorder
from pokerroom.shell.shared_wallet import SharedWallet
from pokerroom.shell.wallet import Wallet
from pokerroom.store.db import make_engine, migrate, sqlite_url
from pokerroom.store.room_store import RoomStore


def per_buy_in(wallet: Wallet, moves: int) -> tuple[float, float]:
    """µs per buy-in of ``wallet``, wall clock and this thread's CPU (each player funded first, untimed)."""
    for i in range(moves):
        wallet.deposit(f"p{i}", 1_000, None)
    start, cpu = time.perf_counter(), time.thread_time()
    for i in range(moves):
        wallet.move(cash(f"p{i}"), table_escrow("t1", f"p{i}"), 1_000, "buy_in", "t1", store=False)
    return (time.perf_counter() - start) / moves * 1e6, (time.thread_time() - cpu) / moves * 1e6


def on(url: str, kind: type[Wallet], moves: int) -> tuple[float, float]:
    engine = make_engine(url)
    migrate(engine)
    try:
        clock = Clock()
        store = RoomStore(engine)
        wallet = kind(Recorder(store, clock), clock, AccountRules())
        wallet.load(store.ledger.load_ledger(), [])
        return per_buy_in(wallet, moves)
    finally:
        engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", help="a PostgreSQL maintenance URL (default: SQLite)")
    parser.add_argument("--moves", type=int, default=2_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        memory = on(sqlite_url(directory), Wallet, args.moves)
    if args.database:
        admin = create_engine(args.database, isolation_level="AUTOCOMMIT")
        name = f"pokerroom_bench_{uuid.uuid4().hex[:12]}"
        with admin.connect() as c:
            c.execute(text(f'CREATE DATABASE "{name}"'))
        try:
            locked = on(args.database.rsplit("/", 1)[0] + f"/{name}", SharedWallet, args.moves)
        finally:
            with admin.connect() as c:
                c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            admin.dispose()
        where = "PostgreSQL"
    else:
        with tempfile.TemporaryDirectory() as directory:
            locked = on(sqlite_url(directory), SharedWallet, args.moves)
        where = "SQLite"
    print(f"in-memory wallet: {memory[0]:8.1f} µs per buy-in, {memory[1]:6.1f} µs CPU "
          "(stored later, with the table's batch)")
    print(f"shared wallet:    {locked[0]:8.1f} µs per buy-in, {locked[1]:6.1f} µs CPU "
          f"(locked and stored at once, {where})")
    print(f"ratio:            {locked[0] / memory[0]:8.1f}x wall, {locked[1] / memory[1]:.1f}x CPU")


if __name__ == "__main__":
    main()
