"""A live baccarat (Punto Banco) table: eight decks, one coup a round, Player / Banker / Tie (BA).

The coup is dealt by :func:`~pokerroom.casino.baccarat.deal_coup` in BA-3's
order and BA-4's tableau; bets hand back what
:func:`~pokerroom.casino.baccarat.returned` says (BA-5). The cut card sits
seven cards from the back: the coup in which it comes out is the last before
the shuffle (BA-1).
"""

from __future__ import annotations

from pokerroom.casino import baccarat
from pokerroom.casino.betting import Bet
from pokerroom.casino.events import CardDealt
from pokerroom.casino.shoe import ShoeSource
from pokerroom.casino.table import CasinoRules, CasinoTable
from pokerroom.errors import RuleViolation


def coup_events(table: str, number: int, coup: baccarat.Coup, start: int = 0) -> list:
    """The coup's cards in the order they were dealt (BA-3, then third cards), from the ``start``-th card."""
    order = [("player", coup.player[0]), ("banker", coup.banker[0]), ("player", coup.player[1]),
             ("banker", coup.banker[1])]
    order += [("player", c) for c in coup.player[2:]] + [("banker", c) for c in coup.banker[2:]]
    return [CardDealt(table, number, side, card) for side, card in order[start:]]


def coup_result(coup: baccarat.Coup) -> str:
    winner = coup.winner
    head = "tie" if winner == "tie" else f"{winner} wins"
    return f"{head}: player {coup.player_points}, banker {coup.banker_points}"


class BaccaratTable(CasinoTable):
    game = "baccarat"
    rules_text = (
        "Eight decks; the cut card sits seven cards from the back and the coup in which it appears is the last "
        "before the shuffle.",
        "Aces count 1, 2 to 9 their face value, tens and faces 0; a hand's points are its total modulo 10.",
        "Cards are dealt player, banker, player, banker. A natural 8 or 9 on either side stands both. Otherwise the "
        "player draws on 0-5; the banker then draws by the tableau (on 0-5 when the player stood).",
        "One bet a market per player per round: Player, Banker, Tie. On a tie, Player and Banker bets are returned.",
    )
    paytable = (("player", "1:1"), ("banker", "1:1 less 5% commission on the win"), ("tie", "8:1"))

    def __init__(self, rules: CasinoRules, source: ShoeSource | None = None) -> None:
        super().__init__(rules, source)
        self.coup: baccarat.Coup | None = None

    def _market(self, market: str, player: str, seat: int | None) -> str:
        if market not in baccarat.MARKETS:
            raise RuleViolation("unknown_market", f"no market {market!r}: bet on player, banker or tie", "BA-5")
        return market

    def _deal(self) -> list:
        self._to_dealing()
        self.coup = baccarat.deal_coup(self.draw)
        return coup_events(self.table_id, self.number, self.coup) + \
            [self.settle_round(coup_result(self.coup), self.coup.winner)]

    def _returned(self, bet: Bet) -> tuple[int, str]:
        return baccarat.returned(bet.market, self.coup, bet.amount), self.coup.winner
