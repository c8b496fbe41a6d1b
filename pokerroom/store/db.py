"""Opening the database: SQLite (WAL) in a data directory by default, PostgreSQL by URL; migrations at start.

The schema is only ever created or changed by the Alembic migrations in
``pokerroom/store/migrations`` (:func:`migrate` runs them to the newest), so a
room started on an old database upgrades it and a new one is built the same way.
"""

from __future__ import annotations

from pathlib import Path

import orjson
from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def sqlite_url(data_dir: str | Path) -> str:
    path = Path(data_dir)
    path.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path / 'room.db'}"


def json_text(value: object) -> str:
    """JSON columns (every hand's events) through orjson: the writer thread shares the GIL with every table."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL, foreign keys and a busy timeout."""
    json_options = {"json_serializer": json_text, "json_deserializer": orjson.loads}
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, **json_options)

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection, _record) -> None:        # noqa: ANN001 - DB-API objects
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA synchronous=NORMAL")
            # A busy room appends hands, chain links and ledger rows with random-key indexes (hashes): a page
            # cache big enough for those indexes' hot pages spares the writer a read per row, and a longer WAL
            # between checkpoints writes a page once for many commits.
            cursor.execute("PRAGMA cache_size=-65536")
            cursor.execute("PRAGMA wal_autocheckpoint=4000")
            cursor.execute("PRAGMA temp_store=MEMORY")
            cursor.close()

        # The writer's bulk inserts as a few multi-row INSERTs, not a statement step per row: ``sqlite3`` lets go
        # of the GIL around every step, and each time the reactor thread is waiting for it the two threads trade
        # it (a futex call and a context switch each way) -- about one trade per row, several per hand.
        engine.dialect.use_insertmanyvalues_wo_returning = True
        return engine
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    return create_engine(url, pool_pre_ping=True, **json_options)


MIGRATION_LOCK = 0x706F6B6572          # the advisory lock the processes of one room migrate under ("poker")


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to ``revision`` (the newest by default).

    On PostgreSQL the processes of a room starting together migrate one at a time, under a transaction-level
    advisory lock: the first brings the schema up, the others find it there (without it two of them both tried to
    create the tables, and one failed). SQLite's one writer already serialises them."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
