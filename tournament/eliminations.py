"""Busts, places, prizes and bounties (TR-PLAY-3/6, TR-PRIZE): a part of the director.

``director.eliminations``: it keeps the prizes (provisional, then fixed), the
places paid and whether the bubble has burst, the substitutes, the busted
entries in the order they busted and those waiting for their places, and the
winner. It pays prizes and bounties as the director's payments; the live
entries and the tables are the director's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import HOUSE_FEES, cash
from tournament import staking
from tournament.accounts import (
    PACKAGES,
    ROUNDING,
    bounty_account,
    guarantee_account,
    stakes_account,
    ticket_account,
    tournament_money,
)
from tournament.bounties import knockout
from tournament.entries import FINISHED, RUNNING, Entry
from tournament.events import (
    BountyWon,
    BubbleBurst,
    Busted,
    Eliminated,
    Finished,
    PackageAwarded,
    PrizesFixed,
    PrizeSubstituted,
    SeatWon,
)
from tournament.places import Bust, Finish, awards, finishing_places
from tournament.prizes import Prizes, prize_pool

if TYPE_CHECKING:
    from tournament.director import Director

PLACES_WORK = 100           # busted entries placed in the step late registration closes (then DRAW_WORK a turn)


class Eliminations:
    """Who finished where and what they were paid, the bubble, and the end."""

    def __init__(self, director: Director) -> None:
        self.director = director
        self.busted: list[Entry] = []                # finished entries, in the order they busted
        self.unplaced: list[tuple[list[Bust], dict[str, Entry]]] = []   # busted in late registration
        self._waiting_busts: int | None = None       # their count while they wait for places (when first asked)
        self.prizes_paid = 0                         # places' prizes paid out of the pool so far
        self.substitutes: dict[int, tuple[str, int]] = {}   # place -> (description, value): TR-PRIZE-4
        self.prizes: tuple[int, ...] | None = None
        self.paid_places = 0
        self.in_money = False
        self.winner = ""
        self._provisional: tuple[tuple[int, int], tuple[int, ...]] = ((-1, -1), ())

    def places(self) -> int:
        """Places the entries so far would pay (TR-REG-4 asks at every bust and late entry)."""
        d = self.director
        if d.spec.satellite_target:
            return len(self.provisional_prizes())
        return d.payouts.places_for(max(d.entries_total, len(d.entries), 2))

    def provisional_prizes(self) -> tuple[int, ...]:
        """The prizes for the entries so far (TR-PRIZE-1): the lobby shows them until they are fixed."""
        d = self.director
        if self.prizes is not None:
            return self.prizes
        key = (max(d.entries_total, len(d.entries)), d.collected)
        if self._provisional[0] != key:                     # entries and money change far less often than hands
            self._provisional = (key, self.prizes_for(*key).amounts)
        return self._provisional[1]

    def prizes_for(self, entries: int, collected: int, guarantee: int | None = None) -> Prizes:
        """Prizes for ``entries`` paying ``collected`` (topped up to the guarantee unless told otherwise)."""
        d = self.director
        spec = d.spec
        pool = prize_pool(collected, spec.guarantee if guarantee is None else guarantee)
        if spec.satellite_target:                       # TR-PRIZE-5: seats, and what is left in cash
            seats = pool.total // spec.satellite_seat_value
            left = pool.total - seats * spec.satellite_seat_value
            return Prizes(tuple([spec.satellite_seat_value] * seats + ([left] if left else [])), 0)
        return d.payouts.prizes_for(max(entries, 2), pool.total, remainder_to_top=spec.remainder_to_top)

    def substitute_prize(self, place: int, description: str, value: int, by: str) -> list:
        """TR-PRIZE-4: the room may replace a fixed prize not yet won by one of equal or greater value."""
        d = self.director
        prizes_ = self.prizes
        if prizes_ is None or not 1 <= place <= len(prizes_):
            raise RuleViolation("bad_substitute", f"place {place} has no fixed prize to substitute", "TR-PRIZE-4")
        if place > len(d.entries) or place in self.substitutes:
            raise RuleViolation("bad_substitute", f"the prize of place {place} is already won or substituted",
                                "TR-PRIZE-4")
        if type(value) is not int or value < prizes_[place - 1]:
            raise RuleViolation("bad_substitute", f"a substitute is worth at least the prize it replaces "
                                f"({prizes_[place - 1]})", "TR-PRIZE-4")
        self.substitutes[place] = (description, value)
        d.changes.terms = True
        d.emit(PrizeSubstituted(place, description, value, by))
        return d.flush()

    def fix_prizes_if_closed(self) -> None:
        d = self.director
        if (self.prizes is not None or d.clock.late_open or d.clock.rebuys_open or d.state != RUNNING
                or d.registration.drawing is not None):             # the draw's end fixes them, once all are seated
            return
        pool = prize_pool(d.collected, d.spec.guarantee)
        fixed = self.prizes_for(d.entries_total, d.collected)
        self.prizes = fixed.amounts
        self.paid_places = len(fixed.amounts)
        d.emit(PrizesFixed(d.entries_total, pool.collected, pool.overlay, fixed.amounts, fixed.remainder))
        d.pay(guarantee_account(d.spec.id), d.pool, pool.overlay, "guarantee overlay")
        d.pay(d.pool, ROUNDING, fixed.remainder, "prize rounding")
        self.place_early_busts(PLACES_WORK)
        self.check_money()

    def place_early_busts(self, work: int) -> None:
        """Entries busted during late registration get their places, below the money, about ``work`` at a time
        (the rest on the next reactor turns: :meth:`catch_up`), the latest group first. A group's worst place is
        the entries less those busted in the groups before it -- the ones still waiting -- so what waits needs
        no count of its own, and the waiting groups keep their numbers in the saved records."""
        before = self._waiting_busts
        if before is None:
            before = sum(len(busts) for busts, _ in self.unplaced)
        while self.unplaced and work > 0:
            busts, entries = self.unplaced.pop()
            before -= len(busts)
            self._award(finishing_places(busts, self.director.entries_total - before), entries)
            work -= len(busts)
        self._waiting_busts = before            # counted once, then kept (not saved: a restore counts again)

    def check_money(self) -> None:
        """Close what must close when the next bust would be paid (TR-REG-4); burst the bubble when it has."""
        d = self.director
        if d.registration.drawing is not None:                      # asked again when the start's draw ends
            return
        if self.prizes is None and len(d.entries) <= self.places():
            if d.clock.late_open:
                d.clock.close_late_registration("in the money")
            if d.clock.rebuys_open:
                d.clock.close_rebuys()
            self.fix_prizes_if_closed()
            return
        if self.prizes is not None and not self.in_money and len(d.entries) <= self.paid_places:
            self.in_money = True
            held = 0
            holders = [*self.busted, *d.entries.values()] if d.spec.bounty else []   # no bounty, none held
            for entry in holders:
                if entry.held:
                    d.changes.entry(entry)
                    held += entry.held
                    self.pay_player(entry, bounty_account(d.spec.id), entry.held, "bounty (held to the money)")
                    entry.held = 0
            d.emit(BubbleBurst(held))
        d.set_hand_for_hand()

    def eliminate(self, busts: list[Bust]) -> None:
        d = self.director
        remaining_before = len(d.entries)
        entries = {b.player: d.entries.pop(b.player) for b in busts}
        for entry in entries.values():
            d.changes.entry(entry)
        for entry in entries.values():
            entry.out = len(self.busted)
            entry.out = len(self.busted)
            self.busted.append(entry)
        for b in busts:
            can_re_enter = d.clock.late_open and d.used_entries[b.player] <= d.spec.re_entries
            d.emit(Busted(b.player, b.table, can_re_enter))
        if self.prizes is None:
            self.unplaced.append((busts, entries))
            self._waiting_busts = None
        else:
            self._award(finishing_places(busts, remaining_before), entries)
        self.check_money()
        if len(d.entries) == 1:
            self.finish()

    def _award(self, finishes: Iterable[Finish], entries: dict[str, Entry]) -> None:
        d = self.director
        for finish in finishes:
            amounts, remainder = awards(finish, self.prizes or ())
            for player in finish.players:
                entry = entries[player]
                entry.place = finish.places
                d.changes.entry(entry)
                self._award_prize(entry, amounts[player], finish.places)
            d.pay(d.pool, ROUNDING, remainder, "prize rounding (tied places)")
            d.emit(Eliminated(finish.players, finish.places, amounts[finish.players[0]]))

    def _award_prize(self, entry: Entry, amount: int, places: tuple[int, ...] = ()) -> None:
        d = self.director
        spec = d.spec
        self.prizes_paid += amount
        if len(places) == 1 and places[0] in self.substitutes:      # TR-PRIZE-4: a package, not cash
            description, value = self.substitutes[places[0]]
            d.pay(d.pool, PACKAGES, amount, "prize substituted")
            d.pay(guarantee_account(spec.id), PACKAGES, value - amount, "substituted prize above the cash prize")
            d.emit(PackageAwarded(entry.player, places[0], description, value))
            self.release_stakes(entry)
            return
        if spec.satellite_target and amount == spec.satellite_seat_value:
            as_money = d.holds_target_seat(entry.player)
            d.emit(SeatWon(entry.player, spec.satellite_target, as_money))
            if as_money:                          # TR-PRIZE-5: T$ = the target's buy-in less its fee
                d.pay(d.pool, tournament_money(entry.player), amount - spec.satellite_seat_fee,
                      "satellite seat as T$")
                d.pay(d.pool, HOUSE_FEES, spec.satellite_seat_fee, "satellite seat fee")
            else:
                d.pay(d.pool, ticket_account(spec.satellite_target, entry.player), amount, "satellite seat")
            for stake in entry.stakes:            # TR-STAKE-3: a ticket, not cash: backers get their stake back
                d.pay(stakes_account(spec.id), cash(stake.backer), stake.price, "stake returned: ticket won")
            entry.stakes = []
            d.changes.entry(entry)
            return
        self.pay_player(entry, d.pool, amount, "tournament prize")
        self.release_stakes(entry)

    def pay_player(self, entry: Entry, source: str, amount: int, reason: str) -> None:
        """Pay a player their winnings or refund, split with their backers (TR-STAKE-3, TR-REFUND-6)."""
        d = self.director
        if amount <= 0:
            return
        mine, backers, remainder = staking.split(amount, entry.stakes)
        d.pay(source, cash(entry.player), mine, reason)
        for backer, part in backers.items():
            d.pay(source, cash(backer), part, f"{reason}: backer's share")
        d.pay(source, ROUNDING, remainder, f"{reason}: rounding")

    def release_stakes(self, entry: Entry) -> None:
        """The entry's outcome is known: the backers' money goes to the seller (TR-STAKE-1)."""
        d = self.director
        for stake in entry.stakes:
            d.pay(stakes_account(d.spec.id), cash(entry.player), stake.price, "stake price to the seller")
        if entry.stakes:
            entry.stakes = []
            d.changes.entry(entry)

    def knockout(self, entry: Entry, winners: Sequence[str]) -> None:
        """TR-PLAY-6: the busted player's bounty goes to the winners of the pot that busted them."""
        d = self.director
        spec = d.spec
        bounty, entry.own_bounty = entry.own_bounty, 0   # bounties they won stay held until the money
        d.changes.entry(entry)
        if not bounty:
            return
        ko = knockout(bounty, winners, spec.progressive_share)
        for winner in winners:
            won = d.entries[winner]
            d.changes.entry(won)
            won.own_bounty += ko.onto_head[winner]
            held = not self.in_money
            if held:
                won.held += ko.cash[winner]
            else:
                self.pay_player(won, bounty_account(spec.id), ko.cash[winner], "bounty")
            d.emit(BountyWon(entry.player, winner, ko.cash[winner], ko.onto_head[winner], held))
        d.pay(bounty_account(spec.id), ROUNDING, ko.remainder, "bounty rounding")

    def satellite_done(self) -> bool:
        """TR-PRIZE-6: everyone left would win the same seat."""
        d = self.director
        spec = d.spec
        if not spec.satellite_target or self.prizes is None:
            return False
        seats = sum(1 for p in self.prizes if p == spec.satellite_seat_value)
        return 0 < len(d.entries) <= seats

    def finish(self) -> None:
        left = sorted(self.director.entries.values(), key=lambda e: -self.director.chips(e.player))
        for place, entry in enumerate(left, 1):
            table = self.director.tables.get(entry.table)
            if table is not None:
                table.unseat(entry.player)
            entry.place = (place,)
            prize = self.prizes[place - 1] if self.prizes and place <= len(self.prizes) else 0
            self.pay_player(entry, bounty_account(self.director.spec.id), entry.own_bounty + entry.held, "own bounty")
            entry.own_bounty = entry.held = 0
            self._award_prize(entry, prize, (place,))
            self.busted.append(entry)
            self.director.emit(Eliminated((entry.player,), (place,), prize))
        self.winner = left[0].player
        self.director.end(FINISHED)
        self.director.emit(Finished(self.winner))

    def pay_deal(self, amounts: Mapping[str, int], remainder: int, left_to_play_for: int) -> None:
        """TR-DEAL: the finalists' deal paid out of the pool; what is left to play for is the only prize left to
        them, and the places below keep theirs."""
        d = self.director
        for player, amount in amounts.items():
            self.prizes_paid += amount
            self.pay_player(d.entries[player], d.pool, amount, "tournament deal")
        d.pay(d.pool, ROUNDING, remainder, "deal rounding")
        k = len(amounts)
        self.prizes = (left_to_play_for,) + (0,) * (k - 1) + (self.prizes or ())[k:]

    def prize_preview(self, entrants: int) -> tuple[int, ...]:
        """The prizes ``entrants`` single entries would pay (the director's payout preview)."""
        return self.prizes_for(entrants, entrants * self.director.spec.buy_in).amounts
