"""HR-STAKE-3: the departures table also keeps sits (``arrived``), which settle earlier leaves' obligations

Revision ID: 0007_rules
Revises: 0006_sessions
"""

import sqlalchemy as sa
from alembic import op

revision = '0007_rules'
down_revision = '0006_sessions'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('departures', schema=None) as batch_op:
        batch_op.add_column(sa.Column('arrived', sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('departures', schema=None) as batch_op:
        batch_op.drop_column('arrived')
