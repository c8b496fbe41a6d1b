"""The casino floor on a Clock: money through the ledger, stored rounds and bets, private events, timers,
CR-6's 24 hours, claims (BOB-6), the lobby and the rules over the protocol (CR-1, CR-4, CR-5, CR-6, CR-7)."""

from __future__ import annotations

from twisted.internet.task import Clock

from pokerroom.bus.records import LOGGED_IN
from pokerroom.cards import parse
from pokerroom.casino.betting import Limits
from pokerroom.casino.config import build_table
from pokerroom.casino.shoe import stacked
from pokerroom.casino.table import CasinoRules
from pokerroom.money.ledger import HOUSE_CASINO, cash, casino_escrow
from pokerroom.players import AccountRules
from pokerroom.protocol.schema import parse_request
from pokerroom.shell.composition import RoomServices
from tests.support.casino_room import casino_floor
from tests.support.clocked_room import Connection, conform, deposit, request, settle


def rules(table_id: str, game: str, **kw) -> CasinoRules:
    return CasinoRules(table_id=table_id, name=table_id, game=game, limits=Limits(100, 100_000),
                       betting_seconds=10, decision_seconds=5, pause_seconds=2, **kw)


class Floor:
    def __init__(self, store, *tables) -> None:
        self.clock = Clock()
        self.room = RoomServices([], store, self.clock, account_rules=AccountRules())
        self.room.startService()
        self.floor = casino_floor(self.room, tables)
        self.floor.start()
        self.clock.advance(0)                   # every table opens its first round
        self.people: dict[str, tuple] = {}
        self.rid = 0

    def person(self, name: str, role: str = "player", money: int = 100_000):
        connection = Connection()
        session = self.room.gateway.connected(connection, "10.0.0.1")
        session.player_id, session.country, session.role = name, "NL", role
        self.room.gateway.identify(session, name)
        if money:
            deposit(self.room, name, money)
        settle(self.room)
        self.people[name] = (session, connection)
        return session

    def ask(self, who: str, kind: str, /, **fields) -> dict:
        self.rid += 1
        answer = conform(self.room.gateway.handle(self.people[who][0], parse_request({"type": kind, "rid": self.rid,
                                                                                      **fields})))
        settle(self.room)                       # on a strict bus: the events of the answer delivered
        if not isinstance(answer, dict):
            out = []
            answer.addBoth(out.append)
            answer = out[0]
        return answer

    def events(self, who: str, kind: str | None = None) -> list[dict]:
        return [e for m in self.people[who][1].sent if m.get("type") == "casino_events" for e in m["events"]
                if kind is None or e["type"] == kind]

    def balance(self, who: str) -> int:
        return self.room.wallet.books.balance(cash(who))


def alone_at_blackjack(store):
    """Ana alone at a blackjack table, 1,000 bet, dealt Ts 6d (16) against the dealer's 9c: her decision is due."""
    table = build_table(rules("bj", "blackjack"), source=stacked(parse("Ts 9c 6d 7h")))
    f = Floor(store, table)
    ana = f.person("ana")
    f.ask("ana", "casino_join", table="bj", seat=1)
    f.ask("ana", "casino_bet", table="bj", market="main", amount=1_000)
    f.clock.advance(10)
    return f, table, ana


def test_CR_4_a_baccarat_round_settles_every_bet_at_once_through_the_ledger(store):
    # player 9 (As 8d) against banker 0 (Kc Qh): a natural; player pays 1:1, banker loses, tie loses
    table = build_table(rules("bac", "baccarat"), source=stacked(parse("As Kc 8d Qh")))
    f = Floor(store, table)
    f.person("ana")
    assert f.ask("ana", "casino_join", table="bac")["ok"]
    assert f.ask("ana", "casino_bet", table="bac", market="player", amount=1_000)["ok"]
    assert f.ask("ana", "casino_bet", table="bac", market="banker", amount=500)["ok"]
    assert f.balance("ana") == 100_000 - 1_500
    assert f.room.wallet.books.balance(casino_escrow("bac", "ana")) == 1_500
    f.clock.advance(10)                                             # no more bets; the coup is dealt
    settled = f.events("ana", "round_settled")
    assert settled and settled[0]["result"].startswith("player wins")
    payouts = f.events("ana", "payout")
    assert {(p["market"], p["returned"]) for p in payouts} == {("player", 2_000), ("banker", 0)}
    assert f.balance("ana") == 100_000 + 500
    assert f.room.wallet.books.balance(casino_escrow("bac", "ana")) == 0
    assert f.room.wallet.books.balance(HOUSE_CASINO) == -500          # the house banks the game
    assert f.room.wallet.books.check()
    bets = f.ask("ana", "casino_bets")["bets"]                       # own bet history (CR-7)
    assert {(b["market"], b["staked"], b["returned"]) for b in bets} == {("player", 1_000, 2_000),
                                                                         ("banker", 500, 0)}
    history = f.ask("ana", "casino_history", table="bac")
    assert history["results"][0][0] == 1 and history["statistics"] == {"player": 1}


def test_CR_3_a_refused_bet_names_its_reason_and_moves_no_money(store):
    f = Floor(store, build_table(rules("bac", "baccarat")))
    f.person("ana", money=300)
    f.ask("ana", "casino_join", table="bac")
    for market, amount, code in (("player", 50, "below_minimum"), ("player", 200_000, "above_maximum"),
                                 ("player", 400, "insufficient_funds"), ("dragon", 100, "unknown_market")):
        answer = f.ask("ana", "casino_bet", table="bac", market=market, amount=amount)
        assert not answer["ok"] and answer["error"]["code"] == code and answer["error"]["message"]
        if code == "below_minimum":                                 # the table's euros, and the numbers apart
            assert answer["error"]["message"] == "the minimum bet on player is €1.00; €0.50 is below it"
            assert (answer["error"]["amounts"], answer["error"]["currency"]) == ({"min": 100, "given": 50}, "EUR")
    assert f.balance("ana") == 300 and f.room.wallet.books.balance(casino_escrow("bac", "ana")) == 0
    f.clock.advance(10)                                             # betting closed: late (CR-2)
    late = f.ask("ana", "casino_bet", table="bac", market="player", amount=100)
    assert late["error"]["code"] == "betting_closed" and late["error"]["rule"] == "CR-2"


def test_CR_5_an_operator_voids_a_round_and_every_stake_comes_back(store):
    f = Floor(store, build_table(rules("rou", "roulette")))
    f.person("ana")
    f.person("boss", role="admin")
    f.ask("ana", "casino_join", table="rou")
    f.ask("ana", "casino_bet", table="rou", market="red", amount=700)
    f.ask("ana", "casino_bet", table="rou", market="straight:17", amount=300)
    assert not f.ask("ana", "casino_void", table="rou", reason="wheel jam")["ok"]      # players may not
    assert f.ask("boss", "casino_void", table="rou", reason="wheel jam")["ok"]
    assert f.balance("ana") == 100_000
    assert [e["amount"] for e in f.events("ana", "refund")] == [1_000]        # her own refund, to her only
    assert "refunds" not in f.events("ana", "round_voided")[0]
    assert f.room.wallet.books.balance(HOUSE_CASINO) == 0 and f.room.wallet.books.check()


def test_CR_1_rules_and_the_lobby_list_every_casino_table_without_a_login(store):
    f = Floor(store, build_table(rules("rou", "roulette")), build_table(rules("ib", "infinite_blackjack")))
    anonymous = f.room.gateway.connected(Connection(), "10.0.0.2")
    answer = request(f.room, anonymous, "casino_rules", table="ib")     # asked of the floor: on the strict bus, later
    assert answer["ok"] and answer["paytable"] and answer["rules"] and answer["limits"]["default"] == [100, 100_000]
    lobby = f.room.gateway.handle(anonymous, parse_request({"type": "lobby_list", "rid": 2}))
    assert {t["game"] for t in lobby["casino"]} == {"roulette", "infinite_blackjack"}


def test_CR_6_a_lone_blackjack_player_who_disconnects_is_waited_for_24_hours_then_refunded(store):
    f, table, ana = alone_at_blackjack(store)
    assert table.phase == "deciding" and f.balance("ana") == 99_000
    f.room.gateway.disconnected(ana)
    settle(f.room)
    assert table.phase == "waiting"
    f.clock.advance(23 * 3600)                                      # a day has not passed: still waiting
    assert table.phase == "waiting" and f.balance("ana") == 99_000
    f.clock.advance(3600)                                           # 24 hours: cancelled and refunded
    assert f.balance("ana") == 100_000 and f.room.wallet.books.balance(casino_escrow("bj", "ana")) == 0
    assert table.results[-1] == (1, "void")


def test_CR_6_a_player_back_within_24_hours_resumes_the_decision(store):
    f, table, ana = alone_at_blackjack(store)
    f.room.gateway.disconnected(ana)
    settle(f.room)
    f.clock.advance(5 * 3600)
    back = f.person("ana", money=0)                                 # logs in again
    f.room.gateway.identify(back, "ana")
    f.room.gateway.returned(back, LOGGED_IN)
    settle(f.room)
    state = [m for m in f.people["ana"][1].sent if m.get("type") == "casino_state"][-1]
    assert state["to_act"] == "ana" and state["hands"]["ana"] == [list(parse("Ts 6d"))]
    assert table.phase == "deciding" and state["decision"] == table.decision_of("ana")
    stale = f.ask("ana", "casino_decide", table="bj", move="stand", decision=f"{table.number - 1}.p0")
    assert stale["error"]["code"] == "stale_decision" and stale["error"]["rule"] == "BJ-4"
    assert table.phase == "deciding"                                # BJ-4: a stale move moves nothing
    answer = f.ask("ana", "casino_decide", table="bj", move="stand", decision=state["decision"])
    assert answer["ok"] and answer["decision"] is None              # no decision left to make
    assert table.phase == "settled"                                 # dealer 9+7 draws on; the round is done
    assert f.room.wallet.books.balance(casino_escrow("bj", "ana")) == 0 and f.room.wallet.books.check()


def test_HR_RNG_2_the_hole_card_and_other_players_bets_are_never_sent(store):
    table = build_table(rules("ib", "infinite_blackjack"))
    f = Floor(store, table)
    for name in ("ana", "bo"):
        f.person(name)
        f.ask(name, "casino_join", table="ib")
    f.ask("ana", "casino_bet", table="ib", market="main", amount=1_000)
    f.ask("bo", "casino_bet", table="ib", market="main", amount=2_000)
    f.clock.advance(10)
    hole = [e for e in f.events("bo", "card_dealt") if not e["face_up"]]
    assert hole and all(e["card"] is None for e in hole)
    assert all(e.get("player") in (None, "bo") for e in f.events("bo"))   # nothing private of ana's
    for _ in range(4):                                              # insurance (if offered) and play time out
        f.clock.advance(5)
    assert table.results and table.results[0][0] == 1 and table.results[0][1] != "void"
    assert f.events("bo", "hole_card_revealed")


def test_BOB_6_claims_are_taken_for_30_days_after_the_draw(store):
    f = Floor(store, build_table(rules("rou", "roulette")))
    f.person("ana")
    f.ask("ana", "casino_join", table="rou")
    f.clock.advance(10)                                             # round 1 spun and settled
    assert f.ask("ana", "casino_claim", table="rou", round=1, text="the ball bounced out")["ok"]
    assert f.room.store.audit_log.audit_records("casino_claim")
    f.clock.advance(31 * 86_400)
    f.person("bo")
    late = f.ask("bo", "casino_claim", table="rou", round=1, text="again")
    assert late["error"]["code"] == "claim_too_late" and late["error"]["rule"] == "BOB-6"
    assert f.ask("ana", "casino_claim", table="rou", round=10**6, text="?")["error"]["code"] == "unknown_round"


def test_BOB_6_one_claim_per_player_and_round_survives_a_restart_and_claims_are_paced(store):
    f = Floor(store, build_table(rules("rou", "roulette")))
    f.person("ana")
    f.ask("ana", "casino_join", table="rou")
    f.clock.advance(10)                                             # round 1 spun and settled
    assert f.ask("ana", "casino_claim", table="rou", round=1, text="the ball bounced out")["ok"]
    again = f.ask("ana", "casino_claim", table="rou", round=1, text="the ball bounced out")
    assert again["error"]["code"] == "claim_already_open" and again["error"]["rule"] == "BOB-6"
    refused = f.ask("ana", "casino_claim", table="rou", round=10**6, text="?")      # refused: may be filed again
    assert refused["error"]["code"] == "unknown_round"
    assert ("ana", "rou", 10**6) not in f.room.gateway.handlers["casino_claim"].__self__.claims.filed
    restarted = Floor(store, build_table(rules("rou", "roulette")))
    restarted.person("ana")
    after = restarted.ask("ana", "casino_claim", table="rou", round=1, text="once more")
    assert after["error"]["code"] == "claim_already_open"
    codes = [restarted.ask("ana", "casino_claim", table="rou", round=10**6 + k, text="?")["error"]["code"]
             for k in range(6)]
    assert codes == ["unknown_round"] * 5 + ["claims_too_fast"]
    assert len(store.audit_log.audit_records("casino_claim")) == 1


def test_CR_6_logging_out_leaves_the_casino_table_like_a_disconnection(store):
    f = Floor(store, build_table(rules("bac", "baccarat")))
    f.person("ana")
    f.ask("ana", "casino_join", table="bac")
    assert f.ask("ana", "logout")["ok"]
    before = len(f.people["ana"][1].sent)
    f.clock.advance(30)                                             # rounds go on; the connection is nobody's now
    assert not [m for m in f.people["ana"][1].sent[before:] if m.get("type") == "casino_events"]


def test_CR_7_round_numbers_go_on_after_a_restart(store):
    f = Floor(store, build_table(rules("rou", "roulette")))
    f.clock.advance(10)                                             # round 1 spun and stored
    again = Floor(store, build_table(rules("rou", "roulette")))    # the room starts again on the same store
    assert store.casino.last_casino_round("rou") == 1
    assert again.floor.tables["rou"].number == 2                    # not round 1 again: claims find the right one


def test_CR_6_coming_back_and_leaving_again_does_not_restart_the_24_hours(store):
    f, table, ana = alone_at_blackjack(store)
    f.room.gateway.disconnected(ana)                                        # at t = 10
    settle(f.room)
    first = table.wait_until
    table.reconnect("ana")
    table.disconnect("ana", 50_000.0)
    assert table.phase == "waiting" and table.wait_until == first == 10 + 86_400


def test_BJ_3_a_seat_left_by_a_player_who_went_away_is_free_next_round(store):
    table = build_table(rules("bj", "blackjack"))
    f = Floor(store, table)
    ana = f.person("ana")
    f.person("bo")
    f.ask("ana", "casino_join", table="bj", seat=1)
    f.room.gateway.disconnected(ana)
    settle(f.room)
    f.clock.advance(10)                                             # nobody bet: the next round opens
    f.clock.advance(2)
    assert f.ask("bo", "casino_join", table="bj", seat=1)["ok"]


def test_CR_5_a_fault_while_settling_voids_the_round_and_refunds(store, monkeypatch):
    table = build_table(rules("bac", "baccarat"))
    f = Floor(store, table)
    f.person("ana")
    f.ask("ana", "casino_join", table="bac")
    f.ask("ana", "casino_bet", table="bac", market="player", amount=1_000)

    def broken(bet):
        raise KeyError("a fault in the game's settlement")

    monkeypatch.setattr(table, "_returned", broken)
    f.clock.advance(10)
    assert f.balance("ana") == 100_000 and f.room.wallet.books.balance(casino_escrow("bac", "ana")) == 0
    assert table.results[-1] == (1, "void")


def test_AC_6_a_large_casino_stake_and_its_settlement_are_flagged_through_the_one_wallet_path(store):
    table = build_table(rules("bac", "baccarat"), source=stacked(parse("As Kc 8d Qh")))
    f = Floor(store, table)
    f.room.wallet.account_rules = AccountRules(aml_threshold=50_000)
    f.person("ana")
    assert f.ask("ana", "casino_join", table="bac")["ok"]
    assert f.ask("ana", "casino_bet", table="bac", market="player", amount=50_000)["ok"]
    f.clock.advance(10)                                             # player wins: 100,000 back
    flags = [(r.data["reason"], r.data["size"]) for r in store.audit_log.audit_records("aml_flag")]
    assert [flag for flag in flags if flag[0] != "deposit"] == [("casino bet", 50_000), ("casino round", 100_000)]


def test_SEC_2_a_player_with_a_casino_bet_open_is_not_made_security_or_admin(store):
    f, table, ana = alone_at_blackjack(store)                   # her bet is in the open round
    store.accounts.create_account("ana", "ana", "not-a-hash", "1990-01-01", "NL", 0.0)
    f.person("root", role="admin")
    assert f.floor.playing("ana") and not f.floor.playing("root")
    refused = f.ask("root", "admin_set_role", player="ana", role="security", reason="hired")
    assert refused["error"]["code"] == "player_busy" and refused["error"]["rule"] == "SEC-2"
    assert "has a casino bet open" in refused["error"]["message"]
    assert store.accounts.find_account("ana").role == "player"
