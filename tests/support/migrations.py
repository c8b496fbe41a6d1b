"""The store's migrations, as a test of one of them uses them: what the model and the migrated database disagree on,
and the database taken back to an earlier revision (its upgrade then run again with ``migrate``)."""

from __future__ import annotations

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy.engine import Engine

from pokerroom.store.db import MIGRATIONS
from pokerroom.store.models import Base


def differences(engine: Engine, table: str) -> list:
    """Where the migrated database's ``table`` differs from the model (``[]``: the migration builds it as the model
    has it)."""
    with engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    return [d for d in diff if table in repr(d)]


def downgrade(engine: Engine, revision: str) -> None:
    """The database taken back to ``revision``: every later migration's downgrade run."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)
