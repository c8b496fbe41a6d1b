"""PokerStars text hand histories: the format PokerTracker and Hold'em Manager import.

Exported for one player (``hero``: only their hole cards and mucked cards
appear, as the site would show them) or, without a hero, for the security
team (every hole card, mucked hands included).

The trackers (and PokerKit's parser) read the hand number as digits only, so
the header carries ``number`` (the stored hand's row id: unique, increasing);
the room's own hand id (``nl-aldebaran-12``) stays in the table line, after
the button, as ``(hand nl-aldebaran-12)``. A tournament hand is written in
PokerStars' tournament form -- ``Tournament #T, $10.00+$1.00 USD Hold'em No
Limit - Level III (20/40)`` -- and in chips, never money.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from hashlib import sha256

from pokerroom.cards import RANK_NAMES, RANK_PLURALS
from pokerroom.cards import format as format_cards
from pokerroom.poker import events as ev
from pokerroom.poker.history.record import CURRENCY_SYMBOLS, HandRecord, Money, money_for
from pokerroom.poker.variants import VARIANTS

_POST_WORDS = {
    ev.POST_SMALL_BLIND: "posts small blind",
    ev.POST_BIG_BLIND: "posts big blind",
    ev.POST_THIRD_BLIND: "posts straddle",
    ev.POST_ENTRY: "posts big blind",
    ev.POST_ANTE: "posts the ante",
    ev.POST_BIG_BLIND_ANTE: "posts the ante",
    ev.POST_DEAD_SMALL_BLIND: "posts small blind",
    ev.POST_DEAD_BIG_BLIND: "posts big blind",
}
_STREET_TITLES = {ev.FLOP: "FLOP", ev.TURN: "TURN", ev.RIVER: "RIVER"}
_STREET_NAMES = {ev.PREFLOP: "before Flop", ev.FLOP: "on the Flop", ev.TURN: "on the Turn",
                 ev.RIVER: "on the River"}
# Categories PokerStars names with "a": "a pair of Aces", but "two pair, Aces and Kings".
_RANK_WORDS = set(RANK_NAMES) | set(RANK_PLURALS)
_ARTICLE = {"ONE_PAIR", "STRAIGHT", "FLUSH", "FULL_HOUSE", "STRAIGHT_FLUSH", "ROYAL_FLUSH"}


_ROMAN = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L"), (40, "XL"),
          (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


@dataclass(frozen=True, slots=True)
class TournamentHeader:
    """What PokerStars' tournament header names: the event's number, its buy-in in the money's minor units
    (``buy_in`` to the pool, ``bounty``, ``fee`` to the house; all 0: a freeroll), its money and the hand's level
    (None: not known, left out) and the tournament's table (``1``; "": the hand's table name)."""

    number: int
    buy_in: int = 0
    fee: int = 0
    bounty: int = 0
    currency: str = "USD"
    level: int | None = None
    minor_units_per_unit: int = 100
    table: str = ""


def tournament_number(tournament_id: str) -> int:
    """A tournament's number for the header: its id when that is digits, else a stable 12-digit number of it."""
    if tournament_id.isdigit():
        return int(tournament_id)
    return int.from_bytes(sha256(tournament_id.encode()).digest()[:8], "big") % 10**12


def hand_number(hand_id: str) -> int:
    """The digits ending a room's hand id (``t1-12`` -> 12): a stand-in when the caller has no stored number."""
    digits = hand_id.rsplit("-", 1)[-1]
    return int(digits) if digits.isdigit() else 0


def to_pokerstars(events: Sequence[ev.Event], *, hero: str | None = None, minor_units_per_unit: int = 1,
                  currency_symbol: str | None = None, number: int | None = None,
                  tournament: TournamentHeader | None = None, started_at: str = "") -> str:
    """The hand as PokerStars text; ``hero`` is a player id, None for the security team's copy; ``number`` the
    hand's number (the stored row's id; None: the digits ending its hand id); ``tournament`` for a tournament
    hand (its chips are written as chips); ``started_at`` (ISO) when the hand's events carry no time (a
    tournament table's do not: the trackers need the header's date)."""
    record = HandRecord(events)
    if tournament is not None:
        minor_units_per_unit, currency_symbol = 1, ""
    money = money_for(record.started, minor_units_per_unit, currency_symbol)
    number = hand_number(record.started.hand_id) if number is None else number
    lines = _header(record, money, number, tournament, started_at)
    lines += _body(record, money, hero)
    lines += _summary(record, money, hero)
    return "\n".join(lines) + "\n"


def _date(text: str) -> str:
    """PokerStars' date layout when the table gave an ISO timestamp; any other text as given."""
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return text
    zone = "UTC" if when.tzinfo is not None else "ET"
    return when.strftime("%Y/%m/%d %H:%M:%S ") + zone


def roman(number: int) -> str:
    """PokerStars writes levels in Roman numerals: 14 -> XIV."""
    out = ""
    for value, letters in _ROMAN:
        while number >= value:
            out, number = out + letters, number - value
    return out


def _buy_in(t: TournamentHeader) -> str:
    """``$10.00+$1.00 USD``, ``$5.00+$5.00+$1.00 USD`` with a bounty, ``Freeroll`` when it costs nothing."""
    if t.buy_in + t.fee + t.bounty == 0:
        return "Freeroll"
    money = Money(t.minor_units_per_unit, CURRENCY_SYMBOLS.get(t.currency, ""))
    parts = [t.buy_in, t.bounty, t.fee] if t.bounty else [t.buy_in, t.fee]
    return "+".join(money(p) for p in parts) + (f" {t.currency}" if t.currency else "")


def _header(record: HandRecord, money: Money, number: int, tournament: TournamentHeader | None,
            started_at: str) -> list[str]:
    s = record.started
    game = VARIANTS[s.variant].name if s.variant in VARIANTS else s.variant
    low, high = (s.small_bet, s.big_bet) if s.betting == "fixed_limit" else (s.small_blind, s.big_blind)
    started_at = s.started_at or started_at
    when = f" - {_date(started_at)}" if started_at else ""
    size = s.max_seats or len(record.seats)
    if tournament is None:
        currency = f" {s.currency}" if s.currency else ""
        head = f"PokerStars Hand #{number}: {game} ({money(low)}/{money(high)}{currency}){when}"
        table = s.table_name
    else:
        level = f" - Level {roman(tournament.level)}" if tournament.level else ""
        head = (f"PokerStars Hand #{number}: Tournament #{tournament.number}, {_buy_in(tournament)} {game}"
                f"{level} ({money(low)}/{money(high)}){when}")
        table = f"{tournament.number} {tournament.table or s.table_name}"
    lines = [head, f"Table '{table}' {size}-max Seat #{s.button_seat} is the button (hand {s.hand_id})"]
    for seat in sorted(record.seats, key=lambda e: e.seat):
        lines.append(f"Seat {seat.seat}: {seat.player} ({money(seat.stack)} in chips)")
    return lines


def _posts(record: HandRecord, money: Money) -> list[str]:
    """Forced bets; a dead small blind with a live big blind is one "small & big blinds" post."""
    posts = record.of(ev.Posted)
    dead_small = {p.seat for p in posts if p.kind == ev.POST_DEAD_SMALL_BLIND}
    live_big = {p.seat for p in posts if p.kind in (ev.POST_ENTRY, ev.POST_BIG_BLIND)}
    combined = dead_small & live_big
    lines = []
    for p in posts:
        name = record.names[p.seat]
        if p.seat in combined and p.kind in (ev.POST_ENTRY, ev.POST_BIG_BLIND):
            dead = sum(q.added for q in posts if q.seat == p.seat and q.kind == ev.POST_DEAD_SMALL_BLIND)
            text = f"{name}: posts small & big blinds {money(p.added + dead)}"
        elif p.seat in combined and p.kind == ev.POST_DEAD_SMALL_BLIND:
            continue
        else:
            text = f"{name}: {_POST_WORDS[p.kind]} {money(p.added)}"
        lines.append(text + (" and is all-in" if p.all_in else ""))
    return lines


def _action(record: HandRecord, money: Money, a: ev.ActionTaken) -> list[str]:
    name = record.names[a.seat]
    lines = [f"{name} has timed out"] if a.timed_out else []
    if a.action == ev.FOLD:
        text = "folds"
    elif a.action == ev.CHECK:
        text = "checks"
    elif a.action == ev.CALL:
        text = f"calls {money(a.added)}"
    elif a.action == ev.BET:
        text = f"bets {money(a.added)}"
    else:
        text = f"raises {money(a.to - a.facing)} to {money(a.to)}"
    lines.append(f"{name}: {text}" + (" and is all-in" if a.all_in else ""))
    return lines


def _board(record: HandRecord, b: ev.BoardDealt) -> str:
    title = _STREET_TITLES[b.street]
    if record.runs == 2 and (b.run == 2 or _dealt_after_vote(record, b)):
        title = ("FIRST " if b.run == 1 else "SECOND ") + title
    before = b.board[:len(b.board) - len(b.cards)]
    if before:
        return f"*** {title} *** [{format_cards(before, ' ')}] [{format_cards(b.cards, ' ')}]"
    return f"*** {title} *** [{format_cards(b.cards, ' ')}]"


def _dealt_after_vote(record: HandRecord, b: ev.BoardDealt) -> bool:
    decided = record.of(ev.RunItTwiceDecided)
    return bool(decided) and b.seq > decided[0].seq


def hand_words(category: str, description: str) -> str:
    """PokerStars' wording of a made hand: "a pair of Aces", "two pair, Aces and Kings"."""
    head, sep, rest = description.partition(",")
    words = [w if w in _RANK_WORDS else w.lower() for w in head.split(" ")]
    text = " ".join(words) + sep + rest
    return ("a " + text) if category in _ARTICLE else text


def _pot_name(record: HandRecord, pot: int) -> str:
    if len(record.pots) == 1:
        return "pot"
    return "main pot" if pot == 0 else f"side pot-{pot}"


def _body(record: HandRecord, money: Money, hero: str | None) -> list[str]:
    lines = _posts(record, money)
    lines.append("*** HOLE CARDS ***")
    for seat in record.order:
        if (hero is None or record.names[seat] == hero) and record.holes.get(seat):
            lines.append(f"Dealt to {record.names[seat]} [{format_cards(record.holes[seat], ' ')}]")
    showdown = False
    for e in record.events:
        if isinstance(e, ev.ActionTaken):
            lines += _action(record, money, e)
        elif isinstance(e, ev.BetReturned):
            lines.append(f"Uncalled bet ({money(e.amount)}) returned to {record.names[e.seat]}")
        elif isinstance(e, ev.BoardDealt):
            lines.append(_board(record, e))
        elif isinstance(e, ev.HandShown | ev.HandMucked) and not showdown:
            lines.append("*** SHOW DOWN ***" if record.runs == 1 else "*** FIRST SHOW DOWN ***")
            showdown = True
        if isinstance(e, ev.HandShown):
            if e.run == 2 and "*** SECOND SHOW DOWN ***" not in lines:
                lines.append("*** SECOND SHOW DOWN ***")
            words = hand_words(e.category, e.description)
            lines.append(f"{record.names[e.seat]}: shows [{format_cards(e.cards, ' ')}] ({words})")
        elif isinstance(e, ev.HandMucked):
            lines.append(f"{record.names[e.seat]}: mucks hand")
        elif isinstance(e, ev.PotAwarded):
            for seat, share in zip(e.seats, e.shares, strict=True):
                lines.append(f"{record.names[seat]} collected {money(share)} from {_pot_name(record, e.pot)}")
    return lines


def _summary(record: HandRecord, money: Money, hero: str | None) -> list[str]:
    total = sum(p.amount for p in record.pots)
    pots = ""
    if len(record.pots) > 1:
        parts = [f"{'Main pot' if p.pot == 0 else f'Side pot-{p.pot}'} {money(p.amount)}."
                 for p in record.pots]
        pots = " " + " ".join(parts)
    lines = ["*** SUMMARY ***", f"Total pot {money(total)}{pots} | Rake {money(record.ended.rake)}"]
    for run in range(1, record.runs + 1):
        board = record.board(run)
        if board:
            label = "" if record.runs == 1 else ("FIRST " if run == 1 else "SECOND ")
            lines.append(f"{label}Board [{format_cards(board, ' ')}]")
    shown = {e.seat: e for e in record.of(ev.HandShown) if e.run == 1}
    mucked = {e.seat for e in record.of(ev.HandMucked)}
    folded = record.folded_on()
    s = record.started
    for seat in sorted(record.order):
        name = record.names[seat]
        roles = [label for label, who in (("button", s.button_seat), ("small blind", s.small_blind_seat),
                                          ("big blind", s.big_blind_seat)) if who == seat]
        text = f"Seat {seat}: {name}" + "".join(f" ({r})" for r in roles)
        won = record.won.get(seat, 0)
        if seat in folded:
            text += f" folded {_STREET_NAMES[folded[seat]]}"
        elif seat in shown:
            e = shown[seat]
            words = hand_words(e.category, e.description)
            result = f"won ({money(won)})" if won else "lost"
            text += f" showed [{format_cards(e.cards, ' ')}] and {result} with {words}"
        elif seat in mucked:
            cards = record.holes.get(seat, ())
            visible = cards and (hero is None or hero == name)
            text += f" mucked [{format_cards(cards, ' ')}]" if visible else " mucked"
        elif won:
            text += f" collected ({money(won)})"
        lines.append(text)
    return lines
