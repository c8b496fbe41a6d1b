"""An event's dict and its redaction, made the fast way (issue 36), are what the plain way makes (SEC-2).

Every event of every table becomes a dict once, by a function written for its class; the redaction
looks no further than the type of an event anyone may see. Both are checked here against the plain
definitions: every field, in order (the packed bytes on the wire follow the order), and every viewer.
"""

from __future__ import annotations

import dataclasses
import random

from pokerroom.poker import Hand, Viewer, redact
from pokerroom.poker import events as he
from pokerroom.poker.actions import LegalActions
from pokerroom.poker.redact import PUBLIC
from pokerroom.table import events as te
from tests.poker.engine_drivers import random_action, setup


def _plain(event, type_name: str) -> dict:
    return {"type": type_name, **{f.name: getattr(event, f.name) for f in dataclasses.fields(event)}}


def _hands(count: int = 40) -> list[Hand]:
    rng = random.Random(7)
    hands = []
    for _ in range(count):
        deck = list(range(52))
        rng.shuffle(deck)
        hand = Hand(setup([rng.randint(5, 200) for _ in range(rng.randint(2, 6))], run_it_twice=True), deck)
        while (legal := hand.legal_actions()) is not None:
            hand.apply(random_action(legal, rng))
        hands.append(hand)
    return hands


def test_every_hand_event_becomes_its_plain_dict_keys_in_order():
    seen = set()
    for hand in _hands():
        for event in hand.events:
            made = he.event_to_dict(event)
            assert list(made.items()) == list(_plain(event, he.event_type(event)).items())
            assert he.event_from_dict(made) == event
            table_made = te.table_event_to_dict(te.HandEvent(3, hand.hand_id, event))
            assert list(table_made) == ["type", "seq", "hand_id", "event"] and table_made["event"] == made
            seen.add(type(event))
    assert seen >= {he.HandStarted, he.Posted, he.ActionTaken, he.BoardDealt, he.HandShown, he.PotAwarded,
                    he.HandEnded, he.DeckRevealed}


def test_every_table_event_becomes_its_plain_dict_keys_in_order():
    for name, cls in te.TABLE_EVENT_TYPES.items():
        if cls is te.HandEvent:
            continue
        event = cls(*(i + 1 for i in range(len(dataclasses.fields(cls)))))
        assert list(te.table_event_to_dict(event).items()) == list(_plain(event, name).items())


def test_SEC_2_redaction_by_type_sees_what_the_rules_say_for_every_viewer():
    assert PUBLIC.isdisjoint({he.HoleCardsDealt, he.HandMucked, he.DeckRevealed})
    viewers = [Viewer.observer(), Viewer.security(), *(Viewer.player(seat) for seat in range(1, 7))]
    for hand in _hands(15):
        for event in hand.events:
            for viewer in viewers:
                for ended in (False, True):
                    shown = redact(event, viewer, hand_ended=ended)
                    if type(event) in PUBLIC:
                        assert shown is event
                    elif isinstance(event, he.DeckRevealed):
                        assert shown is (event if viewer.kind == "security" and ended else None)
                    elif (viewer.kind == "security" and ended) or viewer.seat == event.seat:
                        assert shown is event
                    else:
                        assert shown == dataclasses.replace(event, cards=())
                    wrapped = te.HandEvent(1, hand.hand_id, event)
                    as_table = te.redact(wrapped, viewer, hand_ended=ended)
                    assert (as_table is None) if shown is None else (as_table.event == shown)


def test_legal_on_the_wire_is_every_field_in_order():
    legal = LegalActions(3, False, 20, False, True, 40, 200, False, "t1-4/9")
    assert list(legal.to_wire().items()) == [(f.name, getattr(legal, f.name)) for f in dataclasses.fields(legal)]
