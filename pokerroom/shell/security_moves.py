"""What the security desk asks of the table process: whether a player is idle, and a rename's move of the wallet.

The security desk (:mod:`pokerroom.shell.security_desk`) serves the team's
requests in a gateway process; the cash tables and the wallet are the table
process's (docs/architecture.md, the process line). The desk asks them on the
bus, and this responder answers in the table process:

* ``security.idle`` (:class:`~pokerroom.bus.records.IdleRead`): answered None
  when nothing of the player's would stay behind under their old name -- no
  seat or place on a waiting list at a cash table, no money in an account of
  theirs but the wallet -- else refused ``player_busy`` (AC-3);
* ``security.rename`` (:class:`~pokerroom.bus.records.Rename`): the account
  renamed with its wallet in one transaction, the check above asked again of
  every node (the player may sit at another process's table; a node that
  does not answer refuses it, ``node_unanswered``) and made once more here in
  the call that moves the money (no seat or chips of this node's slip in
  between; the account frozen first keeps them off the others'), the wallet's
  balance moved to the new name (flagged at once, AC-6; stored with the
  rename, undone in memory if the rename is not), then what reached the old
  name meanwhile, and the day's deposits (AC-5). Answered ``{"moved": <the
  balance moved>}`` once stored.

Who can ask: only a service on the bus (a client cannot publish); the desk
asks after its role check (SEC-4), once per team request. No request names
an amount or an account to pay: a rename moves only the named player's
wallet to the same account's new name (the store refuses a name that is
taken, ``nickname_taken``), and a void reverses only what the stored hands
say the player won, once; each is logged. A forged request can do no more
than the desk itself could.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from twisted.internet import defer

from pokerroom.bus import Bus
from pokerroom.bus.records import IdleRead, Rename, VoidWinnings
from pokerroom.bus.subjects import SECURITY_IDLE, SECURITY_RENAME, SECURITY_VOID
from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import PLAYER_KINDS, Kind, cash, parse
from pokerroom.money.ledger import Posting, Transfer
from pokerroom.shell.every_node import answer_every_gather, ask_every_node

if TYPE_CHECKING:
    from pokerroom.shell.recorder import Recorder
    from pokerroom.shell.table_host import TableHost
    from pokerroom.shell.wallet import Wallet

_AWAY_FROM_WALLET = PLAYER_KINDS - {Kind.WALLET}    # a player's money besides the wallet: chips, stakes, tickets, T$


def busy(player: str, where: str) -> RuleViolation:
    """The refusal of a rename while something of the player's would stay under the old name (AC-3)."""
    return RuleViolation("player_busy", f"{player} {where}: rename them once they have left every table and "
                                        "tournament and hold money only in their wallet (freeze them first)", "AC-3")


def void_postings(player: str, start: dict[str, int], end: dict[str, int]) -> list[Posting]:
    """AC-7 for one hand: what ``player`` won goes back to those who lost it, in proportion to their losses.

    The largest remainders get the odd units, so the postings always balance.
    """
    won = end.get(player, 0) - start.get(player, 0)
    losses = {p: start[p] - end.get(p, 0) for p in start if p != player and start[p] > end.get(p, 0)}
    if won <= 0 or not losses:
        return []
    total = sum(losses.values())
    back = min(won, total)
    shares = {p: back * loss // total for p, loss in losses.items()}
    odd = back - sum(shares.values())
    for p in sorted(losses, key=lambda p: (-(back * losses[p] % total), p))[:odd]:
        shares[p] += 1
    return [Posting(cash(player), -back), *(Posting(cash(p), amount) for p, amount in shares.items() if amount)]


def transfer_dict(t: Transfer) -> dict:
    return {"number": t.number, "reason": t.reason, "reference": t.reference, "at": t.at,
            "postings": [[p.account, p.amount] for p in t.postings]}


def _held_away(account: str, player: str) -> bool:
    """Whether ``account`` is the player's money somewhere other than their wallet."""
    read = parse(account)
    return read is not None and read.kind in _AWAY_FROM_WALLET and read.player == player


class SecurityMoves:
    def __init__(self, bus: Bus, wallet: Wallet, host: TableHost, recorder: Recorder) -> None:
        self.bus = bus                      # a rename asks every node whether the player is idle there
        self.wallet = wallet
        self.host = host                    # the cash tables of this process: their seats and waiting lists
        self.recorder = recorder            # the writer: a rename and its move in one transaction; the audit log
        self.store = recorder.store
        self.voided: set[tuple[str, str]] = set()           # (hand, player) voided since start: a double click
        answer_every_gather(bus, SECURITY_IDLE, self._idle)      # every node: nothing of theirs at its tables
        # moves, not reads: one node answers each (money and hands are in the shared database)
        bus.respond(SECURITY_RENAME, self._rename, shared=True)
        bus.respond(SECURITY_VOID, self._void, shared=True)

    def _read(self, function: Callable[[], Any]) -> defer.Deferred:
        return self.recorder.write(function, quiet=False)

    def verify_idle(self, player: str) -> None:
        """Nothing of the player's may stay behind under the old name: no seat, place in a queue, or money
        anywhere but the wallet (table and casino chips, T$, tickets, stakes)."""
        tables = [t for t, runner in sorted(self.host.runners.items())
                  if runner.table.seat_of(player) is not None or player in runner.table.waiting_list]
        if tables:
            raise busy(player, f"at {tables[0]}")
        money = sorted(a for a, balance in self.wallet.books.balances.items() if balance and _held_away(a, player))
        if money:
            raise busy(player, f"holds {money[0]}")

    def _idle(self, read: IdleRead) -> None:
        self.verify_idle(read.player)

    def _rename(self, rename: Rename) -> defer.Deferred:
        """Every node asked again whether the player is idle at its tables (this one among them: a decision, so a
        silent node refuses it, ``node_unanswered``), then the move, this node's own check made once more in
        the call that moves the money."""
        asked = ask_every_node(self.bus, SECURITY_IDLE, IdleRead(rename.old), lambda answers: None, whole=True)
        return asked.addCallback(lambda _: self._move_renamed(rename))

    def _move_renamed(self, rename: Rename) -> defer.Deferred:
        old, new, wallet = rename.old, rename.new, self.wallet
        self.verify_idle(old)                               # again, in the call that moves the money
        balance = wallet.balance(old)
        moved = [wallet.move(cash(old), cash(new), balance, "nickname reset", old, store=False)] if balance else []

        def undo(failure: Any) -> Any:                      # not stored: the ledger in memory goes back as it was
            if moved:
                wallet.move(cash(new), cash(old), balance, "nickname reset undone", old, store=False)
            return failure

        def stored(_: Any) -> dict:
            late = wallet.balance(old)                      # money that reached the old name meanwhile follows
            if late:
                wallet.move(cash(old), cash(new), late, "nickname reset", old)     # stored, flagged
            wallet.renamed(old, new)                        # AC-5: the day's deposits still count
            return {"moved": balance + late}

        d = self.recorder.write(self.store.security.rename_account, old, new, rename.key, rename.reason, rename.by,
                       rename.at, moved, quiet=False)
        return d.addCallbacks(stored, undo)

    def _void(self, asked: VoidWinnings) -> defer.Deferred:
        """``security.void``: the player's winnings of ended cash hands reversed, one transfer a hand, once per account
        (AC-7), from the hands as stored; the action logged with who asked and why (SEC-4) in the call that moved
        the money. Answered ``{"transfers": [...]}``."""
        player, wanted = asked.player, list(asked.hands)

        def gather() -> tuple[list, set[str], dict[str, str]]:
            rows = self.store.security.hands_by_id(wanted)
            names = sorted({p for h in rows for p in h.start_stacks} | {player})
            current = self.store.security.current_names(names)
            # the winner as the account is called now, and every name it had: a void is once per account
            wallets = [cash(n) for n in (current[player], *self.store.security.aliases_of(current[player]))]
            return rows, self.store.security.voided_hands(wanted, wallets), current

        def void(found: tuple[list, set[str], dict[str, str]]) -> dict:
            rows, done, current = found
            winner = current[player]
            plans = self._void_plans(winner, wanted, {h.hand_id: h for h in rows}, done, current)
            owed = sum(-postings[0].amount for _, postings in plans)
            have = self.wallet.balance(winner)
            if have < owed:
                raise RuleViolation("void_short", f"{winner}'s wallet holds {have} of the {owed} to reverse: "
                                                  "freeze them and void once their chips are off the tables", "AC-7")
            made = [self.wallet.transfer(postings, "void", hand_id) for hand_id, postings in plans]   # stored
            self.voided.update((hand_id, winner) for hand_id, _ in plans)   # before the store has them
            self.recorder.audit("security_action", action="void", by=asked.by, reason=asked.reason, player=winner,
                                case=asked.case, hands=[h for h, _ in plans], transfers=[t.number for t in made],
                                amount=owed)
            return {"transfers": [transfer_dict(t) for t in made]}

        return self._read(gather).addCallback(void)

    def _void_plans(self, winner: str, wanted: list[str], by_id: dict[str, Any], done: set[str],
                    current: dict[str, str]) -> list[tuple[str, list[Posting]]]:
        """Each hand's reversing postings; a hand that cannot be voided refuses the whole void (AC-7)."""
        plans = []
        for hand_id in wanted:
            hand = by_id.get(hand_id)
            if hand is None:
                raise RuleViolation("no_such_hand", f"there is no hand {hand_id}", "AC-7")
            if hand.ended_at is None:
                raise RuleViolation("hand_in_progress", f"hand {hand_id} is still being played", "SEC-2")
            if hand.tournament is not None or hand.void:
                raise RuleViolation("not_cash_hand", f"hand {hand_id} moved no money: only cash-game winnings are "
                                                     "voided", "AC-7")
            if hand_id in done or (hand_id, winner) in self.voided:
                raise RuleViolation("already_void", f"{winner}'s winnings of hand {hand_id} are already void",
                                    "AC-7")
            # the hand's names as the accounts are called now (a loser may have been renamed since: AC-3)
            start = {current.get(p, p): v for p, v in hand.start_stacks.items()}
            end = {current.get(p, p): v for p, v in (hand.end_stacks or {}).items()}
            postings = void_postings(winner, start, end)
            if postings:
                plans.append((hand_id, postings))
        if not plans:
            raise RuleViolation("nothing_won", f"{winner} won nothing in those hands", "AC-7")
        return plans
