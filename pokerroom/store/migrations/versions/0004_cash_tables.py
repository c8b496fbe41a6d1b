"""cash tables a director opened from the admin lobby, kept until closed

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('cash_tables',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('definition', sa.JSON(), nullable=False),
    sa.Column('opened_by', sa.String(length=20), nullable=False),
    sa.Column('opened_at', sa.Float(), nullable=False),
    sa.Column('closed_at', sa.Float(), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )


def downgrade() -> None:
    op.drop_table('cash_tables')
