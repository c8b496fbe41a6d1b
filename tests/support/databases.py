"""A fresh PostgreSQL database per test, on the machine's server (or ``POKERROOM_TEST_POSTGRES``).

Without PostgreSQL the test skips -- except under ``CI=true``, where it must run.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import Engine, create_engine, text

POSTGRES = os.environ.get("POKERROOM_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres")


def postgres_admin() -> Engine:
    """The server's maintenance connection, or a skip (a failure under CI)."""
    try:
        engine = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
        with engine.connect():
            return engine
    except Exception as e:                                  # noqa: BLE001 - any reason means "not here"
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is required under CI=true: {e}")
        pytest.skip(f"no PostgreSQL at {POSTGRES}: {e}")


@contextmanager
def postgres_database() -> Iterator[str]:
    """The URL of a new, empty database, dropped afterwards (connections and all)."""
    admin = postgres_admin()
    name = f"pokerroom_test_{uuid.uuid4().hex[:12]}"
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield POSTGRES.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
