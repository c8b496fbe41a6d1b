"""The recorder built alone, fed through its port: a table's batches become stored hands, transfers and seat records
in the port's call (SEC-1, SEC-3) -- and in a room, none of it waits for the bus, which carries a plain copy."""

from __future__ import annotations

from typing import Any

from twisted.internet.task import Clock

from pokerroom.app import narrate, narrated_table
from pokerroom.bus.in_process import InProcessBus
from pokerroom.bus.records import LedgerTransfer, TableBatch, packb, unpackb
from pokerroom.money.accounts import WORLD, cash, table_escrow
from pokerroom.money.ledger import Ledger
from pokerroom.players import AccountRules
from pokerroom.poker import events as he
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.recorder import FullBatch, HandStacks, Recorder
from pokerroom.table import CashTable, InMemorySeatingHistory
from pokerroom.table import events as te
from pokerroom.table.config import tables_from_config
from pokerroom.table.events import table_event_to_dict
from tests.support.clocked_room import TABLES, play_until, player, request

RULES = tables_from_config(TABLES)[0]


class TableFeed:
    """A cash table driven by hand, its batches handed to the recorder's port with the transfers a table host
    makes for them (buy-ins from the wallet; a hand's one settlement at its end) and the hand's stacks, which the
    recorder reads and does not track again."""

    def __init__(self, recorder: Recorder, ledger: Ledger) -> None:
        self.recorder, self.ledger = recorder, ledger
        self.table = CashTable(RULES, InMemorySeatingHistory(), shuffle=lambda: list(range(52)))
        self.now = 1_000.0
        self.hand: HandStacks | None = None

    def feed(self, events: list) -> None:
        transfers: dict[int, Any] = {}
        for i, event in enumerate(events):
            if isinstance(event, te.PlayerSeated):
                transfers[i] = self.ledger.move(cash(event.player), table_escrow("t1", event.player), event.stack,
                                                "buy_in", "t1", self.now)
            elif isinstance(event, te.HandEvent):
                e = event.event
                if isinstance(e, he.HandStarted):
                    self.hand = HandStacks(e.hand_id)
                elif isinstance(e, he.SeatDealtIn):
                    self.hand.dealt(e.seat, e.player, e.stack)
                elif isinstance(e, he.HandEnded):
                    self.hand.ended(e.stacks, e.rake)
                elif isinstance(e, he.DeckRevealed):
                    hand = self.hand
                    settled = self.ledger.settle_hand("t1", hand.hand_id, hand.start, hand.end, hand.rake, self.now)
                    if settled is not None:
                        transfers[i] = settled
        self.recorder.record(FullBatch(RULES, events, [table_event_to_dict(e) for e in events], self.now, transfers,
                                       self.hand))

    @property
    def hand_id(self) -> str:
        return self.hand.hand_id

    @property
    def end(self) -> dict[str, int]:
        return self.hand.end

    def next_batch(self) -> list:
        deadline = self.table.next_deadline()
        self.now = deadline.at
        events = self.table.fire(deadline, self.now)
        self.feed(events)
        return events


def funded_ledger(store) -> Ledger:   # noqa: ANN001
    ledger = Ledger()
    deposits = [ledger.move(WORLD, cash(p), 5_000, "deposit", p, 1.0) for p in ("ana", "bob")]
    store.ledger.save_transfers(deposits)                    # the wallet stored these; the table's are the recorder's
    return ledger


def test_SEC_1_the_recorder_alone_stores_a_tables_seats_transfers_and_its_hand_start_and_end_in_the_ports_call(store):
    recorder = Recorder(store, Clock())                      # no bus at all: the port is its only way in
    ledger = funded_ledger(store)
    feed = TableFeed(recorder, ledger)
    feed.feed(feed.table.sit("ana", None, 1_000, feed.now) + feed.table.sit("bob", None, 1_000, feed.now))
    joined = [r.data for r in store.audit_log.audit_records("seat")]
    assert [(r["what"], r["player"], r["stack"]) for r in joined] == [("joined", "ana", 1_000),
                                                                       ("joined", "bob", 1_000)]
    first = feed.next_batch()                                # dealt: blinds and hole cards
    assert any(isinstance(e, te.HandEvent) and isinstance(e.event, he.HoleCardsDealt) for e in first)
    started = store.security.hand(feed.hand_id)
    assert started.start_stacks == {"ana": 1_000, "bob": 1_000} and started.ended_at is None   # before any card
    while store.security.hand(feed.hand_id).ended_at is None:
        feed.next_batch()                                    # every decision times out
    hand = store.security.hand(feed.hand_id)
    assert hand.end_stacks == feed.end and sum(hand.end_stacks.values()) + hand.rake == 2_000
    assert [e["type"] for e in hand.events][0] == "hand_started" and hand.events[-1]["type"] == "deck_revealed"
    assert {a: v for a, v in store.ledger.load_ledger().balances.items() if v} == \
        {a: v for a, v in ledger.balances.items() if v}      # every transfer the table made, stored once
    assert store.audit_log.audit_chain_intact()


def test_a_closed_table_is_forgotten_and_one_opened_again_under_its_id_starts_afresh(store):
    recorder = Recorder(store, Clock())
    ledger = funded_ledger(store)
    feed = TableFeed(recorder, ledger)
    feed.feed(feed.table.sit("ana", None, 1_000, feed.now) + feed.table.sit("bob", None, 1_000, feed.now))
    feed.next_batch()
    recorder.table_closed("t1")
    again = TableFeed(recorder, ledger)                      # the same id: its seats are its own
    again.feed(again.table.sit("ana", None, 1_000, again.now))
    again.feed(again.table.sit_out("ana", again.now))
    sat_out = store.audit_log.audit_records("seat")[-1].data
    assert (sat_out["what"], sat_out["player"]) == ("sat_out", "ana")


class DeafBus(InProcessBus):
    """A bus that loses every message (as a broker may drop one): what it was asked to carry is kept here."""

    def __init__(self) -> None:
        super().__init__()
        self.published: list[tuple[str, Any]] = []

    def publish(self, subject: str, payload: Any) -> None:
        self.published.append((subject, payload))


def test_no_hand_or_transfer_record_waits_for_the_bus_and_the_full_stream_is_a_plain_record(store):
    clock = Clock()
    bus = DeafBus()
    room = RoomServices(tables_from_config(TABLES), store, clock, account_rules=AccountRules(), bus=bus)
    room.startService()
    for name in ("ana", "bob"):
        assert request(room, player(room, name)[0], "join", table="t1", buy_in=1_000)["ok"]
    play_until(room, clock, 2)
    stored = store.ledger.load_ledger()
    assert {a: v for a, v in stored.balances.items() if v} == {a: v for a, v in room.wallet.books.balances.items() if v}
    assert {"t1-1", "t1-2"} <= {h.hand_id for h in store.hands.hands_of("ana", 10) if h.ended_at is not None}
    full = [payload for subject, payload in bus.published if subject == "table.t1.full"]
    assert full and all(type(batch) is TableBatch for batch in full)
    for batch in full:
        copy = unpackb(packb(batch))                         # what another process receives
        assert (copy.table, copy.game, copy.at, len(copy.events)) == (batch.table, batch.game, batch.at,
                                                                       len(batch.events))
        assert all(type(t) is LedgerTransfer for _, t in copy.transfers) and copy.transfers == batch.transfers
    moved = {t.number for batch in full for _, t in batch.transfers}
    assert {t.number for t in room.wallet.books.transfers if t.reason != "deposit"} == moved   # each once, in a batch


class FullStreamFromAfar(InProcessBus):
    """A bus on which the full streams arrive as another process gets them: packed and unpacked."""

    def publish(self, subject: str, payload: Any) -> None:
        super().publish(subject, unpackb(packb(payload)) if subject.endswith(".full") else payload)


def test_the_demos_narrator_reads_the_plain_full_stream_as_another_process_would_get_it(store, capsys):
    clock = Clock()
    room = RoomServices(tables_from_config(TABLES), store, clock, account_rules=AccountRules(),
                        bus=FullStreamFromAfar())
    room.startService()
    narrate(room, "t1")
    for name in ("ana", "bob"):
        assert request(room, player(room, name)[0], "join", table="t1", buy_in=1_000)["ok"]
    play_until(room, clock, 1)
    clock.advance(0)
    told = capsys.readouterr().out
    assert "ana sits at seat 1 with 1000" in told and "*** Hand t1-1: NLHE 5/10" in told
    assert "posts the big blind 10" in told and " wins " in told


def test_a_demo_process_that_plays_no_table_narrates_none_and_one_that_plays_some_narrates_its_first(store):
    """On several processes a demo process may hold no table's lease (issue 21): it listens all the same."""
    room = RoomServices(tables_from_config(TABLES), store, Clock(), account_rules=AccountRules(), bus=InProcessBus())
    room.startService()
    assert narrated_table(room) == "t1"
    for table_id in list(room.tables.runners):
        room.tables.drop_table(table_id)
    assert narrated_table(room) is None


class CountedStore:
    """A store whose batches only count: what the writer sends, and in how many transactions."""

    def __init__(self) -> None:
        self.batches: list[int] = []

    def batch(self, calls: list) -> list:
        self.batches.append(len(calls))
        return [(True, function(*args)) for function, args in calls]


def test_a_busy_writer_gathers_writes_nobody_waits_for_but_sends_an_outcomes_write_as_soon_as_the_last_batch_lands():
    """Group commit without the wait: while the writer is busy the next writes gather for WRITE_GATHER, so many
    share a transaction; but once an outcome's frames wait for what is queued (``landed``, durable before
    visible), the batch holding it goes the moment the one before lands -- a hand's end is not shown a gather
    late."""
    from pokerroom.shell.recorder import WRITE_GATHER
    from tests.support.inline_threads import InlineClock, InlinePool

    clock, pool, store = InlineClock(), InlinePool(), CountedStore()
    pool.start()
    recorder = Recorder(store, clock, pool)
    pool.slow = True
    recorder.write(lambda: "first")                         # finds the writer idle: on its way at once
    recorder.write(lambda: "second")                        # the writer busy: queued
    pool.catch_up()
    assert store.batches == [1]
    recorder.write(lambda: "third")                         # gathering: nobody waits for these two
    clock.advance(WRITE_GATHER / 2)
    pool.catch_up()
    assert store.batches == [1], "the gathered writes went before the gather was over"
    clock.advance(WRITE_GATHER / 2)
    pool.catch_up()
    assert store.batches == [1, 2]

    recorder.write(lambda: "a hand's end")                  # queued while the writer gathers
    shown = recorder.landed()                               # ... until its frames wait for it: it goes now
    assert not shown.called
    pool.catch_up()
    assert store.batches == [1, 2, 1] and shown.called, "the outcome's write waited for the gather"

    recorder.write(lambda: "another hand's end")            # gathering again: sent at once when awaited
    first = recorder.landed()
    recorder.write(lambda: "a third hand's end")            # the writer busy: queued behind it
    second = recorder.landed()
    assert len(pool.waiting) == 1 and not first.called
    pool.catch_up()                                         # the first lands; the second goes without a gather
    assert store.batches == [1, 2, 1, 1, 1] and first.called and second.called
