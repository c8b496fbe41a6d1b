"""A casino table as the table pipeline runs it (:class:`~pokerroom.shell.runner.Runner`).

The :class:`~pokerroom.casino.table.CasinoTable` is pure and asks for one
timer (:meth:`~pokerroom.casino.table.CasinoTable.due`: betting, a decision,
the pause between rounds, or the 24 hours a round waits for a disconnected
player, CR-6), counted from when its ``key`` (round, phase, whose turn) first
shows: while the key stays the same the deadline does, so one player's
decision does not restart everyone's clock. The runner turns that into a
:class:`CasinoDeadline` the room's one :class:`~pokerroom.shell.runner.Timer`
arms, and carries it out with an ``Expire`` -- voiding the round when the
table fails on it, so a bug never stops the table.

A batch's money goes through the wallet (stakes at once; a round's settlement
or refund stored with the round, CR-4, CR-5), a round's end becomes the
:class:`~pokerroom.shell.recorder.CasinoRound` the recorder stores, and the
events go public, or to their player only.
"""

from __future__ import annotations

from dataclasses import dataclass

from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from pokerroom.casino import commands as cc
from pokerroom.casino.events import PRIVATE, RoundSettled, RoundVoided, event_to_dict
from pokerroom.casino.money import casino_postings
from pokerroom.casino.table import CasinoTable
from pokerroom.errors import RuleViolation
from pokerroom.money.ledger import Transfer
from pokerroom.shell.audiences import Audiences
from pokerroom.shell.recorder import CasinoRound
from pokerroom.shell.wallet import Wallet


@dataclass(frozen=True, slots=True)
class CasinoDeadline:
    """The table's timer: due at ``at`` for the phase ``key`` names."""

    at: float
    key: tuple

    @property
    def deals(self) -> bool:
        return False                    # a round's outcome is held by the floor's frames, not by its timer


class CasinoRunner:
    log = Logger()

    def __init__(self, table: CasinoTable, reactor: IReactorTime, wallet: Wallet) -> None:
        self.table = table
        self.reactor = reactor
        self.wallet = wallet
        self._deadline: CasinoDeadline | None = None     # the one the table's key asked for, counted from then

    @property
    def table_id(self) -> str:
        return self.table.table_id

    def apply(self, command: cc.CasinoCommand, now: float) -> list:
        return self.table.apply(command)

    def next_deadline(self) -> CasinoDeadline | None:
        due = self.table.due()
        current = self._deadline
        if current is not None and current.key == due.key:
            return current
        at = due.at if due.after is None else self.reactor.seconds() + due.after
        self._deadline = CasinoDeadline(at, due.key)
        return self._deadline

    def fire(self, deadline: CasinoDeadline, now: float) -> list:
        """The phase's time is up: the table expires it (a key moved on since: nothing, the timer arms again).
        A table that fails on it has its round voided for a technical fault, and goes on."""
        self._deadline = None               # the next one counts from now, the same key again included
        if self.table.due().key != deadline.key:
            return []
        try:
            return self.table.apply(cc.Expire())
        except Exception:
            self.log.failure("casino table {table} failed; voiding its round", table=self.table.table_id)
            try:
                return self.table.apply(cc.Void("a technical fault at the table"))
            except RuleViolation:
                return []

    def transfers(self, events: list) -> dict[int, Transfer]:
        """The money each event names, through the wallet and flagged (AC-6): a stake stored at once, a round's
        settlement or refund stored with the round."""
        out = {}
        for i, e in enumerate(events):
            made = casino_postings(e)
            if made is not None:
                out[i] = self.wallet.transfer(*made, store=not isinstance(e, RoundSettled | RoundVoided))
        return out

    def full(self, events: list, transfers: dict[int, Transfer], now: float) -> list[CasinoRound]:
        """Each round the batch ends, as the recorder stores it (a round nobody bet on only where the game deals
        without bets, for its history)."""
        table = self.table
        out = []
        for i, e in enumerate(events):
            if not isinstance(e, RoundSettled | RoundVoided):
                continue
            moved = (transfers[i],) if i in transfers else ()
            if not (moved or isinstance(e, RoundVoided) or table.deals_without_bets):
                continue
            if isinstance(e, RoundSettled):
                bets = tuple((p.player, p.market, p.staked, p.returned, p.detail) for p in e.payouts)
                result, void = e.result, False
            else:
                bets = tuple((player, "refund", amount, amount, e.reason) for player, amount in e.refunds)
                result, void = f"void: {e.reason}", True
            out.append(CasinoRound(table.table_id, e.round, table.game, result, void, tuple(table.dealt), bets, moved,
                                   now))
        return out

    def audiences(self, events: list) -> list[tuple[dict, Audiences]]:
        """Public events to everyone at the table; a player's own stakes, bets and decisions, and a round's payouts
        and refunds, to that player only (who had what on the table is each player's own business)."""
        public: list[dict] = []
        private: dict[str, list[dict]] = {}
        for e in events:
            if isinstance(e, PRIVATE):
                private.setdefault(e.player, []).append(event_to_dict(e))
            elif isinstance(e, RoundVoided):
                public.append({"type": "round_voided", "table": e.table, "round": e.round, "reason": e.reason})
                for player, amount in e.refunds:
                    private.setdefault(player, []).append({"type": "refund", "round": e.round, "amount": amount})
            elif isinstance(e, RoundSettled):
                public.append({"type": "round_settled", "table": e.table, "round": e.round, "result": e.result})
                for p in e.payouts:
                    private.setdefault(p.player, []).append({"type": "payout", "round": e.round, "market": p.market,
                                                             "staked": p.staked, "returned": p.returned,
                                                             "detail": p.detail})
            else:
                public.append(event_to_dict(e))
        own = {player: public + mine for player, mine in private.items()}
        return [({"type": "casino_events", "table": self.table.table_id}, Audiences(public, own))]

