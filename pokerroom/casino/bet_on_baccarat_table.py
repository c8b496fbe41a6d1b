"""A Bet on Baccarat table: one six-deck draw, three betting windows, odds re-priced before each (BOB).

Windows (BOB-2): before any card; after the player's first card; after the
banker's first card. Each window opens with every market priced by
:func:`~pokerroom.casino.bet_on_baccarat.price` from the cards nobody has seen
(the rest of the shoe and the unseen burns) and the cards shown, less the
table's margin; a market that cannot win is closed (BOB-3). A bet keeps the
odds of the window it was placed in. After the third window the rest of the
coup is dealt and every bet settles at once.

The shoe has no cut card: when fewer than 40 cards remain it is replaced after
the draw, shuffled, and 3 to 6 cards burned face down (BOB-4).
"""

from __future__ import annotations

from collections.abc import Callable

from pokerroom.casino import baccarat
from pokerroom.casino import bet_on_baccarat as bob
from pokerroom.casino.betting import Bet
from pokerroom.casino.events import CardDealt, RoundOpened, ShoeShuffled
from pokerroom.casino.punto_banco import coup_events, coup_result
from pokerroom.casino.shoe import Shoe, ShoeSource, burn_random
from pokerroom.casino.table import CasinoRules, CasinoTable
from pokerroom.errors import RuleViolation

REPLACE_BELOW = 40                      # BOB-4
WINDOWS = 3                             # BOB-2


class BetOnBaccaratTable(CasinoTable):
    game = "bet_on_baccarat"
    rules_text = (
        "Six decks, baccarat values and drawing rules. Every draw is numbered and its result public.",
        "Three betting rounds a draw: before any card, after the player's first card, after the banker's first "
        "card. Odds are re-priced at the start of each from the exact cards left unseen and the cards shown, less "
        "the house margin; a bet keeps the odds it was placed at.",
        "Markets: Player, Banker, Tie (on a tie Player and Banker bets are returned), Player Pair, Banker Pair, "
        "Any Pair, Perfect Pair (first two cards of a side only), Small (4 cards dealt), Big (5 or 6). "
        "A market that can no longer win is closed.",
        "Winnings are the stake times the decimal odds. With fewer than 40 cards left the shoe is replaced and "
        "3 to 6 cards are burned.",
        "A draw with an unreadable card, cards out of order or a technical fault is cancelled and every bet "
        "refunded. Claims about a result are accepted for 30 days.",
    )
    paytable = tuple((m, "decimal odds, priced each betting round") for m in bob.MARKETS)

    def __init__(self, rules: CasinoRules, source: ShoeSource | None = None,
                 burn: Callable[[], int] | None = None) -> None:
        super().__init__(rules, source)
        self.burn = burn
        self.prices: dict[str, int | None] = {}
        self.shown: list[int] = []
        self.coup: baccarat.Coup | None = None

    def _new_shoe(self) -> list:
        self.shoe = Shoe.fresh(self.source, self.rules.decks, 0)
        burned = burn_random(self.shoe, self.burn)
        return [ShoeShuffled(self.table_id, self.rules.decks, burned)]

    def _shuffle_due(self) -> bool:
        return self.shoe.remaining < REPLACE_BELOW

    def _priced(self, window: int) -> RoundOpened:
        self.prices = bob.price(self.shoe.unknown_counts(), tuple(self.shown), self.rules.margin)
        return RoundOpened(self.table_id, self.number, self.rules.betting_seconds, window,
                           odds=tuple((m, self.prices.get(m)) for m in bob.MARKETS),
                           closed_markets=self.closed_markets())

    def open_round(self) -> list:
        events = super().open_round()               # refuses first, so a refused call changes nothing
        self.shown, self.coup = [], None
        return events[:-1] + [self._priced(1)]

    def closed_markets(self) -> tuple[str, ...]:
        return tuple(m for m in bob.MARKETS if self.prices.get(m) is None) if self.prices else ()

    def _closed_rule(self, market: str) -> str:
        return "BOB-3"

    def _market(self, market: str, player: str, seat: int | None) -> str:
        if market not in bob.MARKETS:
            raise RuleViolation("unknown_market", f"no market {market!r}: one of {', '.join(bob.MARKETS)}", "BOB-3")
        return market

    def _place(self, player: str, market: str, amount: int, funds: int, seat: int | None) -> list:
        self._no_seat(seat)
        return self.round.place(player, market, amount, self.rules.limits_for(market), funds,
                                odds=self.prices[market])

    def _deal(self) -> list:
        self.round.dealing()
        window = self.round.window
        if window < WINDOWS:                     # one more card face up, then the next betting window
            card = self.draw()
            self.shown.append(card)
            self.round.reopen()
            side = "player" if window == 1 else "banker"
            return [CardDealt(self.table_id, self.number, side, card), self._priced(window + 1)]
        p1, b1 = self.shown
        p2, b2 = self.draw(), self.draw()
        self.coup = baccarat.finish_coup(p1, b1, p2, b2, self.draw)
        self.prices = {}
        return coup_events(self.table_id, self.number, self.coup, start=2) + \
            [self.settle_round(coup_result(self.coup), self.coup.winner)]

    def _returned(self, bet: Bet) -> tuple[int, str]:
        result = bob.outcome(bet.market, self.coup)
        if result == "win":
            return bet.amount * bet.odds // 100, "won"
        return (bet.amount, "tie: returned") if result == "push" else (0, "lost")

    def view(self, player: str | None) -> dict:
        out = super().view(player)
        out["shown"] = list(self.shown)
        out["odds"] = {m: self.prices.get(m) for m in bob.MARKETS} if self.prices else {}
        out["window"] = self.round.window if self.round is not None else 0
        return out

