"""Durable before visible, tournaments (TR-REFUND-3, TR-REFUND-4): a real server killed with SIGKILL the moment a
player is shown a bust, or the tournament's finish, and started again on the same data. A bust shown stands -- the
restart refunds the tournament from the state with the bust in it, so the busted player gets nothing more, and the
hand that busted them is stored -- and a finish shown stands with its prizes (nothing is refunded). The ledger and
the audit chain verify. Each runs on SQLite and on PostgreSQL."""

from __future__ import annotations

import pytest

from pokerroom.money.ledger import cash
from tests.net.crash_room import DATABASES, CrashRoom, crash_room
from tests.net.server_process import FAST_TOURNAMENTS, Player
from tests.support.socket_play import PASSWORD, sign_up

START = 100_000
PLAYERS = ("sam", "sid", "sue")
SETTINGS = {"min_players": 3, "max_players": 3, "table_size": 3, "starting_stack": 400}


@pytest.fixture(params=DATABASES)
def room(request, tmp_path):
    with crash_room(tmp_path, request.param, FAST_TOURNAMENTS) as crash:
        yield crash


def _event(push: dict) -> dict:
    return push["event"] if push.get("type") == "tournament_event" else {}


def _shove(name: str, player: Player, push: dict, folder: str = "sue") -> None:
    """All-in every hand, but for ``folder``, who folds: the sit & go busts someone in its first hands, and the
    first bust does not end it."""
    legal = push.get("legal") if push.get("type") == "tournament_table_events" else None
    if legal is None:
        return
    if name == folder:
        action = {"action": "check" if legal["can_check"] else "fold"}
    elif legal["can_raise"] or legal["can_bet"]:
        action = {"action": "raise" if legal["can_raise"] else "bet", "to": legal["max_to"]}
    else:
        action = {"action": "check" if legal["can_check"] else "call"}
    player.request("tournament_act", tournament="sng", decision=legal["decision"], **action)


def _sit_and_go(room: CrashRoom) -> dict[str, Player]:
    """Three players in a sit & go that starts when full."""
    server = room.start()
    td = sign_up(server.url, "tdir")[0]
    room.grant("tdir", "director")
    td = Player(server.url)
    assert td.request("login", nickname="tdir", password=PASSWORD)["ok"]
    created = td.request("director_create", template="sit_and_go", id="sng", name="Crash SnG", start_in=None,
                         settings=SETTINGS)
    assert created["ok"], created
    players = {}
    for name in PLAYERS:
        players[name] = sign_up(server.url, name)[0]
        assert players[name].request("tournament_register", tournament="sng")["ok"]
    return players


def _spent(room: CrashRoom, name: str) -> int:
    """What ``name`` paid to enter (the ledger's word, not the test's)."""
    entries = [t for t in room.store().ledger.transfers_touching([cash(name)], 50) if t.reference == "sng"]
    return -sum(p.amount for t in entries for p in t.postings if p.account == cash(name) and p.amount < 0)


def test_TR_REFUND_3_a_bust_shown_stands_when_the_room_is_killed_that_moment(room):
    players = _sit_and_go(room)
    _, push = room.kill_when(players, lambda name, push: _event(push).get("type") == "busted", _shove)
    busted = _event(push)["player"]

    room.start()                                                        # the restart refunds the tournament
    store = room.store()
    assert store.tournaments.tournament("sng").state == "cancelled"
    mine = [t for t in store.ledger.transfers_touching([cash(busted)], 50) if t.reference == "sng"]
    assert not [t for t in mine if t.reason.startswith("refund")]      # out before the kill: nothing more
    ledger = store.ledger.load_ledger()
    won = sum(p.amount for t in mine for p in t.postings if p.account == cash(busted) and p.amount > 0)
    assert ledger.balance(cash(busted)) == START - _spent(room, busted) + won
    hands = [h for h in store.hands.hands_of(busted, 20) if h.tournament == "sng"]
    assert hands and not hands[0].void and hands[0].end_stacks[busted] == 0   # the hand that busted them, stored
    for name in set(PLAYERS) - {busted}:                                # the others are refunded
        assert any(t.reason.startswith("refund") for t in store.ledger.transfers_touching([cash(name)], 50))
    room.operator_checks()


def test_TR_REFUND_4_a_finish_shown_stands_with_its_prizes_when_the_room_is_killed_that_moment(room):
    players = _sit_and_go(room)
    seen: list[dict] = []

    def shove_and_watch(name: str, player: Player, push: dict) -> None:
        if _event(push):
            seen.append(_event(push))
        _shove(name, player, push, folder="")           # everyone all-in: over in a hand or two

    _, push = room.kill_when(players, lambda name, push: _event(push).get("type") == "finished", shove_and_watch)
    winner = _event(push)["winner"]
    prizes = {p: e["prize"] for e in seen if e["type"] == "eliminated" for p in e["players"]}

    room.start()
    store = room.store()
    assert store.tournaments.tournament("sng").state == "finished"                  # not refunded: it was over
    ledger = store.ledger.load_ledger()
    paid = {name: ledger.balance(cash(name)) - START + _spent(room, name) for name in PLAYERS}
    assert {name: paid[name] for name in prizes} == prizes               # each place's prize, as shown
    fixed = next(e for e in seen if e["type"] == "prizes_fixed")         # every entrant was shown the same
    assert paid[winner] == fixed["prizes"][0] > 0                        # first place, as the table showed it
    assert not [t for n in PLAYERS for t in store.ledger.transfers_touching([cash(n)], 50)
                if t.reason.startswith("refund")]
    room.operator_checks()
