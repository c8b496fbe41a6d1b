"""Open Hand History (OHH) JSON: one ``{"ohh": {...}}`` object per hand.

OHH is the trackers' common JSON format. Player ids are the table's seat
numbers; amounts are in currency units (chips over ``minor_units_per_unit``);
an action's ``amount`` is the chips it added. Hole cards follow the same
rule as the PokerStars export: the hero's only, or everyone's for the security
team (``hero=None``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pokerroom.cards import format_card
from pokerroom.poker import events as ev
from pokerroom.poker.history.record import HandRecord, Money, money_for

SPEC_VERSION = "1.4.6"
_POSTS = {
    ev.POST_SMALL_BLIND: "Post SB",
    ev.POST_BIG_BLIND: "Post BB",
    ev.POST_THIRD_BLIND: "Straddle",
    ev.POST_ENTRY: "Post BB",
    ev.POST_ANTE: "Post Ante",
    ev.POST_BIG_BLIND_ANTE: "Post Ante",
    ev.POST_DEAD_SMALL_BLIND: "Post Dead",
    ev.POST_DEAD_BIG_BLIND: "Post Dead",
}
_ACTIONS = {ev.FOLD: "Fold", ev.CHECK: "Check", ev.CALL: "Call", ev.BET: "Bet", ev.RAISE: "Raise"}
_BET_TYPES = {"no_limit": "NL", "pot_limit": "PL", "fixed_limit": "FL"}
_GAME_TYPES = {"holdem": "Holdem", "omaha": "Omaha"}


def _cards(cards: Sequence[int]) -> list[str]:
    return [format_card(c) for c in cards]


def to_ohh(events: Sequence[ev.Event], *, hero: str | None = None, site_name: str = "pokerroom",
           minor_units_per_unit: int = 1, currency_symbol: str | None = None) -> dict[str, Any]:
    """The hand as an OHH document; ``hero`` is a player id, None for the security team's copy."""
    record = HandRecord(events)
    money = money_for(record.started, minor_units_per_unit, currency_symbol)
    s = record.started
    hand: dict[str, Any] = {
        "spec_version": SPEC_VERSION,
        "internal_version": "pokerroom",
        "network_name": site_name,
        "site_name": site_name,
        "game_type": _GAME_TYPES.get(s.game, s.game),
        "table_name": s.table_name,
        "table_size": s.max_seats or len(record.seats),
        "game_number": s.hand_id,
        "start_date_utc": s.started_at,
        "currency": s.currency or "Chips",
        "ante_amount": money.number(s.ante),
        "small_blind_amount": money.number(s.small_blind),
        "big_blind_amount": money.number(s.big_blind),
        "bet_limit": {"bet_type": _BET_TYPES[s.betting], "bet_cap": 0},
        "tournament": not s.currency,
        "dealer_seat": s.button_seat,
        "flags": [],
        "players": [{"id": p.seat, "seat": p.seat, "name": p.player, "display": p.player,
                     "starting_stack": money.number(p.stack)} for p in record.seats],
        "rounds": _rounds(record, money, hero),
        "pots": _pots(record, money),
    }
    if s.third_blind:
        hand["straddle_amount"] = money.number(s.third_blind)
    heroes = [p.seat for p in record.seats if p.player == hero]
    if heroes:
        hand["hero_player_id"] = heroes[0]
    return {"ohh": hand}


def _rounds(record: HandRecord, money: Money, hero: str | None) -> list[dict[str, Any]]:
    rounds: list[dict[str, Any]] = []
    actions: list[dict[str, Any]] = []

    def open_round(street: str, cards: Sequence[int]) -> None:
        nonlocal actions
        actions = []
        rounds.append({"id": len(rounds), "street": street, "cards": _cards(cards), "actions": actions})

    def add(seat: int, action: str, amount: int = 0, all_in: bool = False, cards: Sequence[int] = ()) -> None:
        entry: dict[str, Any] = {"action_number": len(actions) + 1, "player_id": seat, "action": action}
        if amount:
            entry["amount"] = money.number(amount)
        if all_in:
            entry["is_allin"] = True
        if cards:
            entry["cards"] = _cards(cards)
        actions.append(entry)

    open_round("Preflop", ())
    exposed: set[int] = set()
    for e in record.events:
        if isinstance(e, ev.Posted):
            add(e.seat, _POSTS[e.kind], e.added, e.all_in)
        elif isinstance(e, ev.HoleCardsDealt):
            visible = hero is None or record.names[e.seat] == hero
            add(e.seat, "Dealt Cards", cards=e.cards if visible else ())
        elif isinstance(e, ev.ActionTaken):
            add(e.seat, _ACTIONS[e.action], e.added, e.all_in)
        elif isinstance(e, ev.BoardDealt):
            open_round(e.street.capitalize(), e.cards)
            if e.run == 2:
                rounds[-1]["run"] = 2
        elif isinstance(e, ev.CardsExposed):
            exposed.add(e.seat)
            add(e.seat, "Shows Cards", cards=e.cards)
        elif isinstance(e, ev.HandShown | ev.HandMucked) and rounds[-1]["street"] != "Showdown":
            open_round("Showdown", ())
        if isinstance(e, ev.HandShown) and e.run == 1 and e.seat not in exposed:
            add(e.seat, "Shows Cards", cards=e.cards)
        elif isinstance(e, ev.HandMucked):
            visible = hero is None or record.names[e.seat] == hero
            add(e.seat, "Mucks Cards", cards=e.cards if visible else ())
    return rounds


def _pots(record: HandRecord, money: Money) -> list[dict[str, Any]]:
    pots = []
    for pot in record.pots:
        wins: dict[int, int] = {}
        for award in record.awards:
            if award.pot == pot.pot:
                for seat, share in zip(award.seats, award.shares, strict=True):
                    wins[seat] = wins.get(seat, 0) + share
        pots.append({"number": pot.pot, "amount": money.number(pot.amount), "rake": money.number(pot.rake),
                     "jackpot": 0,
                     "player_wins": [{"player_id": seat, "win_amount": money.number(chips),
                                      "contributed_rake": 0} for seat, chips in wins.items()]})
    return pots
