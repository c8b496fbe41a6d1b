"""security team (SEC-3, SEC-4): hand facts, cases, mutes, restrictions, nickname resets; a frozen account;
the tournament of a stored hand; the audit chain indexed by kind and unforkable

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('cases',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('title', sa.String(length=120), nullable=False),
    sa.Column('players', sa.JSON(), nullable=False),
    sa.Column('state', sa.String(length=16), nullable=False),
    sa.Column('opened_by', sa.String(length=20), nullable=False),
    sa.Column('opened_at', sa.Float(), nullable=False),
    sa.Column('decision', sa.String(length=200), nullable=True),
    sa.Column('decided_by', sa.String(length=20), nullable=True),
    sa.Column('decided_at', sa.Float(), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('cases', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_cases_state'), ['state'], unique=False)

    op.create_table('hand_facts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('hand_id', sa.String(length=120), nullable=False),
    sa.Column('table_id', sa.String(length=64), nullable=False),
    sa.Column('tournament', sa.String(length=32), nullable=True),
    sa.Column('at', sa.Float(), nullable=False),
    sa.Column('data', sa.LargeBinary(), nullable=False),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('hand_id')
    )
    with op.batch_alter_table('hand_facts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_hand_facts_at'), ['at'], unique=False)

    op.create_table('mutes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.String(length=20), nullable=False),
    sa.Column('table_id', sa.String(length=64), nullable=True),
    sa.Column('until', sa.Float(), nullable=True),
    sa.Column('reason', sa.String(length=200), nullable=False),
    sa.Column('by', sa.String(length=20), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.Column('lifted_at', sa.Float(), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('mutes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_mutes_player_id'), ['player_id'], unique=False)

    op.create_table('nickname_resets',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('old', sa.String(length=20), nullable=False),
    sa.Column('new', sa.String(length=20), nullable=False),
    sa.Column('reason', sa.String(length=200), nullable=False),
    sa.Column('by', sa.String(length=20), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('nickname_resets', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_nickname_resets_new'), ['new'], unique=False)
        batch_op.create_index(batch_op.f('ix_nickname_resets_old'), ['old'], unique=False)

    op.create_table('restrictions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('a', sa.String(length=20), nullable=False),
    sa.Column('b', sa.String(length=20), nullable=False),
    sa.Column('reason', sa.String(length=200), nullable=False),
    sa.Column('by', sa.String(length=20), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('restrictions', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_restrictions_a'), ['a'], unique=False)
        batch_op.create_index(batch_op.f('ix_restrictions_b'), ['b'], unique=False)

    op.create_table('case_hands',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('hand_id', sa.String(length=120), nullable=False),
    sa.Column('by', sa.String(length=20), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['case_id'], ['cases.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('case_hands', schema=None) as batch_op:
        batch_op.create_index('ix_case_hands_case_hand', ['case_id', 'hand_id'], unique=True)

    op.create_table('case_notes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('case_id', sa.Integer(), nullable=False),
    sa.Column('by', sa.String(length=20), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.ForeignKeyConstraint(['case_id'], ['cases.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('case_notes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_case_notes_case_id'), ['case_id'], unique=False)

    with op.batch_alter_table('accounts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('show_real_name', sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.add_column(sa.Column('frozen', sa.Boolean(), nullable=False, server_default=sa.false()))

    with op.batch_alter_table('audit_records', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_audit_records_kind'), ['kind'], unique=False)
        batch_op.create_unique_constraint('uq_audit_records_previous_hash', ['previous_hash'])  # the chain never forks

    with op.batch_alter_table('hands', schema=None) as batch_op:
        batch_op.add_column(sa.Column('tournament', sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column('event_times', sa.JSON(), nullable=True))
        batch_op.create_index(batch_op.f('ix_hands_tournament'), ['tournament'], unique=False)



def downgrade() -> None:
    with op.batch_alter_table('hands', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_hands_tournament'))
        batch_op.drop_column('event_times')
        batch_op.drop_column('tournament')

    with op.batch_alter_table('audit_records', schema=None) as batch_op:
        batch_op.drop_constraint('uq_audit_records_previous_hash', type_='unique')
        batch_op.drop_index(batch_op.f('ix_audit_records_kind'))

    with op.batch_alter_table('accounts', schema=None) as batch_op:
        batch_op.drop_column('frozen')
        batch_op.drop_column('show_real_name')

    with op.batch_alter_table('case_notes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_case_notes_case_id'))

    op.drop_table('case_notes')
    with op.batch_alter_table('case_hands', schema=None) as batch_op:
        batch_op.drop_index('ix_case_hands_case_hand')

    op.drop_table('case_hands')
    with op.batch_alter_table('restrictions', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_restrictions_b'))
        batch_op.drop_index(batch_op.f('ix_restrictions_a'))

    op.drop_table('restrictions')
    with op.batch_alter_table('nickname_resets', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_nickname_resets_old'))
        batch_op.drop_index(batch_op.f('ix_nickname_resets_new'))

    op.drop_table('nickname_resets')
    with op.batch_alter_table('mutes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_mutes_player_id'))

    op.drop_table('mutes')
    with op.batch_alter_table('hand_facts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_hand_facts_at'))

    op.drop_table('hand_facts')
    with op.batch_alter_table('cases', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_cases_state'))

    op.drop_table('cases')
