"""casino: round results and every player's bets (CR-7, BOB-6)

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('casino_rounds',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.String(length=64), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('game', sa.String(length=32), nullable=False),
    sa.Column('result', sa.String(length=200), nullable=False),
    sa.Column('void', sa.Boolean(), nullable=False),
    sa.Column('cards', sa.JSON(), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_casino_rounds_table_number', 'casino_rounds', ['table_id', 'number'], unique=True)
    op.create_table('casino_bets',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.String(length=64), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.String(length=20), nullable=False),
    sa.Column('market', sa.String(length=40), nullable=False),
    sa.Column('staked', sa.BigInteger(), nullable=False),
    sa.Column('returned', sa.BigInteger(), nullable=False),
    sa.Column('detail', sa.String(length=60), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index(op.f('ix_casino_bets_player_id'), 'casino_bets', ['player_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_casino_bets_player_id'), table_name='casino_bets')
    op.drop_table('casino_bets')
    op.drop_index('ix_casino_rounds_table_number', table_name='casino_rounds')
    op.drop_table('casino_rounds')
