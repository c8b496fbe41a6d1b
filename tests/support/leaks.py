"""The leak check (HR-RNG-2, SEC-2): no frame shows a player a card they may not see.

A player may see their own hole cards, and a card once it is public in that hand (on the board, shown or exposed);
any other card in a hand's event sent to them is a leak. The truth of whose cards are whose is either the stored
hand (the single-process run) or, over a cluster whose voided hands have no stored truth, the frames each seat's own
player was dealt.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgpack

PUBLIC = ("hand_shown", "cards_exposed", "board_dealt")


def cards_in(value: Any, found: list[int]) -> list[int]:
    """Every card listed under a "cards" key anywhere in a message."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "cards" and isinstance(item, list):
                found.extend(item)
            else:
                cards_in(item, found)
    elif isinstance(value, list):
        for item in value:
            cards_in(item, found)
    return found


def hand_events(message: dict) -> Iterable[dict]:
    """The hand events of a ``table_events`` frame."""
    if message.get("type") == "table_events":
        yield from (e for e in message["events"] if e["type"] == "hand_event")


def decoded(frames: Iterable[bytes | str]) -> list[dict]:
    return [msgpack.unpackb(f, raw=False, strict_map_key=False) for f in frames if isinstance(f, bytes)]


def own_hand_events(message: dict) -> Iterable[tuple[str, dict]]:
    """(hand, event) of a ``table_events`` frame's hand events, and of a ``table_snapshot``'s running hand (a
    player who resumed mid-hand was dealt their cards in the snapshot, not in a frame)."""
    for table_event in hand_events(message):
        yield table_event["hand_id"], table_event["event"]
    if message.get("type") == "table_snapshot":
        started = [e for e in message.get("hand", ()) if e.get("type") == "hand_started"]
        if started:
            yield from ((started[0]["hand_id"], event) for event in message["hand"])


def own_holes(received: dict[str, list[dict]]) -> dict[tuple[str, str], set[int]]:
    """(player, hand) to the hole cards the player's own seat was dealt, as their own frames (and snapshots)
    showed them."""
    seats: dict[tuple[str, str], int] = {}
    holes: dict[tuple[str, str], set[int]] = {}
    for player, messages in received.items():
        for message in messages:
            for hand, event in own_hand_events(message):
                if event["type"] == "seat_dealt_in" and event["player"] == player:
                    seats[(player, hand)] = event["seat"]
                elif event["type"] == "hole_cards_dealt" and event["seat"] == seats.get((player, hand)):
                    holes.setdefault((player, hand), set()).update(event["cards"])
    return holes


def leaks(received: dict[str, list[dict]], holes: dict[tuple[str, str], set[int]]) -> tuple[list[str], int]:
    """Each card a player was sent that they could not see, said in a sentence; and how many hand events were
    checked. ``holes``: (player, hand) to the player's own hole cards."""
    found, checked = [], 0
    for player, messages in received.items():
        allowed: dict[str, set[int]] = {}
        for message in messages:
            if "deck" in str(message):
                found.append(f"a deck order reached {player}")
            for table_event in hand_events(message):
                hand, event = table_event["hand_id"], table_event["event"]
                seen = allowed.setdefault(hand, set(holes.get((player, hand), ())))
                if event["type"] in PUBLIC:
                    seen |= set(cards_in(event, []))
                leaked = set(cards_in(event, [])) - seen
                if leaked:
                    found.append(f"{player} saw {sorted(leaked)} in {event['type']} of {hand}")
                checked += 1
    return found, checked


def tournament_leaks(received: dict[str, list[dict]]) -> tuple[list[str], int]:
    """:func:`leaks` for ``tournament_table_events`` frames (wherever the hand was played): each card a player was
    sent that was not theirs nor public yet, said in a sentence; and how many hand events were checked. A frame
    names the player's own seat; their hole cards are those dealt to it, every other seat's come empty."""
    found, checked = [], 0
    for player, messages in received.items():
        hand: dict[str, str] = {}                                   # table -> the hand its frames are of
        seen: dict[str, set[int]] = {}                              # hand -> the cards the player may see
        for message in messages:
            if "deck" in str(message):
                found.append(f"a deck order reached {player}")
            if message.get("type") != "tournament_table_events":
                continue
            table = message["table"]
            for event in message.get("events", ()):
                if event["type"] == "hand_started":
                    hand[table] = event["hand_id"]
                allowed = seen.setdefault(hand.get(table, ""), set())
                cards = set(cards_in(event, []))
                if event["type"] in PUBLIC or (event["type"] == "hole_cards_dealt"
                                                and event["seat"] == message.get("seat")):
                    allowed |= cards
                if cards - allowed:
                    found.append(f"{player} saw {sorted(cards - allowed)} in {event['type']} of {hand.get(table)}")
                checked += 1
    return found, checked
