"""The money a casino table's events move, posted to a ledger: the one money path of every casino game.

A table's commands return events (:mod:`pokerroom.casino.events`); three of
them move money, and :func:`casino_transfers` posts exactly those:

* :class:`~pokerroom.casino.events.Staked` -- the wallet ``cash:<player>`` to
  the player's stake account at the table ``casino:<table>:<player>`` (a bet, a
  double, a split, insurance);
* :class:`~pokerroom.casino.events.RoundSettled` -- one transfer for the whole
  round (CR-4): every payout's stake off the table, what it hands back to the
  wallet, and the difference to ``house:casino``;
* :class:`~pokerroom.casino.events.RoundVoided` -- one refund transfer (CR-5):
  every stake back to its wallet.

Every other event moves nothing. :func:`casino_postings` says what one event
moves; the shell (the casino floor) posts it through the wallet, which stores
and flags it, and the casino simulation posts it to a bare ledger and checks
the ledger after every round. After a settled or voided round every stake account of the table is
empty, since the table stakes and settles the same bets.
"""

from __future__ import annotations

from collections.abc import Iterable

from pokerroom.casino.events import RoundSettled, RoundVoided, Staked
from pokerroom.money.accounts import HOUSE_CASINO, cash, casino_escrow
from pokerroom.money.ledger import Ledger, Posting, Transfer

_MONEY = (Staked, RoundSettled, RoundVoided)


def casino_postings(event: object) -> tuple[list[Posting], str, str] | None:
    """The transfer ``event`` makes, as (postings, reason, reference) -- None for an event that moves no money. The
    reference of a round's money is ``<table>#<round>``. The casino floor posts it through the wallet (stored and
    flagged there); :func:`casino_transfers` posts it to a bare ledger (the simulation)."""
    if not isinstance(event, _MONEY):
        return None
    e = event
    if isinstance(e, Staked):
        return ([Posting(cash(e.player), -e.amount), Posting(casino_escrow(e.table, e.player), e.amount)],
                f"casino {e.why}", f"{e.table}#{e.round}")
    if isinstance(e, RoundSettled) and e.payouts:
        return _settlement(e), "casino round", f"{e.table}#{e.round}"
    if isinstance(e, RoundVoided) and e.refunds:
        postings = [Posting(casino_escrow(e.table, player), -amount) for player, amount in e.refunds]
        postings += [Posting(cash(player), amount) for player, amount in e.refunds]
        return postings, "casino round void", f"{e.table}#{e.round}"
    return None


def casino_transfers(ledger: Ledger, events: Iterable[object], at: float) -> list[Transfer]:
    """Post the money ``events`` name to ``ledger``, in event order; the transfers made, for the caller to store.

    Each transfer is checked by the ledger as it is made (balanced, no
    overdraft): a refused one raises :class:`~pokerroom.errors.RuleViolation`
    and leaves the transfers before it in place.
    """
    out: list[Transfer] = []
    for e in events:
        made = casino_postings(e)
        if made is None:
            continue
        postings, reason, reference = made
        if isinstance(e, Staked):               # the common two-posting move: the ledger's quick path
            out.append(ledger.move(postings[0].account, postings[1].account, e.amount, reason, reference, at))
        else:
            out.append(ledger.transfer(postings, reason, reference, at))
    return out


def _settlement(e: RoundSettled) -> list[Posting]:
    """Per payout: its stake off the table, its return to the wallet, the difference to the house.

    Summed per player first, in the order the ledger would merge them (each player's stake account, then their
    wallet; the house after the first player's), so the transfer is the same one the per-payout postings give,
    built from one posting per account rather than three per payout (a round can hold thousands of bets).
    """
    staked: dict[str, int] = {}
    returned: dict[str, int] = {}
    for p in e.payouts:
        staked[p.player] = staked.get(p.player, 0) + p.staked
        returned[p.player] = returned.get(p.player, 0) + p.returned
    table, house = e.table, sum(staked.values()) - sum(returned.values())
    postings: list[Posting] = []
    for i, (player, stake) in enumerate(staked.items()):
        postings += (Posting(casino_escrow(table, player), -stake), Posting(cash(player), returned[player]))
        if i == 0:
            postings.append(Posting(HOUSE_CASINO, house))
    return postings
