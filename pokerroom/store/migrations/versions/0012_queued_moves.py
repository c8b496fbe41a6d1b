"""queued_moves: a director's moves asked during a hand, kept with a tournament's terms until the hand ends

Revision ID: 0012_queued_moves
Revises: 0011_table_seats

A director's move of a player whose table (or target table) is in a hand waits for the hand's end (TR-PLAY-4);
the queue survives a restart. Existing tournaments have none queued.
"""

import sqlalchemy as sa
from alembic import op

revision = '0012_queued_moves'
down_revision = '0011_table_seats'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('tournament_terms', schema=None) as batch_op:
        batch_op.add_column(sa.Column('queued_moves', sa.JSON(), nullable=False, server_default=sa.text("'[]'")))


def downgrade() -> None:
    with op.batch_alter_table('tournament_terms', schema=None) as batch_op:
        batch_op.drop_column('queued_moves')
