"""Persistence: SQLAlchemy models, Alembic migrations, and the stores the server writes through."""
