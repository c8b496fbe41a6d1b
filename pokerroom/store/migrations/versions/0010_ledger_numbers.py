"""ledger_numbers: blocks of transfer numbers for the processes of a room on several (money across processes)

Revision ID: 0010_ledger_numbers
Revises: 0009_table_leases
"""

import sqlalchemy as sa
from alembic import op

revision = '0010_ledger_numbers'
down_revision = '0009_table_leases'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('ledger_numbers',
                    sa.Column('name', sa.String(32), nullable=False),
                    sa.Column('next_number', sa.BigInteger(), nullable=False),
                    sa.PrimaryKeyConstraint('name'))
    op.execute("INSERT INTO ledger_numbers (name, next_number) "
               "SELECT 'transfers', COALESCE(MAX(number), 0) + 1 FROM ledger_transfers")


def downgrade() -> None:
    op.drop_table('ledger_numbers')
