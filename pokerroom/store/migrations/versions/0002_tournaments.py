"""tournaments: the director of each event for crash recovery; longer ledger reasons (refund cases)

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('tournaments',
    sa.Column('id', sa.String(length=32), nullable=False),
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('state', sa.String(length=16), nullable=False),
    sa.Column('snapshot', sa.LargeBinary(), nullable=False),
    sa.Column('created_by', sa.String(length=20), nullable=False),
    sa.Column('updated_at', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_tournaments_state'), 'tournaments', ['state'], unique=False)
    with op.batch_alter_table('ledger_transfers') as batch:
        batch.alter_column('reason', existing_type=sa.String(length=32), type_=sa.String(length=120),
                           existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table('ledger_transfers') as batch:
        batch.alter_column('reason', existing_type=sa.String(length=120), type_=sa.String(length=32),
                           existing_nullable=False)
    op.drop_index(op.f('ix_tournaments_state'), table_name='tournaments')
    op.drop_table('tournaments')
