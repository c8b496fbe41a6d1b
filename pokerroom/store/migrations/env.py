"""Alembic environment: migrations run on the connection :func:`pokerroom.store.db.migrate` hands over."""

from alembic import context

from pokerroom.store.models import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through pokerroom.store.db.migrate(engine)")
context.configure(connection=connection, target_metadata=Base.metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()
