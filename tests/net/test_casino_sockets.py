"""The live casino over real sockets, its clock driven by the test (``tests/net/casino_run.py``).

Players register and log in with the independent ``websockets`` client, see
the five games in the lobby with their rules (CR-1), and play each one to
settlement with the wallet checked against every payout (CR-4): baccarat,
Bet on Baccarat in two windows at the odds each bet was taken at (BOB-2),
roulette inside and outside bets and a refused layout (RO-5), live blackjack
in seat order (BJ-4) and infinite blackjack with everyone deciding alone
(IB-1). A live-blackjack player who disconnects on their turn is waited for
24 hours and resumes, or is refunded after (CR-6); an infinite-blackjack
player who disconnects is played for when the clock runs out (IB-11).
Garbage requests get an error answer with a code, a sentence and the rule,
never a closed connection nor a traceback in the log.

The shoe is the server's own: every test decides from the events what is
legal (``decision_needed`` carries the moves), so it holds whatever the cards.
Casino time moves only by ``advance``; nothing here sleeps.
"""

from __future__ import annotations

import pytest

from pokerroom.casino.blackjack_rules import total
from pokerroom.store.db import make_engine, sqlite_url
from pokerroom.store.room_store import RoomStore
from tests.net.server_process import Player
from tests.support.casino_process import (
    BAC,
    BETTING,
    BJ,
    BOB,
    DECISION,
    GAMES,
    IB,
    PASSWORD,
    RED,
    RO,
    WELCOME,
    CasinoRoom,
)
from tests.support.refusals import refused


class Gambler(Player):
    """A player's connection that keeps every casino event it was sent, in order."""

    def __init__(self, url: str, name: str) -> None:
        super().__init__(url)
        self.name = name
        self.seen: list[dict] = []

    def receive(self, timeout: float = 10) -> dict:
        message = super().receive(timeout)
        if message.get("type") == "casino_events":
            assert set(message) == {"type", "table", "events"}, message
            self.seen += [{**event, "at_table": message["table"]} for event in message["events"]]
        return message

    def mark(self) -> int:
        return len(self.seen)

    def sync(self) -> None:
        """Every push the room sent before now has been received (an answer comes after them)."""
        assert self.request("casino_list")["ok"]

    def events(self, since: int, kind: str, table: str | None = None, **fields) -> list[dict]:
        return [e for e in self.seen[since:] if e["type"] == kind and (table is None or e["at_table"] == table)
                and all(e.get(k) == v for k, v in fields.items())]

    def one(self, since: int, kind: str, table: str | None = None, **fields) -> dict:
        found = self.events(since, kind, table, **fields)
        assert len(found) == 1, (kind, fields, found, self.seen[since:])
        return found[0]

    def ask(self, kind: str, /, **fields) -> dict:
        answer = self.request(kind, **fields)
        assert answer["ok"], answer
        return answer


def sign_up(room: CasinoRoom, name: str) -> Gambler:
    p = Gambler(room.url, name)
    p.ask("register", nickname=name, password=PASSWORD, birth_date="1990-01-01", country="NL")
    login = p.ask("login", nickname=name, password=PASSWORD)
    assert login["balance"] == WELCOME
    return p


def log_in(room: CasinoRoom, name: str) -> tuple[Gambler, dict]:
    """A new connection for ``name``; the login's answer (with the wallet's ``balance``)."""
    p = Gambler(room.url, name)
    return p, p.ask("login", nickname=name, password=PASSWORD)


def fresh_round(room: CasinoRoom, p: Gambler, table: str) -> int:
    """Advance one second at a time until ``table`` opens a round (``p`` watches it); its number.

    The round opened at the clock's time now: its bets close ``BETTING`` seconds from now.
    """
    since = p.mark()
    for _ in range(60):
        room.advance(1)
        p.sync()
        opened = p.events(since, "round_opened", table, window=1)
        if opened:
            return opened[-1]["round"]
    raise AssertionError(f"{table} opened no round; {p.seen[since:][-10:]}")


def bet(p: Gambler, table: str, market: str, amount: int, balance: int, **extra) -> tuple[dict, int]:
    """A bet taken: its answer, and the wallet after it (checked against the answer)."""
    answer = p.ask("casino_bet", table=table, market=market, amount=amount, **extra)
    assert answer["balance"] == balance - amount, answer
    return answer, balance - amount


def payouts_of(p: Gambler, since: int, number: int) -> list[dict]:
    return [e for e in p.seen[since:] if e["type"] == "payout" and e["round"] == number]


def staked_in(p: Gambler, since: int, table: str, number: int) -> int:
    return sum(e["amount"] for e in p.events(since, "staked", table, round=number, player=p.name))


# ---------------------------------------------------------------------- the floor with all five games


@pytest.fixture(scope="module")
def floor(tmp_path_factory):
    room = CasinoRoom(tmp_path_factory.mktemp("casino"), BAC, BOB, BJ, IB, RO)
    yield room
    room.stop()
    room.assert_clean()


def test_CR_1_the_lobby_lists_the_five_games_and_each_table_answers_its_rules_and_paytable(floor):
    anonymous = Player(floor.url)                      # casino_list, casino_rules, casino_history: no login
    listed = anonymous.request("casino_list")
    assert listed["ok"]
    assert {t["table"]: t["game"] for t in listed["tables"]} == GAMES
    for t in listed["tables"]:
        assert t["currency"] == "USD" and t["phase"] in ("betting", "settled", "deciding") and t["round"] >= 1
    lobby = anonymous.request("lobby_list")
    assert lobby["ok"] and lobby["tables"] == []       # no poker tables in this room
    assert {t["table"]: t["game"] for t in lobby["casino"]} == GAMES
    for table, game in GAMES.items():
        rules = anonymous.request("casino_rules", table=table)
        assert rules["ok"] and rules["game"] == game, rules
        assert rules["rules"] and all(isinstance(line, str) and line for line in rules["rules"])
        assert rules["paytable"] and all(len(row) == 2 for row in rules["paytable"])
        assert rules["betting_seconds"] == BETTING and rules["currency"] == "USD"
        history = anonymous.request("casino_history", table=table)
        assert history["ok"] and history["table"] == table and isinstance(history["statistics"], dict)
    baccarat = anonymous.request("casino_rules", table=BAC)
    assert ["tie", "8:1"] in baccarat["paytable"] and baccarat["limits"]["tie"] == [100, 50_000]
    assert baccarat["limits"]["default"] == [100, 500_000]
    assert ["straight", "35:1"] in anonymous.request("casino_rules", table=RO)["paytable"]
    assert ["blackjack", "3:2"] in anonymous.request("casino_rules", table=BJ)["paytable"]
    refused = anonymous.request("casino_join", table=BAC)         # playing needs a login
    assert refused["ok"] is False and refused["error"]["code"] == "not_logged_in"
    anonymous.close()
    floor.assert_clean()


def test_CR_4_BA_5_baccarat_bets_settle_at_once_and_the_wallet_matches_the_payouts(floor):
    ana = sign_up(floor, "bacana")
    balance = WELCOME
    assert ana.ask("casino_join", table=BAC)["table"] == BAC
    number = fresh_round(floor, ana, BAC)
    stakes = {"player": 1_000, "banker": 2_000, "tie": 300}
    for market, amount in stakes.items():
        answer, balance = bet(ana, BAC, market, amount, balance)
        assert (answer["round"], answer["market"], answer["amount"], answer["odds"]) == (number, market, amount, None)
    answer, balance = bet(ana, BAC, "player", 500, balance)       # chips on the same market join its bet
    assert answer["amount"] == 1_500
    stakes["player"] = 1_500
    since = ana.mark()
    floor.advance(BETTING)                                         # no more bets; the coup is dealt and settled
    ana.sync()
    ana.one(since, "betting_closed", BAC, round=number)
    cards = ana.events(since, "card_dealt", BAC, round=number)
    assert 4 <= len(cards) <= 6 and [c["to"] for c in cards[:4]] == ["player", "banker", "player", "banker"]
    settled = ana.one(since, "round_settled", BAC, round=number)
    result = settled["result"]
    winner = "tie" if result.startswith("tie") else result.split()[0]
    assert winner in ("player", "banker", "tie"), result
    paid = {p["market"]: p for p in payouts_of(ana, since, number)}
    assert {m: p["staked"] for m, p in paid.items()} == stakes
    expected = {"player": {"player": 3_000, "banker": 0, "tie": 1_500}[winner],
                "banker": {"player": 0, "banker": 2_000 + 1_900, "tie": 2_000}[winner],
                "tie": {"tie": 2_700}.get(winner, 0)}
    assert {m: p["returned"] for m, p in paid.items()} == expected
    balance += sum(expected.values())
    history = ana.ask("casino_history", table=BAC)
    assert [number, result] in history["results"]
    rows = [r for r in ana.ask("casino_bets", limit=10)["bets"] if r["table"] == BAC and r["round"] == number]
    assert sorted((r["market"], r["staked"], r["returned"]) for r in rows) == \
        sorted((m, stakes[m], expected[m]) for m in stakes)
    ana.close()
    again, login = log_in(floor, "bacana")                       # the wallet, from the room's own ledger
    assert login["balance"] == balance
    state = again.wait_for(lambda m: m.get("type") == "casino_state")
    assert state["table"] == BAC and [number, result] in state["results"]
    again.close()
    floor.assert_clean()


def test_BOB_2_BOB_3_bets_in_two_windows_keep_their_own_odds_and_settle_together(floor):
    bo = sign_up(floor, "bobby")
    balance = WELCOME
    bo.ask("casino_join", table=BOB)
    since = bo.mark()
    number = fresh_round(floor, bo, BOB)
    first = dict(bo.one(since, "round_opened", BOB, round=number, window=1)["odds"])
    assert set(first) == {"player", "banker", "tie", "player_pair", "banker_pair", "any_pair", "perfect_pair",
                          "small", "big"}
    assert all(o is None or o > 100 for o in first.values())
    taken: list[tuple[str, int, int, int]] = []                    # (market, window, stake, odds)
    for market, amount in (("player", 1_000), ("big", 400)):
        answer, balance = bet(bo, BOB, market, amount, balance)
        assert answer["odds"] == first[market] and answer["round"] == number
        taken.append((market, 1, amount, answer["odds"]))
    since = bo.mark()
    floor.advance(BETTING)                                         # window 1 closes; the player's first card
    bo.sync()
    bo.one(since, "betting_closed", BOB, round=number, window=1)
    assert bo.one(since, "card_dealt", BOB, round=number)["to"] == "player"
    second = dict(bo.one(since, "round_opened", BOB, round=number, window=2)["odds"])
    for market, amount in (("player", 500), ("banker", 600)):     # player again: a second bet at new odds
        if second[market] is None:
            refused(bo.request("casino_bet", table=BOB, market=market, amount=amount),
                    code="market_closed", rule="BOB-3")
            continue
        answer, balance = bet(bo, BOB, market, amount, balance)
        assert answer["odds"] == second[market]
        taken.append((market, 2, amount, answer["odds"]))
    since = bo.mark()
    floor.advance(BETTING)                                         # window 2 closes; the banker's first card
    bo.sync()
    assert bo.one(since, "card_dealt", BOB, round=number)["to"] == "banker"
    third = dict(bo.one(since, "round_opened", BOB, round=number, window=3)["odds"])
    for market in [m for m, o in third.items() if o is None][:2]:  # a market that can no longer win is closed
        refused(bo.request("casino_bet", table=BOB, market=market, amount=100), code="market_closed", rule="BOB-3")
    since = bo.mark()
    floor.advance(BETTING)                                         # the rest of the coup, every bet at once
    bo.sync()
    settled = bo.one(since, "round_settled", BOB, round=number)
    winner = "tie" if settled["result"].startswith("tie") else settled["result"].split()[0]
    cards = 2 + len(bo.events(since, "card_dealt", BOB, round=number))
    assert 4 <= cards <= 6
    paid = payouts_of(bo, since, number)
    assert sorted((p["market"], p["staked"]) for p in paid) == sorted((m, s) for m, _, s, _ in taken)
    rows = [r for r in bo.ask("casino_bets", limit=20)["bets"] if r["table"] == BOB and r["round"] == number]
    assert sorted((r["market"], r["staked"], r["returned"], r["detail"]) for r in rows) == \
        sorted((p["market"], p["staked"], p["returned"], p["detail"]) for p in paid)
    for market, _, stake, odds in taken:
        won = {"player": winner == "player", "banker": winner == "banker", "big": cards > 4}[market]
        push = winner == "tie" and market in ("player", "banker")
        want = (stake, "tie: returned") if push else (stake * odds // 100, "won") if won else (0, "lost")
        assert any((p["market"], p["staked"], p["returned"], p["detail"]) == (market, stake, *want) for p in paid), \
            (market, stake, odds, want, paid)
        balance += want[0]
    bo.close()
    _, login = log_in(floor, "bobby")
    assert login["balance"] == balance
    floor.assert_clean()


def test_RO_5_CR_4_roulette_inside_and_outside_bets_pay_by_the_layout_and_an_illegal_one_is_refused(floor):
    rosa = sign_up(floor, "rosa")
    balance = WELCOME
    rosa.ask("casino_join", table=RO)
    number = fresh_round(floor, rosa, RO)
    for market in ("split:1-3", "straight:37", "corner:1-2-3-4", "street:1-2-4", "dozen:4", "red:5", "purple",
                   "split:x-y", "column"):
        refused(rosa.request("casino_bet", table=RO, market=market, amount=100), code="illegal_bet", rule="RO-5")
    refused(rosa.request("casino_bet", table=RO, market="straight:5", amount=10_001), code="above_maximum", rule="CR-3")
    covers = {"straight:17": ({17}, 35), "split:17-20": ({17, 20}, 17), "street:16-17-18": ({16, 17, 18}, 11),
              "corner:17-18-20-21": ({17, 18, 20, 21}, 8), "line:13-18": (set(range(13, 19)), 5),
              "red": (RED, 1), "dozen:2": (set(range(13, 25)), 2), "column:1": (set(range(1, 35, 3)), 2),
              "even": (set(range(2, 37, 2)), 1)}
    asked = {"straight:17": "straight:17", "split:20-17": "split:17-20", "street:16-17-18": "street:16-17-18",
             "corner:21-20-18-17": "corner:17-18-20-21", "line:13-18": "line:13-14-15-16-17-18", "red": "red",
             "dozen:2": "dozen:2", "column:1": "column:1", "even": "even"}
    stakes = {}
    for market, canonical in asked.items():
        answer, balance = bet(rosa, RO, market, 200, balance)
        assert answer["market"] == canonical, answer          # kept under its canonical name
        stakes[canonical] = 200
    since = rosa.mark()
    floor.advance(BETTING)
    rosa.sync()
    landed = rosa.one(since, "ball_landed", RO, round=number)
    pocket = landed["pocket"]
    assert 0 <= pocket <= 36
    assert landed["colour"] == ("green" if pocket == 0 else "red" if pocket in RED else "black")
    settled = rosa.one(since, "round_settled", RO, round=number)
    assert settled["result"] == f"{pocket} {landed['colour']}"
    paid = {p["market"]: p for p in payouts_of(rosa, since, number)}
    name = {"line:13-18": "line:13-14-15-16-17-18"}
    for market, (numbers, pays) in covers.items():
        p = paid[name.get(market, market)]
        assert p["staked"] == 200 and p["returned"] == (200 * (pays + 1) if pocket in numbers else 0), (market, p)
        balance += p["returned"]
    assert set(paid) == set(stakes)
    refused(rosa.request("casino_bet", table=RO, market="red", amount=100),  # until the next round
            code="betting_closed", rule="CR-2")
    rosa.close()
    _, login = log_in(floor, "rosa")
    assert login["balance"] == balance
    floor.assert_clean()


def _play_live_round(room: CasinoRoom, seated: dict[str, Gambler], number: int, since: int) -> bool:
    """Play one live-blackjack round to its settlement, deciding when the events say whose turn it is.

    The one not to act tries to decide on every turn and is refused (BJ-4). True when a play decision came.
    """
    names = list(seated)
    watcher = seated[names[0]]
    cursor, played, hits = since, False, {n: 0 for n in names}
    for _ in range(40):
        for p in seated.values():
            p.sync()
        if watcher.events(since, "round_settled", BJ, round=number):
            return played
        needed = [(i, e) for i, e in enumerate(watcher.seen) if i >= cursor and e["type"] == "decision_needed"
                  and e["at_table"] == BJ and e["round"] == number]
        assert needed, f"the round stalled: {watcher.seen[since:]}"
        cursor, need = needed[-1][0] + 1, needed[-1][1]
        if need["phase"] == "insurance":                             # every seat answers (BJ-8)
            assert need["who"] == "" and sorted(need["moves"]) == ["insurance", "no_insurance"]
            for p in seated.values():
                answer = p.request("casino_decide", table=BJ, move="no_insurance", decision=need["decision"])
                assert answer["ok"] or answer["error"]["code"] == "stale_decision", answer   # not offered it
            continue
        played = True
        actor = seated[need["who"]]
        other = seated[next(n for n in names if n != need["who"])]
        assert need["seconds"] == DECISION and "stand" in need["moves"]
        refused(other.request("casino_decide", table=BJ, move="stand", hand=need["hand"], decision=need["decision"]),
                code="stale_decision", rule="BJ-4")                 # not theirs: the id names another's decision
        move = "hit" if "hit" in need["moves"] and hits[actor.name] == 0 else "stand"
        if actor is seated[names[1]] and "double" in need["moves"]:
            move = "double"
        hits[actor.name] += move == "hit"
        actor.ask("casino_decide", table=BJ, move=move, hand=need["hand"], decision=need["decision"])
        mine = actor.events(cursor, "decided", BJ, round=number, player=actor.name)
        assert mine and mine[-1]["move"] == move and mine[-1]["auto"] == ""
    raise AssertionError("the round did not settle")


def test_BJ_4_BJ_3_two_seats_decide_in_seat_order_and_a_decision_out_of_turn_is_refused(floor):
    first, second = sign_up(floor, "vega1"), sign_up(floor, "vega2")
    seated = {"vega1": first, "vega2": second}
    balances = {"vega1": WELCOME, "vega2": WELCOME}
    assert first.ask("casino_join", table=BJ, seat=1)["seats"] == {"1": "vega1"}
    refused(second.request("casino_join", table=BJ, seat=1), code="seat_taken", rule="BJ-3")
    assert second.ask("casino_join", table=BJ, seat=2)["seats"] == {"1": "vega1", "2": "vega2"}
    played = False
    for _ in range(6):                      # a dealer blackjack or two blackjacks leave no decision: play again
        since = {n: p.mark() for n, p in seated.items()}
        number = fresh_round(floor, first, BJ)
        for name, p in seated.items():
            answer, balances[name] = bet(p, BJ, "main", 1_000, balances[name])
            assert answer["market"] == "main"
        floor.advance(BETTING)                                      # BJ-3: the deal
        second.sync()
        dealt = second.events(since["vega2"], "card_dealt", BJ, round=number)
        assert [(c["to"], c["index"]) for c in dealt[:6]] == \
            [("hand", 1), ("hand", 2), ("dealer", 0), ("hand", 1), ("hand", 2), ("dealer", 0)]
        assert dealt[5]["card"] is None and dealt[5]["face_up"] is False      # the hole card is not sent
        played = _play_live_round(floor, seated, number, since["vega1"]) or played
        for name, p in seated.items():
            p.sync()
            settled = p.one(since[name], "round_settled", BJ, round=number)
            paid = payouts_of(p, since[name], number)
            assert paid and all(x["market"] in ("main", "insurance") for x in paid)
            assert sum(x["staked"] for x in paid) == staked_in(p, since[name], BJ, number)
            balances[name] += sum(x["returned"] for x in paid) - sum(x["staked"] for x in paid) + 1_000
            assert settled["result"].startswith("dealer")
            other = "vega2" if name == "vega1" else "vega1"
            assert not p.events(since[name], "decided", BJ, player=other)       # another's decisions are theirs
            assert not p.events(since[name], "staked", BJ, player=other)
        if played:
            break
    assert played, "six rounds without one play decision"
    rows = [r for r in first.ask("casino_bets")["bets"] if r["table"] == BJ]
    assert rows and all(r["market"] in ("main", "insurance") for r in rows)
    for name, p in seated.items():
        p.close()
        _, login = log_in(floor, name)
        assert login["balance"] == balances[name]
    floor.assert_clean()


def test_CR_2_CR_6_BJ_4_a_bet_keeps_its_seat_and_a_hand_without_an_answer_in_time_stands(floor):
    tim, tom = sign_up(floor, "tim"), sign_up(floor, "tom")
    tim.ask("casino_join", table=BJ, seat=5)
    balance, auto = WELCOME, []
    for _ in range(6):                      # until a hand of tim's is asked for a decision
        since = tim.mark()
        number = fresh_round(floor, tim, BJ)
        _, balance = bet(tim, BJ, "main", 500, balance)
        refused(tim.request("casino_leave", table=BJ), code="bet_placed", rule="CR-2")  # a bet cannot be taken back...
        refused(tom.request("casino_join", table=BJ, seat=5),  # ...and its seat stays taken
                code="seat_taken", rule="BJ-3")
        floor.advance(BETTING)
        for _ in range(4):
            tim.sync()
            if tim.events(since, "round_settled", BJ, round=number):
                break
            _, need = _last_decision(tim, BJ, number, since)
            if need["phase"] == "play":
                refused(tim.request("casino_leave", table=BJ), code="hand_in_play", rule="CR-6")
            floor.advance(DECISION)                                          # no answer in time
        tim.sync()
        tim.one(since, "round_settled", BJ, round=number)
        balance += sum(x["returned"] for x in payouts_of(tim, since, number))
        auto = tim.events(since, "decided", BJ, round=number, auto="timeout")
        if auto:
            break
    assert auto and all(d["move"] == "stand" for d in auto)                  # BJ-4: the hand stands
    tim.ask("casino_leave", table=BJ)
    assert tom.ask("casino_join", table=BJ, seat=5)["seats"]["5"] == "tom"
    tom.ask("casino_leave", table=BJ)
    tim.close()
    _, login = log_in(floor, "tim")
    assert login["balance"] == balance
    floor.assert_clean()


def _last_decision(p: Gambler, table: str, number: int, cursor: int) -> tuple[int, dict | None]:
    found = [(i, e) for i, e in enumerate(p.seen) if i >= cursor and e["type"] == "decision_needed"
             and e["at_table"] == table and e["round"] == number]
    return (found[-1][0] + 1, found[-1][1]) if found else (cursor, None)


def test_IB_1_IB_4_everyone_decides_alone_on_the_same_cards_and_every_bet_settles(floor):
    names = ("siri1", "siri2", "siri3")
    ps = {n: sign_up(floor, n) for n in names}
    balances = dict.fromkeys(names, WELCOME)
    for p in ps.values():
        p.ask("casino_join", table=IB)
    refused(ps["siri1"].request("casino_join", table=IB, seat=1), code="no_seats")
    lead = ps["siri1"]
    played = False
    for _ in range(8):                      # a dealer or player blackjack leaves no decision: play again
        since = {n: p.mark() for n, p in ps.items()}
        number = fresh_round(floor, lead, IB)
        opened = lead.one(since["siri1"], "round_opened", IB, round=number)
        for n, p in ps.items():
            _, balances[n] = bet(p, IB, "main", 500, balances[n])
        if "pairs" not in opened["closed_markets"]:
            _, balances["siri3"] = bet(ps["siri3"], IB, "pairs", 100, balances["siri3"])
        floor.advance(BETTING)
        for p in ps.values():
            p.sync()
        firsts = {n: [c["card"] for c in p.events(since[n], "card_dealt", IB, round=number, to="player")]
                  for n, p in ps.items()}
        assert len(firsts["siri1"]) == 2 and firsts["siri1"] == firsts["siri2"] == firsts["siri3"]   # one deal
        cursor = since["siri1"]
        for _ in range(3):
            lead.sync()
            if lead.events(since["siri1"], "round_settled", IB, round=number):
                break
            cursor, need = _last_decision(lead, IB, number, cursor)
            assert need is not None and need["who"] == "", lead.seen[since["siri1"]:]
            if need["phase"] == "insurance":                 # one insures, the others decline (IB-8)
                for n, p in ps.items():
                    p.ask("casino_decide", table=IB, move="insurance" if n == "siri1" else "no_insurance",
                          decision=need["decision"])
                continue
            played = True
            assert "stand" in need["moves"] and need["seconds"] == DECISION
            stood = ps["siri1"].ask("casino_decide", table=IB, move="stand", decision=need["decision"])
            assert stood["decision"] is None                    # done: no decision left
            refused(ps["siri1"].request("casino_decide", table=IB, move="hit", decision=need["decision"]),  # done
                    code="stale_decision", rule="IB-4")
            taken, next_id = {}, {}
            for n, move in (("siri2", "hit"), ("siri3", "double" if "double" in need["moves"] else "hit")):
                next_id[n] = ps[n].ask("casino_decide", table=IB, move=move, decision=need["decision"])["decision"]
                taken[n] = ps[n].one(since[n], "decided", IB, round=number, move=move)["cards"]
            assert taken["siri2"][2] == taken["siri3"][2]    # IB-1: the n-th extra card is everyone's n-th
            if total(taken["siri2"])[0] < 21:
                assert next_id["siri2"] not in (None, need["decision"])     # each move: a new decision
                ps["siri2"].ask("casino_decide", table=IB, move="stand", decision=next_id["siri2"])
            if len(taken["siri3"]) == 3 and total(taken["siri3"])[0] < 21 and "double" not in need["moves"]:
                ps["siri3"].ask("casino_decide", table=IB, move="stand", decision=next_id["siri3"])
        for n, p in ps.items():
            p.sync()
            p.one(since[n], "round_settled", IB, round=number)
            paid = payouts_of(p, since[n], number)
            assert paid and sum(x["staked"] for x in paid) == staked_in(p, since[n], IB, number)
            bets = staked_in(p, since[n], IB, number)
            on_bets = sum(e["amount"] for e in p.events(since[n], "staked", IB, round=number, why="bet"))
            balances[n] += sum(x["returned"] for x in paid) - (bets - on_bets)
            assert all(e["player"] == n for e in p.events(since[n], "decided")), "decisions are private"
            assert all(e["player"] == n for e in p.events(since[n], "staked")), "stakes are private"
        if played:
            break
    assert played, "eight rounds without one play decision"
    for n, p in ps.items():
        p.close()
        _, login = log_in(floor, n)
        assert login["balance"] == balances[n]
    floor.assert_clean()


def test_BOB_6_a_claim_per_player_and_round_and_a_pace_keep_claims_from_flooding_the_audit_log(floor):
    # The review filed 100 claims about one round in 6.6 s, each a chained audit record.
    hal = sign_up(floor, "hal")
    hal.ask("casino_join", table=BAC)
    number = fresh_round(floor, hal, BAC)
    since = hal.mark()
    floor.advance(BETTING)                                          # the coup is dealt and settled
    hal.sync()
    hal.one(since, "round_settled", BAC, round=number)
    store = RoomStore(make_engine(sqlite_url(floor.tmp / "data")))
    before = len(store.audit_log.audit_records("casino_claim"))
    assert hal.ask("casino_claim", table=BAC, round=number, text="the shoe was short")["round"] == number
    for _ in range(99):
        answer = refused(hal.request("casino_claim", table=BAC, round=number, text="again!"),
                         code="claim_already_open", rule="BOB-6")
        assert str(number) in answer["error"]["message"]
    codes = [hal.request("casino_claim", table=BAC, round=10**6 + k, text="?")["error"]["code"] for k in range(8)]
    assert codes[-1] == "claims_too_fast" and "unknown_round" in codes        # a pace per player, any round
    assert len(store.audit_log.audit_records("casino_claim")) == before + 1
    other = sign_up(floor, "ivy")                                   # another player's claim is their own
    assert other.ask("casino_claim", table=BAC, round=number, text="I saw it too")["ok"]


def test_CR_2_CR_3_BA_5_BOB_3_IB_9_BJ_3_BJ_4_garbage_casino_requests_are_answered_never_fatal(floor):
    gus = sign_up(floor, "gus")
    fields = {"table": BAC, "market": "player", "amount": 100}
    # the schema: wrong shapes never reach a table
    for bad in ({"amount": -5}, {"amount": 0}, {"amount": "100"}, {"amount": True}, {"amount": 1.5},
                {"amount": 10**13}, {"market": ""}, {"market": "x" * 41}, {"table": ""}, {"table": 7},
                {"seat": 0}, {"seat": 8}):
        answer = refused(gus.request("casino_bet", **{**fields, **bad}), code="bad_field", rule="")
        assert answer["type"] == "casino_bet"
    refused(gus.request("casino_bet", **fields, odds=500), code="unknown_field", rule="")
    refused(gus.request("casino_bet", table=BAC, market="player"), code="missing_field", rule="")
    refused(gus.request("casino_decide", table=BJ, move="fold"), code="bad_field", rule="")
    refused(gus.request("casino_decide", table=BJ, move="stand", hand=2, decision="1.p0"), code="bad_field", rule="")
    refused(gus.request("casino_decide", table=BJ, move="stand"), code="missing_field", rule="")
    refused(gus.request("casino_join", table=BJ, seat=9), code="bad_field", rule="")
    refused(gus.request("casino_bets", limit=0), code="bad_field", rule="")
    refused(gus.request("casino_claim", table=BOB, round=0, text="x"), code="bad_field", rule="")
    # the floor: unknown tables, tables not joined, decisions where there are none
    for kind, extra in (("casino_rules", {}), ("casino_history", {}), ("casino_join", {}), ("casino_leave", {}),
                        ("casino_bet", {"market": "player", "amount": 100}),
                        ("casino_decide", {"move": "hit", "decision": "1.p0"}),
                        ("casino_void", {"reason": "x"}), ("casino_claim", {"round": 1, "text": "x"})):
        code = "not_staff" if kind == "casino_void" else "unknown_table"
        refused(gus.request(kind, table="no-such-table", **extra), code=code)
    refused(gus.request("casino_bet", **fields), code="not_at_table")
    refused(gus.request("casino_join", table=BAC, seat=2), code="no_seats")
    refused(gus.request("casino_claim", table=BOB, round=99_999, text="that card was marked"),
            code="unknown_round")
    refused(gus.request("casino_void", table=BAC, reason="I lost"), code="not_staff")
    for table in (BAC, BOB, BJ, IB, RO):
        gus.ask("casino_join", table=table)
    refused(gus.request("casino_decide", table=BAC, move="hit", decision="1.p0"), code="no_decisions")
    refused(gus.request("casino_decide", table=BJ, move="stand", decision="1.p0"), code="stale_decision",
            rule="BJ-4")                                                # no hand in play: no decision of theirs
    refused(gus.request("casino_decide", table=IB, move="stand", hand=1, decision="1.p0"), code="stale_decision",
            rule="IB-4")
    # bets refused by the table, each naming its rule; no money moves
    fresh_round(floor, gus, BAC)
    for table, rule in ((BAC, "BA-5"), (BOB, "BOB-3"), (IB, "IB-9"), (BJ, "BJ-3"), (RO, "RO-5")):
        answer = gus.request("casino_bet", table=table, market="dragon", amount=100)
        assert answer["ok"] is False and answer["error"]["rule"] in (rule, "CR-2"), answer
        assert answer["error"]["code"] in ("unknown_market", "illegal_bet", "betting_closed"), answer
    refused(gus.request("casino_bet", table=BAC, market="dragon", amount=100), code="unknown_market", rule="BA-5")
    refused(gus.request("casino_bet", table=BAC, market="player", amount=99), code="below_minimum", rule="CR-3")
    refused(gus.request("casino_bet", table=BAC, market="tie", amount=50_001), code="above_maximum", rule="CR-3")
    refused(gus.request("casino_bet", table=BAC, market="banker", amount=WELCOME + 1),
            code="insufficient_funds", rule="CR-3")
    fresh_round(floor, gus, BJ)
    refused(gus.request("casino_bet", table=BJ, market="main", amount=500), code="not_seated", rule="BJ-3")
    gus.ask("casino_join", table=BJ, seat=3)
    refused(gus.request("casino_bet", table=BJ, market="pairs", amount=500), code="unknown_market", rule="BJ-3")
    refused(gus.request("casino_bet", table=BJ, market="main", amount=499), code="below_minimum", rule="CR-3")
    refused(gus.request("casino_join", table=BJ, seat=4), code="already_seated", rule="BJ-3")
    floor.advance(BETTING)                                    # no more bets (CR-2)
    refused(gus.request("casino_bet", table=BJ, market="main", amount=500), code="betting_closed", rule="CR-2")
    # raw garbage frames: an error answer each, and the connection stays open
    for frame in (b"\x00\x01garbage", b"\x93\x01\x02\x03", b"\xc1", "{not json"):
        gus.send_raw(frame)
        answer = gus.receive()
        while answer.get("type") == "casino_events":
            answer = gus.receive()
        assert answer["ok"] is False and answer["error"]["code"] and answer["error"]["message"], answer
    assert gus.ask("casino_bets")["bets"] == []
    _, login = log_in(floor, "gus")                           # not a coin moved
    assert login["balance"] == WELCOME
    floor.assert_clean()


# ---------------------------------------------------------------------- disconnections, on their own rooms


def _my_turn(room: CasinoRoom, p: Gambler, balance: int) -> tuple[int, dict, int]:
    """Rounds at the live table until a play decision is ``p``'s: (round, the decision, the wallet)."""
    for _ in range(8):
        since = p.mark()
        number = fresh_round(room, p, BJ)
        _, balance = bet(p, BJ, "main", 1_000, balance)
        room.advance(BETTING)
        cursor = since
        for _ in range(3):
            p.sync()
            if p.events(since, "round_settled", BJ, round=number):
                break
            cursor, need = _last_decision(p, BJ, number, cursor)
            assert need is not None
            if need["phase"] == "insurance":
                p.ask("casino_decide", table=BJ, move="no_insurance", decision=need["decision"])
                continue
            assert need["who"] == p.name
            return number, need, balance
        paid = payouts_of(p, since, number)                  # settled at once: a blackjack
        balance += sum(x["returned"] for x in paid)
    raise AssertionError("eight rounds without a play decision")


@pytest.fixture
def live(tmp_path):
    room = CasinoRoom(tmp_path, BJ)
    yield room
    room.stop()
    room.assert_clean()


def test_CR_6_a_lone_blackjack_player_who_disconnects_on_their_turn_resumes_within_the_day(live):
    lone, eye = sign_up(live, "lone"), sign_up(live, "eye")
    eye.ask("casino_join", table=BJ)                          # watches; no bet, no seat
    lone.ask("casino_join", table=BJ, seat=4)
    number, need, balance = _my_turn(live, lone, WELCOME)
    eye.sync()
    since = eye.mark()
    left_at = live.now
    lone.close()
    live.gone("lone")
    eye.sync()
    waiting = eye.one(since, "round_waiting", BJ, round=number)
    assert waiting["player"] == "lone" and waiting["until"] == left_at + 86_400
    live.advance(86_000)                                      # not yet a day: the round still waits
    eye.sync()
    assert not eye.events(since, "round_settled") and not eye.events(since, "round_voided")
    assert {t["table"]: t["phase"] for t in eye.ask("casino_list")["tables"]}[BJ] == "waiting"
    back, login = log_in(live, "lone")
    assert login["balance"] == balance                        # the stake is still on the table
    state = back.wait_for(lambda m: m.get("type") == "casino_state")
    assert state["table"] == BJ and state["round"] == number and state["phase"] == "deciding"
    assert state["to_act"] == "lone" and state["seats"] == {"4": "lone"}
    assert state["bets"] == [{"market": "main", "amount": 1_000, "odds": None, "seat": 4}]
    assert len(state["hands"]["lone"][need["hand"]]) >= 2 and state["dealer"][1] is None
    back.sync()                     # the decision asked again is the table's frame: not ordered against the state
    again = back.events(0, "decision_needed", BJ, round=number, who="lone")
    assert again and again[-1]["moves"] == need["moves"]      # the decision is asked again
    assert state["decision"] == again[-1]["decision"] == need["decision"]     # the same decision, the same id
    back.ask("casino_decide", table=BJ, move="stand", hand=need["hand"], decision=state["decision"])
    back.sync()
    settled = back.one(0, "round_settled", BJ, round=number)
    paid = payouts_of(back, 0, number)
    assert [(x["market"], x["staked"]) for x in paid] == [("main", 1_000)]
    balance += paid[0]["returned"]
    eye.sync()
    assert eye.one(since, "round_settled", BJ, round=number)["result"] == settled["result"]
    assert not payouts_of(eye, since, number)                # another's payout is theirs
    rows = [r for r in back.ask("casino_bets")["bets"] if r["round"] == number]
    assert [(r["market"], r["staked"], r["returned"]) for r in rows] == [("main", 1_000, paid[0]["returned"])]
    back.close()
    _, login = log_in(live, "lone")
    assert login["balance"] == balance


def test_CR_6_a_lone_blackjack_round_waits_24_hours_then_is_cancelled_and_refunded(live):
    lone, eye = sign_up(live, "lone"), sign_up(live, "eye")
    eye.ask("casino_join", table=BJ)
    lone.ask("casino_join", table=BJ, seat=1)
    number, _, balance = _my_turn(live, lone, WELCOME)
    eye.sync()
    since = eye.mark()
    lone.close()
    live.gone("lone")
    live.advance(86_400)                                      # a day since the disconnection: cancelled
    eye.sync()
    voided = eye.one(since, "round_voided", BJ, round=number)
    assert "refunds" not in voided and "24 hours" in voided["reason"]      # who staked what is not public
    assert not eye.events(since, "round_settled", BJ, round=number)
    back, login = log_in(live, "lone")
    assert login["balance"] == balance + 1_000                # the wallet as before the bet
    state = back.wait_for(lambda m: m.get("type") == "casino_state")
    assert [number, "void"] in state["results"] and state["phase"] == "settled", state
    assert "to_act" not in state, f"a cancelled round has nobody to act: {state}"
    assert [number, "void"] in back.ask("casino_history", table=BJ)["results"]
    rows = [r for r in back.ask("casino_bets")["bets"] if r["round"] == number]
    assert [(r["market"], r["staked"], r["returned"]) for r in rows] == [("refund", 1_000, 1_000)]
    refused(back.request("casino_decide", table=BJ, move="stand", decision=f"{number}.p0"), code="stale_decision",
            rule="BJ-4")
    back.close()


def test_CR_6_a_member_with_no_hand_in_the_round_logging_in_does_not_end_the_wait(live):
    lone, eye = sign_up(live, "lone"), sign_up(live, "eye")
    eye.ask("casino_join", table=BJ)                          # a member of the table, with no hand in the round
    lone.ask("casino_join", table=BJ, seat=2)
    number, _, balance = _my_turn(live, lone, WELCOME)
    lone.close()
    live.gone("lone")
    eye.close()                                               # the watcher's connection blips
    live.gone("eye")
    eye, _ = log_in(live, "eye")
    eye.wait_for(lambda m: m.get("type") == "casino_state")
    since = eye.mark()
    live.advance(DECISION)                                    # the absent player's hand is not played for them
    eye.sync()
    assert not eye.events(since, "round_settled", BJ, round=number), eye.seen[since:]
    assert {t["table"]: t["phase"] for t in eye.ask("casino_list")["tables"]}[BJ] == "waiting"
    back, login = log_in(live, "lone")
    assert login["balance"] == balance
    state = back.wait_for(lambda m: m.get("type") == "casino_state")
    assert state["to_act"] == "lone" and state["phase"] == "deciding" and len(state["hands"]["lone"][0]) == 2


def test_CR_6_the_day_runs_from_the_waited_for_players_disconnection_not_a_departed_watchers(live):
    lone, eye = sign_up(live, "lone"), sign_up(live, "eye")
    eye.ask("casino_join", table=BJ)                          # a member who goes away and stays away
    eye.close()
    live.gone("eye")
    live.advance(3_600)
    lone.ask("casino_join", table=BJ, seat=3)
    number, _, balance = _my_turn(live, lone, WELCOME)
    lone.close()
    live.gone("lone")
    live.advance(86_400 - 3_600)                              # a day since eye left; lone has been gone for less
    back, login = log_in(live, "lone")
    assert login["balance"] == balance, "the round was cancelled before lone's 24 hours were up"
    state = back.wait_for(lambda m: m.get("type") == "casino_state")
    assert state["round"] == number and state["phase"] == "deciding" and state["to_act"] == "lone", state


@pytest.fixture
def infinite(tmp_path):
    room = CasinoRoom(tmp_path, IB)
    yield room
    room.stop()
    room.assert_clean()


def test_IB_11_IB_6_a_disconnected_infinite_blackjack_player_is_played_for_and_the_bet_settles(infinite):
    away, eye = sign_up(infinite, "away"), sign_up(infinite, "eye")
    eye.ask("casino_join", table=IB)
    away.ask("casino_join", table=IB)
    balance = WELCOME
    for _ in range(8):                  # a blackjack leaves no decision: play again
        since = away.mark()
        number = fresh_round(infinite, away, IB)
        _, balance = bet(away, IB, "main", 500, balance)
        infinite.advance(BETTING)
        cursor, need = since, None
        for _ in range(2):
            away.sync()
            if away.events(since, "round_settled", IB, round=number):
                break
            cursor, need = _last_decision(away, IB, number, cursor)
            if need["phase"] == "insurance":
                away.ask("casino_decide", table=IB, move="no_insurance", decision=need["decision"])
                need = None
                continue
            break
        if need is not None:
            break
        balance += sum(x["returned"] for x in payouts_of(away, since, number))
    assert need is not None and need["phase"] == "play"
    first_two = [c["card"] for c in away.events(since, "card_dealt", IB, round=number, to="player")]
    eye.sync()
    seen = eye.mark()
    away.close()
    infinite.gone("away")
    infinite.advance(DECISION - 1)                        # the clock still runs: nothing yet
    eye.sync()
    assert not eye.events(seen, "round_settled")
    infinite.advance(1)                                   # IB-6: the room plays the hand; the round ends
    eye.sync()
    settled = eye.one(seen, "round_settled", IB, round=number)
    assert not payouts_of(eye, seen, number)
    back, login = log_in(infinite, "away")
    state = back.wait_for(lambda m: m.get("type") == "casino_state")
    assert state["table"] == IB and [number, settled["result"]] in state["results"]
    rows = back.ask("casino_bets", limit=1)["bets"]
    assert [(r["table"], r["round"], r["market"], r["staked"]) for r in rows] == [(IB, number, "main", 500)]
    row = rows[0]
    assert login["balance"] == balance + row["returned"]
    # IB-6: hit while 11 or less, then stand; so the hand ends on 12 or more, or bust
    detail = row["detail"]
    hand = int(detail.split()[-1])
    assert hand >= 12 and (detail.startswith("bust") == (hand > 21)), detail
    if total(first_two)[0] >= 12:
        assert hand == total(first_two)[0]                # stood on the first two cards
    dealer = settled["result"]
    dealer_total = 0 if "busts" in dealer else int(dealer.split()[1])
    want = 0 if hand > 21 else 1_000 if hand > dealer_total else 500 if hand == dealer_total else 0
    assert row["returned"] == want, (detail, dealer)
    back.close()
