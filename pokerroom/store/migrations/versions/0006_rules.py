"""HR-STAKE-3: the departures table also keeps sits (``arrived``), which settle earlier leaves' obligations

Revision ID: 0006_rules
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = '0006_rules'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('departures', schema=None) as batch_op:
        batch_op.add_column(sa.Column('arrived', sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table('departures', schema=None) as batch_op:
        batch_op.drop_column('arrived')
