"""The database schema as typed SQLAlchemy 2.0 models; Alembic migrations create and change it.

What is stored, and why:

* ``accounts`` -- players and staff (AC-1..5): nickname (and its case-folded
  key, unique: AC-3), argon2id hash, date of birth, country, role, exclusion.
* ``ledger_transfers`` / ``ledger_postings`` -- every money movement (DESIGN.md
  idea 3, AC-6); ``ledger_balances`` caches each account's balance and is
  written in the same transaction as the postings; ``ledger_numbers`` hands out
  blocks of transfer numbers to the processes of a room on several (unique
  across them).
* ``hands`` -- one row per hand: start-of-hand stacks written when it starts,
  the event stream, end stacks and rake when it ends. A row with no end after a
  crash is voided on start (TR-REFUND-1).
* ``chat_lines`` (HR-CHAT-1), ``connections`` (IP, device, times: SEC),
  ``hit_and_run_refusals`` (HR-HNR-2), ``departures`` (leaves and sits, HR-STAKE-3),
  ``audit_records`` (hash-chained, SEC-1, SEC-5).
* the security team's own (SEC-3, SEC-4): ``hand_facts`` (what each ended
  hand says about pairs of players, packed small for the collusion signals),
  ``cases`` with their ``case_hands`` and ``case_notes``, ``mutes``
  (HR-CHAT-3), ``restrictions`` (linked accounts kept apart) and
  ``nickname_resets`` (AC-3: the old name stays in the history).
* ``tournaments`` (one row each, kept) and, while one is registering or
  running, its director as typed rows (``tournament_states``, ``_terms``,
  ``_tables``, ``_entries``) for the refunds after a crash (TR-REFUND).
* ``session_tokens`` (hashes only, with an idle expiry) and ``account_changes``
  (role changes and bans that running rooms apply at once): STAFF-3.
* ``table_leases`` -- which process owns each table (cash, tournament, casino)
  until when, with the epoch that fences a former owner out (issue 21).

Money columns are ``BigInteger`` minor units; times are UTC seconds as floats
(the reactor's clock), which sort and compare the same on SQLite and
PostgreSQL.
"""

from __future__ import annotations

from sqlalchemy import JSON, BigInteger, Boolean, Float, ForeignKey, Index, Integer, LargeBinary, String, Text
from sqlalchemy import false as sa_false
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class Account(Base):
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    nickname: Mapped[str] = mapped_column(String(20))
    nickname_key: Mapped[str] = mapped_column(String(20), unique=True)      # case-folded: AC-3
    password_hash: Mapped[str] = mapped_column(String(200))
    birth_date: Mapped[str] = mapped_column(String(10))                     # ISO date: AC-1
    country: Mapped[str] = mapped_column(String(2))                         # AC-2
    role: Mapped[str] = mapped_column(String(16), default="player")
    created_at: Mapped[float] = mapped_column(Float)
    closed: Mapped[bool] = mapped_column(Boolean, default=False)
    excluded_until: Mapped[float | None] = mapped_column(Float, nullable=True)   # AC-5; inf: permanent
    deposit_limit: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    verified_name: Mapped[str | None] = mapped_column(String(100), nullable=True)  # AC-4
    show_real_name: Mapped[bool] = mapped_column(Boolean, default=False)              # AC-4: the player's choice
    frozen: Mapped[bool] = mapped_column(Boolean, default=False)                      # SEC-4: no play until thawed


class LedgerTransfer(Base):
    __tablename__ = "ledger_transfers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    number: Mapped[int] = mapped_column(BigInteger, unique=True)
    reason: Mapped[str] = mapped_column(String(120))
    reference: Mapped[str] = mapped_column(String(100), index=True)
    at: Mapped[float] = mapped_column(Float)
    postings: Mapped[list[LedgerPosting]] = relationship(back_populates="transfer",
                                                         order_by="LedgerPosting.id")


class LedgerPosting(Base):
    __tablename__ = "ledger_postings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    transfer_id: Mapped[int] = mapped_column(ForeignKey("ledger_transfers.id"), index=True)
    account: Mapped[str] = mapped_column(String(120), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    transfer: Mapped[LedgerTransfer] = relationship(back_populates="postings")


class LedgerBalance(Base):
    __tablename__ = "ledger_balances"

    account: Mapped[str] = mapped_column(String(120), primary_key=True)
    balance: Mapped[int] = mapped_column(BigInteger)


class LedgerNumbers(Base):
    """The next transfer number no process has taken: a process of a room on several takes a block of them at a
    time (the row locked for it), so numbers never collide and a move costs no round trip for its number."""

    __tablename__ = "ledger_numbers"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    next_number: Mapped[int] = mapped_column(BigInteger)


class HandRecord(Base):
    __tablename__ = "hands"
    __table_args__ = (Index("ix_hands_open", "ended_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_id: Mapped[str] = mapped_column(String(120), unique=True)
    table_id: Mapped[str] = mapped_column(String(64), index=True)
    tournament: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    started_at: Mapped[float] = mapped_column(Float)
    ended_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    void: Mapped[bool] = mapped_column(Boolean, default=False)
    start_stacks: Mapped[dict] = mapped_column(JSON)                 # player -> chips at the start
    end_stacks: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    rake: Mapped[int] = mapped_column(BigInteger, default=0)
    events: Mapped[list | None] = mapped_column(JSON, nullable=True)   # the hand's events as wire dicts
    event_times: Mapped[list | None] = mapped_column(JSON, nullable=True)   # when each event happened (SEC-1)


class HandPlayer(Base):
    """Who played which hand: what "my hand history" reads."""

    __tablename__ = "hand_players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_id: Mapped[str] = mapped_column(ForeignKey("hands.hand_id"), index=True)
    player_id: Mapped[str] = mapped_column(String(20), index=True)


class SessionToken(Base):
    """A login's token (STAFF-3): only its SHA-256 is stored; idle expiry renewed while in use."""

    __tablename__ = "session_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    player_id: Mapped[str] = mapped_column(String(20))
    nickname_key: Mapped[str] = mapped_column(String(20), index=True)
    created_at: Mapped[float] = mapped_column(Float)
    used_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)
    ended_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    end_reason: Mapped[str | None] = mapped_column(String(40), nullable=True)


class AccountChange(Base):
    """A role change or a ban, from any process: running rooms poll these to reach live sessions (STAFF-3)."""

    __tablename__ = "account_changes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    nickname_key: Mapped[str] = mapped_column(String(20))
    what: Mapped[str] = mapped_column(String(16))                   # "role", "closed"
    at: Mapped[float] = mapped_column(Float, index=True)


class ChatLine(Base):
    __tablename__ = "chat_lines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(64), index=True)
    hand_id: Mapped[str | None] = mapped_column(String(120), nullable=True)
    player_id: Mapped[str] = mapped_column(String(20), index=True)
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)
    blocked: Mapped[bool] = mapped_column(Boolean, default=False)     # kept even when not shown (HR-CHAT-1)


class ConnectionRecord(Base):
    __tablename__ = "connections"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(String(20), index=True, nullable=True)
    ip: Mapped[str] = mapped_column(String(64))
    device_id: Mapped[str | None] = mapped_column(String(128), nullable=True)
    connected_at: Mapped[float] = mapped_column(Float)
    disconnected_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class Refusal(Base):
    __tablename__ = "hit_and_run_refusals"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(String(20), index=True)
    blind_level: Mapped[str] = mapped_column(String(40))
    at: Mapped[float] = mapped_column(Float)


class DepartureRecord(Base):
    __tablename__ = "departures"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(String(20), index=True)
    game_key: Mapped[str] = mapped_column(String(60))
    table_id: Mapped[str] = mapped_column(String(64))
    stack: Mapped[int] = mapped_column(BigInteger)
    at: Mapped[float] = mapped_column(Float)
    arrived: Mapped[bool] = mapped_column(Boolean, default=False, server_default=sa_false())  # a sit, not a leave


class AuditRecord(Base):
    """One link of the audit chain (SEC-5): ``previous_hash`` is unique, so two writers can never fork it."""

    __tablename__ = "audit_records"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(40), index=True)
    data: Mapped[dict] = mapped_column(JSON)
    at: Mapped[float] = mapped_column(Float)
    previous_hash: Mapped[str] = mapped_column(String(64), unique=True)
    hash: Mapped[str] = mapped_column(String(64), unique=True)


class HandFactsRecord(Base):
    """What one ended hand says about pairs of players (:mod:`pokerroom.security.facts`), packed with msgpack."""

    __tablename__ = "hand_facts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_id: Mapped[str] = mapped_column(String(120), unique=True)
    table_id: Mapped[str] = mapped_column(String(64))
    tournament: Mapped[str | None] = mapped_column(String(32), nullable=True)
    at: Mapped[float] = mapped_column(Float, index=True)
    data: Mapped[bytes] = mapped_column(LargeBinary)


class Case(Base):
    __tablename__ = "cases"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str] = mapped_column(String(120))
    players: Mapped[list] = mapped_column(JSON)
    state: Mapped[str] = mapped_column(String(16), index=True)             # "open" | "decided"
    opened_by: Mapped[str] = mapped_column(String(20))
    opened_at: Mapped[float] = mapped_column(Float)
    decision: Mapped[str | None] = mapped_column(String(200), nullable=True)
    decided_by: Mapped[str | None] = mapped_column(String(20), nullable=True)
    decided_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class CaseHand(Base):
    __tablename__ = "case_hands"
    __table_args__ = (Index("ix_case_hands_case_hand", "case_id", "hand_id", unique=True),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"))
    hand_id: Mapped[str] = mapped_column(String(120))
    by: Mapped[str] = mapped_column(String(20))
    at: Mapped[float] = mapped_column(Float)


class CaseNote(Base):
    __tablename__ = "case_notes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    case_id: Mapped[int] = mapped_column(ForeignKey("cases.id"), index=True)
    by: Mapped[str] = mapped_column(String(20))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


class Mute(Base):
    """HR-CHAT-3: a player's chat muted at one table (or room-wide: ``table_id`` None) until ``until`` (None: ever)."""

    __tablename__ = "mutes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(String(20), index=True)
    table_id: Mapped[str | None] = mapped_column(String(64), nullable=True)
    until: Mapped[float | None] = mapped_column(Float, nullable=True)
    reason: Mapped[str] = mapped_column(String(200))
    by: Mapped[str] = mapped_column(String(20))
    at: Mapped[float] = mapped_column(Float)
    lifted_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class Restriction(Base):
    """Linked accounts the security team keeps apart: never at the same cash table."""

    __tablename__ = "restrictions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    a: Mapped[str] = mapped_column(String(20), index=True)
    b: Mapped[str] = mapped_column(String(20), index=True)
    reason: Mapped[str] = mapped_column(String(200))
    by: Mapped[str] = mapped_column(String(20))
    at: Mapped[float] = mapped_column(Float)


class NicknameReset(Base):
    """AC-3: the security team renamed ``old`` to ``new``; history under the old name stays as it was."""

    __tablename__ = "nickname_resets"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    old: Mapped[str] = mapped_column(String(20), index=True)
    new: Mapped[str] = mapped_column(String(20), index=True)
    reason: Mapped[str] = mapped_column(String(200))
    by: Mapped[str] = mapped_column(String(20))
    at: Mapped[float] = mapped_column(Float)


class TournamentRecord(Base):
    """A tournament: its name, state and who created it, kept after it ends (ids are never reused)."""

    __tablename__ = "tournaments"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    state: Mapped[str] = mapped_column(String(16), index=True)
    created_by: Mapped[str] = mapped_column(String(20))
    updated_at: Mapped[float] = mapped_column(Float)


# What a registering or running tournament's director is, for recovery after a crash (TR-REFUND): the rows of
# tournament.saved_state, column for field. Each step upserts only the rows it changed, in the transaction of
# its ledger transfers; a finished or cancelled tournament's rows are deleted. No row holds a hand or a deck:
# a table's chips are those at the start of its hand in play (HR-RNG-2).


class TournamentStateRow(Base):
    """The director's scalars, rewritten every step."""

    __tablename__ = "tournament_states"
    tournament: Mapped[str] = mapped_column(String(32), primary_key=True)
    state: Mapped[str] = mapped_column(String(16))
    awaiting_approval: Mapped[bool] = mapped_column(Boolean)
    level: Mapped[int] = mapped_column(Integer)
    paused: Mapped[bool] = mapped_column(Boolean)
    on_break: Mapped[bool] = mapped_column(Boolean)
    late_open: Mapped[bool] = mapped_column(Boolean)
    rebuys_open: Mapped[bool] = mapped_column(Boolean)
    paid_places: Mapped[int] = mapped_column(Integer)
    in_money: Mapped[bool] = mapped_column(Boolean)
    hand_for_hand: Mapped[bool] = mapped_column(Boolean)
    deal_made: Mapped[bool] = mapped_column(Boolean)
    entries_total: Mapped[int] = mapped_column(Integer)
    collected: Mapped[int] = mapped_column(BigInteger)
    pool_balance: Mapped[int] = mapped_column(BigInteger)
    prizes_paid: Mapped[int] = mapped_column(BigInteger)
    table_count: Mapped[int] = mapped_column(Integer)
    registrations: Mapped[int] = mapped_column(Integer)
    winner: Mapped[str] = mapped_column(String(20))
    round_played: Mapped[list] = mapped_column(JSON)        # table ids: hand-for-hand
    round_busts: Mapped[list] = mapped_column(JSON)         # [player, start stack, table, dealing order]
    protected: Mapped[list] = mapped_column(JSON)           # [table, player, hand number]: HR-DC-4
    pending_deal: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    rng: Mapped[list] = mapped_column(JSON)                 # the seeded generator's state (TR-PLAY-4)


class TournamentTermsRow(Base):
    """Spec, payout table, prizes, substitutes and break order: written when they change."""

    __tablename__ = "tournament_terms"
    tournament: Mapped[str] = mapped_column(String(32), primary_key=True)
    spec: Mapped[dict] = mapped_column(JSON)
    payouts: Mapped[dict] = mapped_column(JSON)
    prizes: Mapped[list | None] = mapped_column(JSON, nullable=True)
    substitutes: Mapped[list] = mapped_column(JSON)
    break_order: Mapped[list] = mapped_column(JSON)
    queued_moves: Mapped[list] = mapped_column(JSON, default=list)   # [player, to table, by]: TR-PLAY-4


class TournamentTableRow(Base):
    """One table: its seats with the chips each had at the start of the hand in play, and the button."""

    __tablename__ = "tournament_tables"
    tournament: Mapped[str] = mapped_column(String(32), primary_key=True)
    table: Mapped[str] = mapped_column(String(48), primary_key=True)
    size: Mapped[int] = mapped_column(Integer)
    hand_number: Mapped[int] = mapped_column(Integer)
    button: Mapped[int | None] = mapped_column(Integer, nullable=True)
    blinds: Mapped[list] = mapped_column(JSON)
    seats: Mapped[list] = mapped_column(JSON)               # [seat, player, chips]


class TournamentEntryRow(Base):
    """One entry, live or busted: what it paid (what a refund returns, TR-REFUND-3), bounties and stakes."""

    __tablename__ = "tournament_entries"
    tournament: Mapped[str] = mapped_column(String(32), primary_key=True)
    player: Mapped[str] = mapped_column(String(20), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    fee: Mapped[int] = mapped_column(BigInteger)
    paid_pool: Mapped[int] = mapped_column(BigInteger)
    paid_bounty: Mapped[int] = mapped_column(BigInteger)
    rebuys: Mapped[int] = mapped_column(Integer)
    add_on: Mapped[bool] = mapped_column(Boolean)
    own_bounty: Mapped[int] = mapped_column(BigInteger)
    held: Mapped[int] = mapped_column(BigInteger)
    source: Mapped[str] = mapped_column(String(120))
    ticket: Mapped[bool] = mapped_column(Boolean)
    table: Mapped[str] = mapped_column(String(48))
    place: Mapped[list] = mapped_column(JSON)
    stakes: Mapped[list] = mapped_column(JSON)              # [backer, percent, price]: TR-STAKE
    ordinal: Mapped[int] = mapped_column(Integer)
    out: Mapped[int | None] = mapped_column(Integer, nullable=True)      # order among the busted
    unplaced: Mapped[list | None] = mapped_column(JSON, nullable=True)   # busted in late registration


class CasinoRound(Base):
    """A casino round's result once settled or voided: results history (CR-7) and claims (BOB-6)."""

    __tablename__ = "casino_rounds"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(64))
    number: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(32))
    result: Mapped[str] = mapped_column(String(200))
    void: Mapped[bool] = mapped_column(Boolean, default=False)
    cards: Mapped[list] = mapped_column(JSON)               # every card dealt, in order, after the round
    at: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("ix_casino_rounds_table_number", "table_id", "number", unique=True),)


class CasinoBet(Base):
    """One player's bet on one market of a round, with what it handed back: their bet history (CR-7)."""

    __tablename__ = "casino_bets"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(64))
    number: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[str] = mapped_column(String(20), index=True)
    market: Mapped[str] = mapped_column(String(40))
    staked: Mapped[int] = mapped_column(BigInteger)
    returned: Mapped[int] = mapped_column(BigInteger)
    detail: Mapped[str] = mapped_column(String(60))
    at: Mapped[float] = mapped_column(Float)


class CashTableRecord(Base):
    """A cash table a director opened at run time (config tables live in the config): reopened on restart."""

    __tablename__ = "cash_tables"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    definition: Mapped[dict] = mapped_column(JSON)           # the table's entry, as in config/room.toml
    opened_by: Mapped[str] = mapped_column(String(20))
    opened_at: Mapped[float] = mapped_column(Float)
    closed_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class TableLease(Base):
    """Which process (``node``) owns a table until ``expires_at``; ``epoch`` grows at every new tenure (fencing)."""

    __tablename__ = "table_leases"
    resource: Mapped[str] = mapped_column(String(80), primary_key=True)     # "cash:nl-1", "tournament:t-7"
    node: Mapped[str] = mapped_column(String(64))
    expires_at: Mapped[float] = mapped_column(Float)        # the holder's clock (UTC seconds); 0: released
    epoch: Mapped[int] = mapped_column(BigInteger)


class TableSeat(Base):
    """Who sits where at a cash table now (one row a seat taken, gone when its player leaves), kept with the seat
    audit records: what a takeover reads, a row a seat, instead of the table's whole seat history (issue 21)."""

    __tablename__ = "table_seats"
    table_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(20), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
