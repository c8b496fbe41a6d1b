"""the first schema: accounts, ledger, hands, chat, connections, seating memory, audit

Revision ID: 0001
Revises: (none)
"""

import sqlalchemy as sa
from alembic import op

revision = '0001'
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('accounts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('nickname', sa.String(length=20), nullable=False),
    sa.Column('nickname_key', sa.String(length=20), nullable=False),
    sa.Column('password_hash', sa.String(length=200), nullable=False),
    sa.Column('birth_date', sa.String(length=10), nullable=False),
    sa.Column('country', sa.String(length=2), nullable=False),
    sa.Column('role', sa.String(length=16), nullable=False),
    sa.Column('created_at', sa.Float(), nullable=False),
    sa.Column('closed', sa.Boolean(), nullable=False),
    sa.Column('excluded_until', sa.Float(), nullable=True),
    sa.Column('deposit_limit', sa.BigInteger(), nullable=True),
    sa.Column('verified_name', sa.String(length=100), nullable=True),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('nickname_key')
    )
    op.create_table('audit_records',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=40), nullable=False),
    sa.Column('data', sa.JSON(), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.Column('previous_hash', sa.String(length=64), nullable=False),
    sa.Column('hash', sa.String(length=64), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('hash')
    )
    op.create_table('chat_lines',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.String(length=64), nullable=False),
    sa.Column('hand_id', sa.String(length=120), nullable=True),
    sa.Column('player_id', sa.String(length=20), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.Column('blocked', sa.Boolean(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('chat_lines', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_chat_lines_player_id'), ['player_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_chat_lines_table_id'), ['table_id'], unique=False)

    op.create_table('connections',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.String(length=20), nullable=True),
    sa.Column('ip', sa.String(length=64), nullable=False),
    sa.Column('device_id', sa.String(length=128), nullable=True),
    sa.Column('connected_at', sa.Float(), nullable=False),
    sa.Column('disconnected_at', sa.Float(), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('connections', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_connections_player_id'), ['player_id'], unique=False)

    op.create_table('departures',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.String(length=20), nullable=False),
    sa.Column('game_key', sa.String(length=60), nullable=False),
    sa.Column('table_id', sa.String(length=64), nullable=False),
    sa.Column('stack', sa.BigInteger(), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('departures', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_departures_player_id'), ['player_id'], unique=False)

    op.create_table('hands',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('hand_id', sa.String(length=120), nullable=False),
    sa.Column('table_id', sa.String(length=64), nullable=False),
    sa.Column('started_at', sa.Float(), nullable=False),
    sa.Column('ended_at', sa.Float(), nullable=True),
    sa.Column('void', sa.Boolean(), nullable=False),
    sa.Column('start_stacks', sa.JSON(), nullable=False),
    sa.Column('end_stacks', sa.JSON(), nullable=True),
    sa.Column('rake', sa.BigInteger(), nullable=False),
    sa.Column('events', sa.JSON(), nullable=True),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('hand_id')
    )
    with op.batch_alter_table('hands', schema=None) as batch_op:
        batch_op.create_index('ix_hands_open', ['ended_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_hands_table_id'), ['table_id'], unique=False)

    op.create_table('hit_and_run_refusals',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.String(length=20), nullable=False),
    sa.Column('blind_level', sa.String(length=40), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('hit_and_run_refusals', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_hit_and_run_refusals_player_id'), ['player_id'], unique=False)

    op.create_table('ledger_balances',
    sa.Column('account', sa.String(length=120), nullable=False),
    sa.Column('balance', sa.BigInteger(), nullable=False),
    sa.PrimaryKeyConstraint('account')
    )
    op.create_table('ledger_transfers',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('number', sa.BigInteger(), nullable=False),
    sa.Column('reason', sa.String(length=32), nullable=False),
    sa.Column('reference', sa.String(length=100), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('number')
    )
    with op.batch_alter_table('ledger_transfers', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_ledger_transfers_reference'), ['reference'], unique=False)

    op.create_table('hand_players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('hand_id', sa.String(length=120), nullable=False),
    sa.Column('player_id', sa.String(length=20), nullable=False),
    sa.ForeignKeyConstraint(['hand_id'], ['hands.hand_id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('hand_players', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_hand_players_hand_id'), ['hand_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_hand_players_player_id'), ['player_id'], unique=False)

    op.create_table('ledger_postings',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('transfer_id', sa.Integer(), nullable=False),
    sa.Column('account', sa.String(length=120), nullable=False),
    sa.Column('amount', sa.BigInteger(), nullable=False),
    sa.ForeignKeyConstraint(['transfer_id'], ['ledger_transfers.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('ledger_postings', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_ledger_postings_account'), ['account'], unique=False)
        batch_op.create_index(batch_op.f('ix_ledger_postings_transfer_id'), ['transfer_id'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('ledger_postings', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_ledger_postings_transfer_id'))
        batch_op.drop_index(batch_op.f('ix_ledger_postings_account'))

    op.drop_table('ledger_postings')
    with op.batch_alter_table('hand_players', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_hand_players_player_id'))
        batch_op.drop_index(batch_op.f('ix_hand_players_hand_id'))

    op.drop_table('hand_players')
    with op.batch_alter_table('ledger_transfers', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_ledger_transfers_reference'))

    op.drop_table('ledger_transfers')
    op.drop_table('ledger_balances')
    with op.batch_alter_table('hit_and_run_refusals', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_hit_and_run_refusals_player_id'))

    op.drop_table('hit_and_run_refusals')
    with op.batch_alter_table('hands', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_hands_table_id'))
        batch_op.drop_index('ix_hands_open')

    op.drop_table('hands')
    with op.batch_alter_table('departures', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_departures_player_id'))

    op.drop_table('departures')
    with op.batch_alter_table('connections', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_connections_player_id'))

    op.drop_table('connections')
    with op.batch_alter_table('chat_lines', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_chat_lines_table_id'))
        batch_op.drop_index(batch_op.f('ix_chat_lines_player_id'))

    op.drop_table('chat_lines')
    op.drop_table('audit_records')
    op.drop_table('accounts')
