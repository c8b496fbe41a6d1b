"""Tournament events and the pushes made of them are wire data only: no Fraction, no object a client
needs a hook for (DESIGN "events are plain data"); a share of action is a whole percent (TR-STAKE-1)."""

from __future__ import annotations

from dataclasses import fields, replace
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.errors import RuleViolation
from pokerroom.poker.events import event_to_dict
from tests.support.hall_lobby import Lobby
from tests.tournament.director_drivers import Room, spec
from tournament import director as td
from tournament import simulate as sim
from tournament.events import event_to_wire
from tournament.structure import STRUCTURES, TournamentSpec

TIME_KEYS = {"seconds", "time_bank", "clock_left", "next_break_in", "start_at", "at", "deadline"}


def wire_problems(value: object, where: str = "", key: str = "") -> list[str]:
    """Where ``value`` holds something other than None, bool, int, str, lists, tuples and str-keyed maps
    (a float only under a key that names a time)."""
    if value is None or isinstance(value, bool | int | str):
        return []
    if isinstance(value, float):
        return [] if key in TIME_KEYS else [f"{where}: float {value!r}"]
    if isinstance(value, list | tuple):
        return [p for i, v in enumerate(value) for p in wire_problems(v, f"{where}[{i}]", key)]
    if isinstance(value, dict):
        out = [f"{where}: key {k!r}" for k in value if not isinstance(k, str)]
        return out + [p for k, v in value.items() for p in wire_problems(v, f"{where}.{k}", str(k))]
    return [f"{where}: {type(value).__name__} {value!r}"]


def event_problems(event: object) -> list[str]:
    """An event's own fields (before any conversion) and its push form; a hand's events as clients get them."""
    name = type(event).__name__
    if isinstance(event, td.HandDealt | td.HandPlayed):
        return [p for x in event.events for p in wire_problems(event_to_dict(x), f"{name}.{type(x).__name__}")]
    own = [p for f in fields(event) for p in wire_problems(getattr(event, f.name), f"{name}.{f.name}", f.name)]
    return own + wire_problems(event_to_wire(event), name)


def test_the_check_itself_finds_a_fraction_and_an_int_key():
    assert wire_problems({"share": Fraction(1, 2)}) and wire_problems({1: "a"})
    assert not wire_problems({"a": [1, "x", None, True, {"seconds": 1.5}]})


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 40), seed=st.integers(0, 10_000),
       name=st.sampled_from(["daily", "knockout", "satellite", "sit_and_go"]))
def test_every_event_of_a_simulated_tournament_is_wire_data(players, seed, name):
    seen: list = []
    structure = replace(TournamentSpec.load(STRUCTURES / f"{name}.toml"), max_players=players * 2, min_players=2)
    sim.simulate(players, seed=seed, spec=structure, on_events=seen.extend)
    assert any(isinstance(e, td.Finished) for e in seen)
    problems = [p for e in seen for p in event_problems(e)]
    assert not problems, problems[:5]


def test_TR_STAKE_1_a_share_sold_is_a_whole_percent_in_the_event_and_a_fraction_of_one_is_refused():
    room = Room(spec())
    room.register("a", "b", "c")
    room.fund("backer")
    events = room.apply(room.director.registration.sell_shares("a", "backer", Fraction(25), Fraction("1.2"),
                                                  room.cash("backer")))
    (sold,) = [e for e in events if isinstance(e, td.SharesSold)]
    assert type(sold.percent) is int and sold.percent == 25
    assert event_to_wire(sold) == {"type": "shares_sold", "seller": "a", "backer": "backer", "percent": 25,
                                   "price": 300}
    with pytest.raises(RuleViolation) as refused:
        room.director.registration.sell_shares("a", "backer", Fraction(25, 2), Fraction(1), room.cash("backer"))
    assert refused.value.rule_id == "TR-STAKE-1"


def test_every_push_of_a_sit_and_go_played_to_its_end_over_the_hall_is_wire_data(store):
    lobby = Lobby(store)
    lobby.create(time_bank=5, pko_percent=50, bounty=100)
    for name in ("ana", "bo", "cy"):
        lobby.person(name)
    assert lobby.ask("ana", "tournament_register", tournament="sng")["ok"]
    assert lobby.ask("ana", "stake_offer", tournament="sng", percent=40, markup_percent=110)["ok"]
    assert lobby.ask("bo", "stake_buy", tournament="sng", seller="ana", percent=30)["ok"]
    for name in ("bo", "cy"):
        assert lobby.ask(name, "tournament_register", tournament="sng")["ok"]
    d = lobby.hall.directors["sng"]
    for _ in range(2000):                               # everyone shoves whenever it is their turn
        if d.state != td.RUNNING:
            break
        table = next((t for t in d.tables.values() if t.hand is not None and t.to_act() is not None), None)
        if table is None:
            lobby.clock.advance(1)
            continue
        player, legal = table.to_act()
        action = {"action": "raise", "to": legal.max_to} if legal.can_raise else {"action": "call"}
        assert lobby.ask(player, "tournament_act", tournament="sng", decision=legal.decision, **action)["ok"]
    assert d.state == td.FINISHED
    for question in ("tournament_list", "tournament_details"):
        assert lobby.ask("cy", question, **({"tournament": "sng"} if question != "tournament_list" else {}))["ok"]
    pushes = [m for name in ("ana", "bo", "cy", "boss") for m in lobby.people[name][1].sent]
    kinds = {m["event"]["type"] for m in pushes if m.get("type") == "tournament_event"}
    assert {"shares_sold", "bounty_won", "finished"} <= kinds
    problems = [p for m in pushes for p in wire_problems(m, str(m.get("type")))]
    assert not problems, problems[:5]
