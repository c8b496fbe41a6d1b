"""The stored ledger read back and judged: what ``pokerroom ledger check`` reports (STAFF-1, AC-6).

A balanced ledger is not yet an honest one: a transfer from ``world`` to a
player balances, and it mints money. So besides the double-entry checks
(every transfer sums to zero; every cached balance is the sum of its
postings) this names every ``world`` movement that is not a deposit or a
withdrawal, and every player wallet below zero. Pure: the store hands it the
rows, the command prints the lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pokerroom.money.accounts import WORLD, is_wallet
from pokerroom.money.ledger import WORLD_REASONS, Transfer


def ledger_problems(transfers: Iterable[Transfer], cached: Mapping[str, int]) -> list[str]:
    """One sentence per problem (empty: the ledger is fine); ``transfers`` are every stored one, any order."""
    problems: list[str] = []
    sums: dict[str, int] = {}
    for t in transfers:
        total = sum(p.amount for p in t.postings)
        if total != 0:
            problems.append(f"transfer {t.number} ({t.reason} {t.reference}) does not balance: "
                            f"its postings sum to {total}")
        for p in t.postings:
            sums[p.account] = sums.get(p.account, 0) + p.amount
            if p.account == WORLD and t.reason not in WORLD_REASONS:
                problems.append(f"transfer {t.number} moves {abs(p.amount)} {'from' if p.amount < 0 else 'to'} "
                                f"world for {t.reason!r} ({t.reference}): world moves only for deposits and "
                                "withdrawals (STAFF-1)")
    for account in sorted(set(sums) | set(cached)):
        summed, stored = sums.get(account, 0), cached.get(account, 0)
        if summed != stored:
            problems.append(f"{account} holds {stored} but its postings sum to {summed}")
    for account in sorted(sums):
        if sums[account] < 0 and is_wallet(account):
            problems.append(f"{account} is negative: {sums[account]}")
    return problems
