"""table_seats: who sits where at each cash table now, so a takeover reads a row a seat, not the seat history

Revision ID: 0011_table_seats
Revises: 0010_ledger_numbers

The rows start as the seat audit records replayed (a table taken over after the upgrade finds its players).
"""

import json

import sqlalchemy as sa
from alembic import op

revision = '0011_table_seats'
down_revision = '0010_ledger_numbers'
branch_labels = None
depends_on = None


def upgrade() -> None:
    seats = op.create_table('table_seats',
                            sa.Column('table_id', sa.String(64), nullable=False),
                            sa.Column('player_id', sa.String(20), nullable=False),
                            sa.Column('seat', sa.Integer(), nullable=False),
                            sa.PrimaryKeyConstraint('table_id', 'player_id'))
    now: dict[tuple[str, str], int] = {}
    for (data,) in op.get_bind().execute(sa.text("SELECT data FROM audit_records WHERE kind = 'seat' ORDER BY id")):
        record = json.loads(data) if isinstance(data, str) else data
        where = (record.get("table"), record.get("player"))
        if record.get("what") == "joined" and None not in where and record.get("seat") is not None:
            now[where] = record["seat"]
        elif record.get("what") == "left":
            now.pop(where, None)
    if now:
        op.bulk_insert(seats, [{"table_id": t, "player_id": p, "seat": s} for (t, p), s in sorted(now.items())])


def downgrade() -> None:
    op.drop_table('table_seats')
