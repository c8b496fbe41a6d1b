"""A player's own hand history and bet history, read back through the writer's queue.

Through the queue, so a hand that has just ended (a transfer just made) is
stored before it is read back. A hand shows the player's own cards and what
was shown at the table, never another player's mucked cards -- its events
(what the page replays) and, asked for, its PokerStars text (what the page
exports to the trackers) alike, both made from the events as the player's
seat may see them.
"""

from __future__ import annotations

from twisted.internet import defer

from pokerroom.bus import Bus
from pokerroom.bus.records import WalletRead
from pokerroom.bus.subjects import CASH_TABLES_KNOWN, WALLET_BALANCE
from pokerroom.gateway.sessions import Session
from pokerroom.money.accounts import cash, table_escrow
from pokerroom.money.ledger import Transfer
from pokerroom.poker import events as he
from pokerroom.poker.redact import Viewer
from pokerroom.poker.redact import redact as redact_hand_event
from pokerroom.protocol.schema import Request, ok
from pokerroom.shell.every_node import ask_every_node, union_sorted
from pokerroom.shell.hand_export import pokerstars_text, tournament_prices
from pokerroom.shell.recorder import Recorder


class Histories:
    def __init__(self, recorder: Recorder, bus: Bus) -> None:
        self.recorder = recorder
        self.bus = bus                          # the cash tables' host: the tables known; the wallet desk: the balance

    def _on_hand_history(self, session: Session, request: Request, limit: int = 20,
                         before: int | None = None, pokerstars: bool = False) -> defer.Deferred:
        player = session.player_id

        def read() -> tuple[list, dict]:                 # on the writer's thread: the page and its tournaments
            store = self.recorder.store
            hands = store.hands.hands_of(player, limit, before)
            return hands, tournament_prices(store, (h.tournament for h in hands)) if pokerstars else {}

        def shape(page: tuple[list, dict]) -> dict:
            hands, prices = page
            out = []
            for h in hands:
                events = he.events_from_stored(h.events)
                seat = next((e.seat for e in events if isinstance(e, he.SeatDealtIn) and e.player == player),
                            None)
                viewer = Viewer.player(seat) if seat is not None else Viewer.observer()
                shown = [e for e in (redact_hand_event(e, viewer, hand_ended=True) for e in events) if e is not None]
                hand = {"hand_id": h.hand_id, "number": h.id, "table": h.table_id, "tournament": h.tournament,
                        "started_at": h.started_at, "ended_at": h.ended_at, "void": h.void,
                        "start": h.start_stacks.get(player), "end": (h.end_stacks or {}).get(player),
                        "events": [he.event_to_dict(e) for e in shown]}
                if pokerstars:
                    hand["pokerstars"] = pokerstars_text(h, shown, prices, hero=player)
                out.append(hand)
            return ok(request, hands=out, next=hands[-1].id if len(hands) == limit else None)

        return self.recorder.write(read, quiet=False).addCallback(shape)

    def escrows(self, player: str) -> defer.Deferred:
        """The player's chip accounts at every cash table the room has known, closed ones too (their history)."""
        d = ask_every_node(self.bus, CASH_TABLES_KNOWN, None, union_sorted)          # each node: its tables
        return d.addCallback(lambda tables: sorted(table_escrow(table_id, player) for table_id in tables))

    def _on_bet_history(self, session: Session, request: Request, limit: int = 20,
                        before: int | None = None) -> defer.Deferred:
        player = session.player_id
        wallet = cash(player)

        def read(escrows: list[str]) -> defer.Deferred:
            return self.recorder.write(self.recorder.store.ledger.transfers_touching, [wallet, *escrows], limit,
                                       before, quiet=False).addCallback(shape, set(escrows))

        def shape(transfers: list[Transfer], escrows: set[str]) -> defer.Deferred:
            mine = [{"number": t.number, "reason": t.reason, "reference": t.reference, "at": t.at,
                     "wallet": sum(p.amount for p in t.postings if p.account == wallet),
                     "tables": sum(p.amount for p in t.postings if p.account in escrows)} for t in transfers]
            after = transfers[-1].number if len(transfers) == limit else None
            d = self.bus.request(WALLET_BALANCE, WalletRead(player))     # the wallet is the table process's
            return d.addCallback(lambda read: ok(request, transfers=mine, balance=read["balance"], next=after))

        return self.escrows(player).addCallback(read)
