"""sessions follow the account (STAFF-3): session tokens stored as hashes with an idle expiry; account changes
(role, ban) that running rooms poll

Revision ID: 0006_sessions
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = '0006_sessions'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('session_tokens',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('player_id', sa.String(length=20), nullable=False),
    sa.Column('nickname_key', sa.String(length=20), nullable=False),
    sa.Column('created_at', sa.Float(), nullable=False),
    sa.Column('used_at', sa.Float(), nullable=False),
    sa.Column('expires_at', sa.Float(), nullable=False),
    sa.Column('ended_at', sa.Float(), nullable=True),
    sa.Column('end_reason', sa.String(length=40), nullable=True),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('token_hash')
    )
    with op.batch_alter_table('session_tokens', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_session_tokens_nickname_key'), ['nickname_key'], unique=False)

    op.create_table('account_changes',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('nickname_key', sa.String(length=20), nullable=False),
    sa.Column('what', sa.String(length=16), nullable=False),
    sa.Column('at', sa.Float(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('account_changes', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_account_changes_at'), ['at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('account_changes', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_account_changes_at'))
    op.drop_table('account_changes')
    with op.batch_alter_table('session_tokens', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_session_tokens_nickname_key'))
    op.drop_table('session_tokens')
