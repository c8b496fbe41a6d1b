"""tournaments: the director as typed rows (state, terms, tables, entries) instead of a pickled snapshot

Unfinished tournaments' snapshots are turned into rows, so a room upgraded after a crash still refunds them
(TR-REFUND); then the snapshot column goes. The downgrade pickles the rows back.

Revision ID: 0008_tournament_rows
Revises: 0007_rules
"""

import pickle

import sqlalchemy as sa
from alembic import op

revision = '0008_tournament_rows'
down_revision = '0007_rules'
branch_labels = None
depends_on = None

S, I, B, J, M = sa.String, sa.Integer, sa.Boolean, sa.JSON, sa.BigInteger
NULL = True
# table -> (column, type, nullable); the first columns are the primary key
TABLES = {
    'tournament_states': (('tournament',), [
        ('tournament', S(32), False), ('state', S(16), False), ('awaiting_approval', B(), False),
        ('level', I(), False), ('paused', B(), False), ('on_break', B(), False), ('late_open', B(), False),
        ('rebuys_open', B(), False), ('paid_places', I(), False), ('in_money', B(), False),
        ('hand_for_hand', B(), False), ('deal_made', B(), False), ('entries_total', I(), False),
        ('collected', M(), False), ('pool_balance', M(), False), ('prizes_paid', M(), False),
        ('table_count', I(), False), ('registrations', I(), False), ('winner', S(20), False),
        ('round_played', J(), False), ('round_busts', J(), False), ('protected', J(), False),
        ('pending_deal', J(), NULL), ('rng', J(), False)]),
    'tournament_terms': (('tournament',), [
        ('tournament', S(32), False), ('spec', J(), False), ('payouts', J(), False), ('prizes', J(), NULL),
        ('substitutes', J(), False), ('break_order', J(), False)]),
    'tournament_tables': (('tournament', 'table'), [
        ('tournament', S(32), False), ('table', S(48), False), ('size', I(), False), ('hand_number', I(), False),
        ('button', I(), NULL), ('blinds', J(), False), ('seats', J(), False)]),
    'tournament_entries': (('tournament', 'player', 'number'), [
        ('tournament', S(32), False), ('player', S(20), False), ('number', I(), False), ('fee', M(), False),
        ('paid_pool', M(), False), ('paid_bounty', M(), False), ('rebuys', I(), False), ('add_on', B(), False),
        ('own_bounty', M(), False), ('held', M(), False), ('source', S(120), False), ('ticket', B(), False),
        ('table', S(48), False), ('place', J(), False), ('stakes', J(), False), ('ordinal', I(), False),
        ('out', I(), NULL), ('unplaced', J(), NULL)]),
}


def _table(name: str) -> sa.TableClause:
    return sa.table(name, *(sa.column(column, kind) for column, kind, _ in TABLES[name][1]))


def _older(director) -> None:
    """A director pickled before it counted registrations: its live entries keep the order they stand in."""
    from tournament.changes import Changes

    _in_parts(director)
    director.balancing.__dict__.setdefault("queued", [])     # pickled before a director's moves were queued
    if "changes" not in director.__dict__:
        director.changes = Changes()
    if "registrations" not in director.__dict__:
        for ordinal, entry in enumerate(director.entries.values()):
            entry.ordinal = ordinal
        director.registrations = len(director.entries) + len(director.eliminations.busted)


# What a director pickled before it had parts (issue #35) kept of each part's state, in its own attributes.
_PARTS = {"clock": ("level", "paused", "on_break", "late_open", "rebuys_open"),
          "deal_desk": ("pending_deal", "deal_made"),
          "balancing": ("break_order",),
          "eliminations": ("busted", "unplaced", "_waiting_busts", "prizes_paid", "substitutes", "prizes",
                           "paid_places", "in_money", "winner", "_provisional")}


def _in_parts(director) -> None:
    """A director pickled with every part's state in its own attributes: the parts built and given theirs."""
    from tournament.balancing import Balancing
    from tournament.clock import Clock
    from tournament.deal_desk import DealDesk
    from tournament.eliminations import Eliminations

    state = director.__dict__
    if "registration" not in state:                 # pickled before registration was a part (issue #35)
        from tournament.registration import Registration

        registration = Registration(director)
        registration.drawing = state.pop("drawing", None)
        state["registration"] = registration
    if "clock" in state:
        return
    for name, kind in (("clock", Clock), ("eliminations", Eliminations), ("balancing", Balancing),
                       ("deal_desk", DealDesk)):
        part = kind(director)
        for field in _PARTS[name]:
            if field in state:
                setattr(part, field, state.pop(field))
        state[name] = part


def upgrade() -> None:
    for name, (keys, columns) in TABLES.items():
        op.create_table(name, *(sa.Column(column, kind, nullable=nullable) for column, kind, nullable in columns),
                        sa.PrimaryKeyConstraint(*keys))
    connection = op.get_bind()
    snapshots = connection.execute(sa.text("SELECT snapshot FROM tournaments WHERE state IN "
                                           "('registering', 'running')")).scalars().all()
    if snapshots:
        from tournament import saved_state

        for snapshot in snapshots:
            director = pickle.loads(snapshot)          # written by this room's own earlier version
            _older(director)
            saved = saved_state.whole(director)
            for name, records in (('tournament_states', [saved.state]), ('tournament_terms', [saved.terms]),
                                  ('tournament_tables', saved.tables), ('tournament_entries', saved.entries)):
                if records:                            # the columns of this revision (later ones add more)
                    table = _table(name)
                    connection.execute(table.insert(), [{c: v for c, v in vars(r).items() if c in table.c}
                                                        for r in records])
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('snapshot')


def downgrade() -> None:
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('snapshot', sa.LargeBinary(), nullable=False, server_default=sa.text("''")))
    connection = op.get_bind()
    unfinished = connection.execute(sa.text("SELECT id FROM tournaments WHERE state IN "
                                            "('registering', 'running')")).scalars().all()
    if unfinished:
        from tournament import saved_state

        for tid in unfinished:
            rows = {}
            for key, name in (('state', 'tournament_states'), ('terms', 'tournament_terms'),
                              ('tables', 'tournament_tables'), ('entries', 'tournament_entries')):
                table = _table(name)
                rows[key] = [dict(r) for r in connection.execute(
                    sa.select(table).where(table.c.tournament == tid)).mappings()]
            if not rows['state'] or not rows['terms']:
                continue
            rows['state'], rows['terms'] = rows['state'][0], rows['terms'][0]
            director = saved_state.restore(saved_state.from_rows(rows))
            connection.execute(sa.text("UPDATE tournaments SET snapshot = :s WHERE id = :id"),
                               {"s": pickle.dumps(director), "id": tid})
    for name in reversed(TABLES):
        op.drop_table(name)
