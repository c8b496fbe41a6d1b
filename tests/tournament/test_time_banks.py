"""Tournament decisions on the cash tables' DecisionClock, on a Clock: thinking time, then the entry's time bank,
then check or fold (HR-TIME-2..5); the bank is the entry's and keeps what a player did not use."""

from __future__ import annotations

from pokerroom.shell.tournaments import BankRefill
from pokerroom.table.decision_clock import THINKING, TIME_BANK
from tests.support.hall_lobby import Lobby, started
from tournament import director as td


def turn(d: td.Director) -> tuple[str, object]:
    (table,) = d.tables.values()
    return table.to_act()


def clock_of(lobby: Lobby, d: td.Director):
    (table_id,) = d.tables
    return lobby.hall.decisions.waiting[("sng", table_id)].clock


def act(lobby: Lobby, d: td.Director, player: str) -> None:
    _, legal = turn(d)
    answer = lobby.ask(player, "tournament_act", tournament="sng", action="check" if legal.can_check else "call",
                       decision=legal.decision)
    assert answer["ok"], answer


def test_HR_TIME_2_HR_TIME_5_the_bank_starts_when_the_decision_time_is_up_on_the_reactor_clock(store):
    lobby, d = started(store, time_bank=20)
    player, _ = turn(d)
    assert clock_of(lobby, d).phase == THINKING
    lobby.clock.advance(9.9)
    assert clock_of(lobby, d).phase == THINKING and not lobby.pushes(player, "time_bank_started")
    lobby.clock.advance(0.1)                                        # the decision's own 10 s are up
    clock = clock_of(lobby, d)
    assert clock.phase == TIME_BANK and clock.deadline - clock.started_at == 20
    assert lobby.pushes(player, "time_bank_started")[-1] == {"type": "time_bank_started", "player": player,
                                                              "seconds": 20.0, "deadline": clock.deadline}
    assert turn(d)[0] == player


def test_HR_TIME_4_a_player_acting_on_their_bank_keeps_the_rest_for_their_next_decision(store):
    lobby, d = started(store, time_bank=20)
    player, _ = turn(d)
    others = {n for n in ("ana", "bo", "cy") if n != player}
    lobby.clock.advance(10 + 6)                                     # 6 s into the time bank
    act(lobby, d, player)
    assert lobby.hall.decisions.bank("sng", player) == 14
    assert all(lobby.hall.decisions.bank("sng", other) == 20 for other in others)   # a bank per entry
    for _ in range(200):                                            # the others act at once until it is theirs
        who = turn(d)
        if who is None or who[0] == player:
            break
        act(lobby, d, who[0])
    assert turn(d)[0] == player                                     # everyone checks or calls: the next street
    lobby.clock.advance(10)                                         # their next decision: the rest of the bank
    assert clock_of(lobby, d).phase == TIME_BANK
    assert lobby.pushes(player, "time_bank_started")[-1]["seconds"] == 14


def test_HR_TIME_3_a_spent_bank_means_check_or_fold_and_no_bank_next_time(store):
    lobby, d = started(store, time_bank=20)
    player, _ = turn(d)
    lobby.clock.advance(10 + 20)                                    # thinking time, then the whole bank
    assert turn(d) is None or turn(d)[0] != player                  # checked or folded for them
    assert lobby.hall.decisions.bank("sng", player) == 0
    banks_started = len(lobby.pushes(player, "time_bank_started"))
    for _ in range(500):                                            # their next decision waits 10 s, no more
        who = turn(d)
        if who is not None and who[0] == player and clock_of(lobby, d).phase == THINKING:
            lobby.clock.advance(10)
            assert turn(d) is None or turn(d)[0] != player or clock_of(lobby, d).phase == THINKING
            assert len(lobby.pushes(player, "time_bank_started")) == banks_started
            return
        lobby.clock.advance(1)
    raise AssertionError("the player never had to act again")


def test_HR_TIME_4_an_entry_with_no_time_bank_is_acted_for_when_its_decision_time_is_up(store):
    lobby, d = started(store, time_bank=0)
    player, _ = turn(d)
    lobby.clock.advance(10)
    assert turn(d) is None or turn(d)[0] != player
    assert not lobby.pushes(player, "time_bank_started")


def play_out(lobby: Lobby, d: td.Director) -> None:
    """Everyone checks or calls at once until the hand ends; then the next one is dealt."""
    (table,) = d.tables.values()
    while table.hand is not None and table.to_act() is not None:
        act(lobby, d, table.to_act()[0])
    lobby.clock.advance(1)                                          # between hands: the next one is dealt
    assert table.hand is not None


def test_HR_TIME_4_an_entry_s_bank_refills_every_n_hands_dealt_to_it_up_to_the_cap(store):
    lobby = Lobby(store)
    lobby.hall.decisions.refill = BankRefill(seconds=5, every_hands=2, cap=22)
    lobby.create(time_bank=20)
    for name in ("ana", "bo", "cy"):
        lobby.person(name)
        assert lobby.ask(name, "tournament_register", tournament="sng")["ok"]
    d = lobby.hall.directors["sng"]
    lobby.clock.advance(1)                                          # hand 1
    player, _ = turn(d)
    lobby.clock.advance(10 + 6)
    act(lobby, d, player)                                           # 6 s of the bank used: 14 left
    assert lobby.hall.decisions.bank("sng", player) == 14
    play_out(lobby, d)                                              # hand 2: the refill, 5 s
    assert lobby.hall.decisions.bank("sng", player) == 19
    others = [n for n in ("ana", "bo", "cy") if n != player]
    assert all(lobby.hall.decisions.bank("sng", n) == 22 for n in others)    # 25 over the cap: 22
    frames = [m for m in lobby.people[player][1].sent if m.get("type") == "tournament_table_events"]
    assert frames[-1]["to_act"]["time_bank"] == lobby.hall.decisions.bank("sng", frames[-1]["to_act"]["player"])
    play_out(lobby, d)                                              # hand 3: no refill yet
    assert lobby.hall.decisions.bank("sng", player) == 19
    play_out(lobby, d)                                              # hand 4: 24, held to the cap
    assert lobby.hall.decisions.bank("sng", player) == 22


def test_HR_TIME_4_the_refill_is_read_from_the_room_config():
    assert BankRefill.from_config({}) == BankRefill(0.0, 10, 60.0)                # no refill unless configured
    assert BankRefill.from_config({"refill_seconds": 5, "every_hands": 10, "cap_seconds": 60}).seconds == 5
