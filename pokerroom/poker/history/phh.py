"""PHH, the TOML Poker Hand History format PokerKit reads and writes: export and replay.

Players are listed in dealing order (first seat left of the button first, the
button last), which is PokerKit's order too; heads-up its blinds list is
``[small, big]`` although the button posts the small blind. What PHH cannot
say exactly is approximated or refused:

* antes and the big-blind ante become per-player ``antes``; dead blinds are
  added to the poster's ante (dead money either way);
* a live entry blind out of position has no PHH form: ``ValueError``;
* a hand run twice has no PHH form here: ``ValueError``;
* rake is not in PHH: replay takes the table's ``RakeSchedule``.

Showdown lines (``sm``) are written in our showing order; replaying ignores
them, since our engine decides who shows.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Sequence
from typing import Any

from pokerroom.cards import format_card, parse
from pokerroom.poker import events as ev
from pokerroom.poker.actions import Bet, Call, Check, Fold, Raise
from pokerroom.poker.hand import Hand
from pokerroom.poker.hand_setup import BlindSeats, HandSetup, Post, Seat
from pokerroom.poker.history.record import HandRecord
from pokerroom.poker.rake import RakeSchedule
from pokerroom.poker.variants import FLHE, NLHE, PLO, Stakes

_PHH_VARIANTS = {("holdem", "no_limit", 2): "NT", ("omaha", "pot_limit", 4): "PO",
                 ("holdem", "fixed_limit", 2): "FT"}
_OUR_VARIANTS = {"NT": NLHE, "PO": PLO, "FT": FLHE}


def _cards(cards: Sequence[int]) -> str:
    return "".join(format_card(c) for c in cards)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value)        # a JSON string is a valid TOML basic string
    return str(value)


def to_phh(events: Sequence[ev.Event]) -> str:
    """The hand as PHH text, loadable by ``pokerkit.HandHistory.loads``."""
    record = HandRecord(events)
    s = record.started
    code = _PHH_VARIANTS.get((s.game, s.betting, s.hole_card_count))
    if code is None:
        raise ValueError(f"PHH has no variant for {s.variant}")
    if record.runs == 2:
        raise ValueError("a hand run twice has no PHH form")
    n = len(record.order)
    index = {seat: i for i, seat in enumerate(record.order)}
    antes = [0] * n
    blinds = [0] * n
    for post in record.of(ev.Posted):
        i = index[post.seat]
        if post.kind == ev.POST_ENTRY:
            raise ValueError("PHH cannot express a live entry blind")
        if post.live:
            # Scheduled sizes: PokerKit caps a short stack's post itself.
            blinds[i] = {ev.POST_SMALL_BLIND: s.small_blind, ev.POST_BIG_BLIND: s.big_blind,
                         ev.POST_THIRD_BLIND: s.third_blind}[post.kind]
        elif post.kind in (ev.POST_ANTE, ev.POST_BIG_BLIND_ANTE):
            antes[i] += s.ante
        else:
            antes[i] += post.added
    if n == 2:
        blinds = [s.small_blind if s.small_blind_seat is not None else 0, s.big_blind]
    fields: dict[str, Any] = {"variant": code, "antes": antes, "blinds_or_straddles": blinds}
    if code == "FT":
        fields.update(small_bet=s.small_bet, big_bet=s.big_bet)
    else:
        fields["min_bet"] = s.big_blind
    fields["starting_stacks"] = [p.stack for p in record.seats]
    fields["actions"] = _actions(record, index)
    fields.update(hand=s.hand_id, table=s.table_name, seat_count=s.max_seats or n,
                  seats=list(record.order), players=[p.player for p in record.seats],
                  finishing_stacks=[record.final_stacks[seat] for seat in record.order])
    if s.currency:
        fields["currency"] = s.currency
    return "\n".join(f"{key} = {_toml_value(value)}" for key, value in fields.items()) + "\n"


def _actions(record: HandRecord, index: dict[int, int]) -> list[str]:
    out = []
    for e in record.events:
        if isinstance(e, ev.HoleCardsDealt):
            cards = _cards(e.cards) if e.cards else "??" * record.started.hole_card_count
            out.append(f"d dh p{index[e.seat] + 1} {cards}")
        elif isinstance(e, ev.ActionTaken):
            player = f"p{index[e.seat] + 1}"
            if e.action == ev.FOLD:
                out.append(f"{player} f")
            elif e.action in (ev.CHECK, ev.CALL):
                out.append(f"{player} cc")
            else:
                out.append(f"{player} cbr {e.to}")
        elif isinstance(e, ev.BoardDealt):
            out.append(f"d db {_cards(e.cards)}")
        elif isinstance(e, ev.HandShown) and e.run == 1:
            out.append(f"p{index[e.seat] + 1} sm {_cards(e.cards)}")
        elif isinstance(e, ev.HandMucked):
            out.append(f"p{index[e.seat] + 1} sm")
    return out


def replay_phh(text: str, *, rake: RakeSchedule | None = None) -> list[ev.Event]:
    """Play a PHH hand through our engine and return its events.

    The finishing stacks are in the last ``HandEnded``; when the file has
    ``finishing_stacks`` they must match (``ValueError`` otherwise), so a
    replay is also a check of the file.
    """
    data = tomllib.loads(text)
    variant = _OUR_VARIANTS.get(data["variant"])
    if variant is None:
        raise ValueError(f"our engine does not play PHH variant {data['variant']!r}")
    stacks = list(data["starting_stacks"])
    n = len(stacks)
    seat_numbers = list(data.get("seats") or range(1, n + 1))
    names = list(data.get("players") or [f"p{i + 1}" for i in range(n)])
    setup = _setup(data, variant, seat_numbers, names, stacks, rake)
    holes, boards = _dealt(data["actions"], n)
    hand = Hand(setup, _deck(holes, boards, n, variant.hole_cards))
    for action in data["actions"]:
        words = action.split("#")[0].split()
        if not words or words[0] == "d" or words[1] == "sm":
            continue
        seat = seat_numbers[int(words[0][1:]) - 1]
        legal = hand.legal_actions()
        if legal is None or legal.seat != seat:
            raise ValueError(f"{action!r}: our engine waits for {legal and legal.seat}, not seat {seat}")
        if words[1] == "f":
            hand.apply(Fold(seat))
        elif words[1] == "cc":
            hand.apply(Check(seat) if legal.can_check else Call(seat))
        elif words[1] == "cbr":
            to = int(words[2])
            hand.apply(Bet(seat, to) if legal.can_bet else Raise(seat, to))
        else:
            raise ValueError(f"cannot replay PHH action {action!r}")
    if not hand.ended:
        raise ValueError("the PHH actions stop before the hand is over")
    finishing = data.get("finishing_stacks")
    ours = [stack for _, stack in hand.events[-2].stacks]
    if finishing is not None and list(finishing) != ours:
        raise ValueError(f"replayed stacks {ours} differ from the file's finishing stacks {finishing}")
    return list(hand.events)


def _setup(data: dict, variant, seats: list[int], names: list[str], stacks: list[int],
           rake: RakeSchedule | None) -> HandSetup:
    """Stakes and positions from the PHH fields; uneven antes come back as dead posts."""
    n = len(stacks)
    blinds = list(data.get("blinds_or_straddles") or [0] * n) + [0] * n
    antes = data.get("antes", 0)
    antes = [antes] * n if isinstance(antes, int) else list(antes) + [0] * (n - len(antes))
    small, big = blinds[0], blinds[1]
    third = blinds[2] if n > 2 else 0
    big_index = 0 if n == 2 else 1
    small_index = 1 if n == 2 else 0
    positive = [a for a in antes if a]
    owed: list[Post] = []
    if positive and len(positive) == 1 and antes[big_index]:
        ante, bb_ante = antes[big_index], True
    else:
        ante, bb_ante = (min(antes) if len(positive) == n else 0), False
        owed = [Post(seats[i], "dead_small_blind", a - ante) for i, a in enumerate(antes) if a > ante]
    if variant is FLHE:
        stakes = Stakes(small, big, ante=ante, big_blind_ante=bb_ante, third_blind=third,
                        small_bet=data["small_bet"], big_bet=data["big_bet"])
    else:
        stakes = Stakes(small, big, ante=ante, big_blind_ante=bb_ante, third_blind=third)
    blind_seats = BlindSeats(seats[small_index] if small else None, seats[big_index],
                             seats[2] if third else None)
    table = data.get("table", "")
    players = tuple(Seat(seat, name, stack) for seat, name, stack in zip(seats, names, stacks, strict=True))
    return HandSetup(str(data.get("hand", "phh")), variant, stakes, players, seats[-1],
                     blinds=blind_seats, owed_posts=tuple(owed), rake=rake,
                     table_name=str(table), max_seats=int(data.get("seat_count", n)))


def _dealt(actions: list[str], n: int) -> tuple[list[tuple[int, ...]], list[int]]:
    holes: list[tuple[int, ...]] = [()] * n
    board: list[int] = []
    for action in actions:
        words = action.split("#")[0].split()
        if words[:2] == ["d", "dh"]:
            if "?" in words[3]:
                raise ValueError("cannot replay a hand with unknown hole cards")
            holes[int(words[2][1:]) - 1] = parse(words[3])
        elif words[:2] == ["d", "db"]:
            board.extend(parse(words[2]))
    return holes, board


def _deck(holes: list[tuple[int, ...]], board: list[int], n: int, count: int) -> list[int]:
    """A deck that deals these hole cards and this board, burning unused cards."""
    if any(len(h) != count for h in holes):
        raise ValueError(f"every player needs {count} known hole cards to replay")
    deck = [holes[p][r] for r in range(count) for p in range(n)]
    spare = [c for c in range(52) if c not in set(deck) | set(board)]
    for size in (3, 1, 1):
        if not board:
            break
        deck.append(spare.pop())
        deck.extend(board[:size])
        del board[:size]
    return deck + spare
