"""Busts, places, prizes and bounties (TR-PLAY-3/6, TR-PRIZE): a part of the director.

A mix-in of :class:`~tournament.director.Director`, which holds the state it reads and
writes; split out so each part of the director is one module with one job.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

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
    HandForHand,
    PackageAwarded,
    PrizesFixed,
    PrizeSubstituted,
    RebuysClosed,
    SeatWon,
)
from tournament.places import Bust, Finish, awards, finishing_places
from tournament.prizes import Prizes, prize_pool

PLACES_WORK = 100           # busted entries placed in the step late registration closes (then DRAW_WORK a turn)


class Eliminations:
    """Who finished where and what they were paid, the bubble and hand-for-hand, and the end."""

    def _places(self) -> int:
        """Places the entries so far would pay (TR-REG-4 asks at every bust and late entry)."""
        if self.spec.satellite_target:
            return len(self.provisional_prizes())
        return self.payouts.places_for(max(self.entries_total, len(self.entries), 2))

    def provisional_prizes(self) -> tuple[int, ...]:
        """The prizes for the entries so far (TR-PRIZE-1): the lobby shows them until they are fixed."""
        if self.prizes is not None:
            return self.prizes
        key = (max(self.entries_total, len(self.entries)), self.collected)
        if self._provisional[0] != key:                     # entries and money change far less often than hands
            self._provisional = (key, self._prizes_for(*key).amounts)
        return self._provisional[1]

    def _prizes_for(self, entries: int, collected: int, guarantee: int | None = None) -> Prizes:
        """Prizes for ``entries`` paying ``collected`` (topped up to the guarantee unless told otherwise)."""
        spec = self.spec
        pool = prize_pool(collected, spec.guarantee if guarantee is None else guarantee)
        if spec.satellite_target:                       # TR-PRIZE-5: seats, and what is left in cash
            seats = pool.total // spec.satellite_seat_value
            left = pool.total - seats * spec.satellite_seat_value
            return Prizes(tuple([spec.satellite_seat_value] * seats + ([left] if left else [])), 0)
        return self.payouts.prizes_for(max(entries, 2), pool.total, remainder_to_top=spec.remainder_to_top)

    def substitute_prize(self, place: int, description: str, value: int, by: str) -> list:
        """TR-PRIZE-4: the room may replace a fixed prize not yet won by one of equal or greater value."""
        prizes_ = self.prizes
        if prizes_ is None or not 1 <= place <= len(prizes_):
            raise RuleViolation("bad_substitute", f"place {place} has no fixed prize to substitute", "TR-PRIZE-4")
        if place > len(self.entries) or place in self.substitutes:
            raise RuleViolation("bad_substitute", f"the prize of place {place} is already won or substituted",
                                "TR-PRIZE-4")
        if type(value) is not int or value < prizes_[place - 1]:
            raise RuleViolation("bad_substitute", f"a substitute is worth at least the prize it replaces "
                                f"({prizes_[place - 1]})", "TR-PRIZE-4")
        self.substitutes[place] = (description, value)
        self.changes.terms = True
        self._emit(PrizeSubstituted(place, description, value, by))
        return self._flush()

    def _fix_prizes_if_closed(self) -> None:
        if (self.prizes is not None or self.late_open or self.rebuys_open or self.state != RUNNING
                or self.drawing is not None):             # the draw's end fixes them, once all are seated
            return
        pool = prize_pool(self.collected, self.spec.guarantee)
        fixed = self._prizes_for(self.entries_total, self.collected)
        self.prizes = fixed.amounts
        self.paid_places = len(fixed.amounts)
        self._emit(PrizesFixed(self.entries_total, pool.collected, pool.overlay, fixed.amounts, fixed.remainder))
        self._pay(guarantee_account(self.spec.id), self.pool, pool.overlay, "guarantee overlay")
        self._pay(self.pool, ROUNDING, fixed.remainder, "prize rounding")
        self._place_early_busts(PLACES_WORK)
        self._check_money()

    def _place_early_busts(self, work: int) -> None:
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
            self._award(finishing_places(busts, self.entries_total - before), entries)
            work -= len(busts)
        self._waiting_busts = before            # counted once, then kept (not saved: a restore counts again)

    def _check_money(self) -> None:
        """Close what must close when the next bust would be paid (TR-REG-4); burst the bubble when it has."""
        if self.drawing is not None:                      # asked again when the start's draw ends
            return
        if self.prizes is None and len(self.entries) <= self._places():
            if self.late_open:
                self._close_registration("in the money")
            if self.rebuys_open:
                self.rebuys_open = False
                self._emit(RebuysClosed())
            self._fix_prizes_if_closed()
            return
        if self.prizes is not None and not self.in_money and len(self.entries) <= self.paid_places:
            self.in_money = True
            held = 0
            holders = [*self.busted, *self.entries.values()] if self.spec.bounty else []   # no bounty, none held
            for entry in holders:
                if entry.held:
                    self.changes.entry(entry)
                    held += entry.held
                    self._pay_player(entry, bounty_account(self.spec.id), entry.held, "bounty (held to the money)")
                    entry.held = 0
            self._emit(BubbleBurst(held))
        self._set_hand_for_hand()

    def _set_hand_for_hand(self) -> None:
        live = self.floor.live_tables
        places = self.paid_places if self.prizes is not None else self._places()
        on = not self.in_money and live > 1 and len(self.entries) == places + 1
        if on != self.hand_for_hand:
            self.hand_for_hand = on
            self.round_played = set()
            self._unplayed = None
            self._emit(HandForHand(on))

    def _eliminate(self, busts: list[Bust]) -> None:
        remaining_before = len(self.entries)
        entries = {b.player: self.entries.pop(b.player) for b in busts}
        for entry in entries.values():
            self.changes.entry(entry)
        for entry in entries.values():
            entry.out = len(self.busted)
            entry.out = len(self.busted)
            self.busted.append(entry)
        for b in busts:
            can_re_enter = self.late_open and self.used_entries[b.player] <= self.spec.re_entries
            self._emit(Busted(b.player, b.table, can_re_enter))
        if self.prizes is None:
            self.unplaced.append((busts, entries))
            self._waiting_busts = None
        else:
            self._award(finishing_places(busts, remaining_before), entries)
        self._check_money()
        if len(self.entries) == 1:
            self._finish()

    def _award(self, finishes: Iterable[Finish], entries: dict[str, Entry]) -> None:
        for finish in finishes:
            amounts, remainder = awards(finish, self.prizes or ())
            for player in finish.players:
                entry = entries[player]
                entry.place = finish.places
                self.changes.entry(entry)
                self._award_prize(entry, amounts[player], finish.places)
            self._pay(self.pool, ROUNDING, remainder, "prize rounding (tied places)")
            self._emit(Eliminated(finish.players, finish.places, amounts[finish.players[0]]))

    def _award_prize(self, entry: Entry, amount: int, places: tuple[int, ...] = ()) -> None:
        spec = self.spec
        self.prizes_paid += amount
        if len(places) == 1 and places[0] in self.substitutes:      # TR-PRIZE-4: a package, not cash
            description, value = self.substitutes[places[0]]
            self._pay(self.pool, PACKAGES, amount, "prize substituted")
            self._pay(guarantee_account(spec.id), PACKAGES, value - amount, "substituted prize above the cash prize")
            self._emit(PackageAwarded(entry.player, places[0], description, value))
            self._release_stakes(entry)
            return
        if spec.satellite_target and amount == spec.satellite_seat_value:
            as_money = self.holds_target_seat(entry.player)
            self._emit(SeatWon(entry.player, spec.satellite_target, as_money))
            if as_money:                          # TR-PRIZE-5: T$ = the target's buy-in less its fee
                self._pay(self.pool, tournament_money(entry.player), amount - spec.satellite_seat_fee,
                          "satellite seat as T$")
                self._pay(self.pool, HOUSE_FEES, spec.satellite_seat_fee, "satellite seat fee")
            else:
                self._pay(self.pool, ticket_account(spec.satellite_target, entry.player), amount, "satellite seat")
            for stake in entry.stakes:            # TR-STAKE-3: a ticket, not cash: backers get their stake back
                self._pay(stakes_account(spec.id), cash(stake.backer), stake.price, "stake returned: ticket won")
            entry.stakes = []
            self.changes.entry(entry)
            return
        self._pay_player(entry, self.pool, amount, "tournament prize")
        self._release_stakes(entry)

    def _pay_player(self, entry: Entry, source: str, amount: int, reason: str) -> None:
        """Pay a player their winnings or refund, split with their backers (TR-STAKE-3, TR-REFUND-6)."""
        if amount <= 0:
            return
        mine, backers, remainder = staking.split(amount, entry.stakes)
        self._pay(source, cash(entry.player), mine, reason)
        for backer, part in backers.items():
            self._pay(source, cash(backer), part, f"{reason}: backer's share")
        self._pay(source, ROUNDING, remainder, f"{reason}: rounding")

    def _release_stakes(self, entry: Entry) -> None:
        """The entry's outcome is known: the backers' money goes to the seller (TR-STAKE-1)."""
        for stake in entry.stakes:
            self._pay(stakes_account(self.spec.id), cash(entry.player), stake.price, "stake price to the seller")
        if entry.stakes:
            entry.stakes = []
            self.changes.entry(entry)

    def _knockout(self, entry: Entry, winners: Sequence[str]) -> None:
        """TR-PLAY-6: the busted player's bounty goes to the winners of the pot that busted them."""
        spec = self.spec
        bounty, entry.own_bounty = entry.own_bounty, 0   # bounties they won stay held until the money
        self.changes.entry(entry)
        if not bounty:
            return
        ko = knockout(bounty, winners, spec.progressive_share)
        for winner in winners:
            won = self.entries[winner]
            self.changes.entry(won)
            won.own_bounty += ko.onto_head[winner]
            held = not self.in_money
            if held:
                won.held += ko.cash[winner]
            else:
                self._pay_player(won, bounty_account(spec.id), ko.cash[winner], "bounty")
            self._emit(BountyWon(entry.player, winner, ko.cash[winner], ko.onto_head[winner], held))
        self._pay(bounty_account(spec.id), ROUNDING, ko.remainder, "bounty rounding")

    def _satellite_done(self) -> bool:
        """TR-PRIZE-6: everyone left would win the same seat."""
        spec = self.spec
        if not spec.satellite_target or self.prizes is None:
            return False
        seats = sum(1 for p in self.prizes if p == spec.satellite_seat_value)
        return 0 < len(self.entries) <= seats

    def _finish(self) -> None:
        left = sorted(self.entries.values(), key=lambda e: -self.chips(e.player))
        for place, entry in enumerate(left, 1):
            table = self.tables.get(entry.table)
            if table is not None:
                table.unseat(entry.player)
            entry.place = (place,)
            prize = self.prizes[place - 1] if self.prizes and place <= len(self.prizes) else 0
            self._pay_player(entry, bounty_account(self.spec.id), entry.own_bounty + entry.held, "own bounty")
            entry.own_bounty = entry.held = 0
            self._award_prize(entry, prize, (place,))
            self.busted.append(entry)
            self._emit(Eliminated((entry.player,), (place,), prize))
        self.entries = {}
        self.winner = left[0].player
        self.state = FINISHED
        for table_id in list(self.tables):
            self._close_table(table_id)
        self._emit(Finished(self.winner))

    def prize_preview(self, entrants: int) -> tuple[int, ...]:
        """The prizes ``entrants`` single entries would pay (the director's payout preview)."""
        return self._prizes_for(entrants, entrants * self.spec.buy_in).amounts
