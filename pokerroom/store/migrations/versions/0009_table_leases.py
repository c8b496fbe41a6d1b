"""table ownership (issue 21): one lease per table, held by one process and renewed, with a fencing epoch

Revision ID: 0009_table_leases
Revises: 0008_tournament_rows
"""

import sqlalchemy as sa
from alembic import op

revision = '0009_table_leases'
down_revision = '0008_tournament_rows'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('table_leases',
    sa.Column('resource', sa.String(length=80), nullable=False),
    sa.Column('node', sa.String(length=64), nullable=False),
    sa.Column('expires_at', sa.Float(), nullable=False),
    sa.Column('epoch', sa.BigInteger(), nullable=False),
    sa.PrimaryKeyConstraint('resource')
    )


def downgrade() -> None:
    op.drop_table('table_leases')
