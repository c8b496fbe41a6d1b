"""STAFF-2 over real sockets: a director invites a player into a paid event and only the player's own answer
moves their money; a free event takes a director's direct entry; one may-play check refuses every forbidden
account (self-excluded AC-5, restricted country AC-2, banned, frozen, staff SEC-2) on every path into play,
``stake_buy`` included; and a named player is a real account, under its own spelling (AC-3)."""

from __future__ import annotations

import pytest

from pokerroom.store.db import make_engine, sqlite_url
from pokerroom.store.room_store import RoomStore
from tests.net.ledger_check import assert_ledger_sound
from tests.net.server_process import FAST_ROOM, Player, Server
from tests.support.refusals import refused
from tests.support.socket_play import PASSWORD, sign_up
from tests.support.waiting import wait_until

BAC = "baccarat-orion"
ROOM = FAST_ROOM + f"""
[tournaments]
decision_seconds = 1
between_hands_seconds = 0.02
[[casino]]
id = "{BAC}"
name = "Orion Baccarat"
game = "baccarat"
min_bet = 100
max_bet = 500000
currency = "USD"
"""
WELCOME = 100_000
PAID_COST = 99_000                      # the finding's buy-in: all but 1,000 of a new player's wallet


class Room:
    """One running room for the module: a director, a security officer, a paid and a free event."""

    def __init__(self, tmp) -> None:
        (tmp / "room.toml").write_text(ROOM)
        self.tmp = tmp
        self.server = Server(tmp, "--max-rate", "500").start()
        self.url = self.server.url
        self.director = self.staff("tdir", "director")
        self.security = self.staff("sec", "security")
        self.create("paid", buy_in=PAID_COST - 1_000, fee=1_000)
        self.create("free", buy_in=0, fee=0)
        self.seller = sign_up(self.url, "seller")[0]             # offers half of their action in the paid event
        assert self.seller.request("tournament_register", tournament="paid")["ok"]
        assert self.seller.request("stake_offer", tournament="paid", percent=50, markup_percent=100)["ok"]

    def staff(self, name: str, role: str) -> Player:
        sign_up(self.url, name)[0].close()
        self.role(name, role)
        return self.login(name)

    def role(self, name: str, role: str) -> None:
        self.server.grant(name, role)

    def login(self, name: str) -> Player:
        p = Player(self.url)
        answer = p.request("login", nickname=name, password=PASSWORD)
        assert answer["ok"], answer
        return p

    def create(self, tid: str, **settings: int) -> None:
        created = self.director.request("director_create", template="daily", id=tid, name=tid.title(),
                                        start_in=3600, settings={"guarantee": 0, **settings})
        assert created["ok"], created

    def store(self) -> RoomStore:
        return RoomStore(make_engine(sqlite_url(self.tmp / "data")))

    def add(self, tournament: str, player: str, reason: str = "a promotion") -> dict:
        return self.director.request("director_add_player", tournament=tournament, player=player, reason=reason)

    def entrants(self, tournament: str) -> list[str]:
        answer = self.director.request("tournament_details", tournament=tournament)
        return sorted(s["player"] for s in answer["standings"])


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    r = Room(tmp_path_factory.mktemp("staff2"))
    yield r
    r.server.stop()


def wallet(p: Player) -> int:
    return p.request("bet_history", limit=1)["balance"]


def test_STAFF_2_a_paid_event_takes_no_money_until_the_player_accepts_the_invitation(room):
    ana = sign_up(room.url, "ana")[0]
    invited = room.add("paid", "ana")
    assert invited["ok"] and invited["invited"] and not invited["entered"] and invited["player"] == "ana"
    assert wallet(ana) == WELCOME and "ana" not in room.entrants("paid")     # nothing taken, not entered
    push = ana.wait_for(lambda m: m.get("type") == "tournament_invitation")["invitation"]
    assert (push["tournament"], push["by"], push["reason"], push["entry_cost"]) == ("paid", "tdir", "a promotion",
                                                                                   PAID_COST)
    refused(room.add("paid", "ana"), code="already_invited", rule="STAFF-2")  # one open invitation per player and event
    accepted = ana.request("tournament_invitation_answer", tournament="paid", accept=True)
    assert accepted["ok"] and accepted["balance"] == WELCOME - PAID_COST    # accepting pays, as registering does
    assert "ana" in room.entrants("paid") and wallet(ana) == WELCOME - PAID_COST
    refused(ana.request("tournament_invitation_answer", tournament="paid", accept=True),
            code="no_invitation", rule="STAFF-2")
    assert wallet(ana) == WELCOME - PAID_COST                               # a second acceptance pays nothing
    answered = room.director.wait_for(lambda m: m.get("type") == "tournament_invitation_answered")
    assert (answered["player"], answered["answer"]) == ("ana", "accepted")

    store = room.store()
    assert wait_until(lambda: any(r.data.get("player") == "ana"
                                  for r in store.audit_log.audit_records("tournament_invitation")),
                      timeout=10), "timed out waiting for the audited answer"
    (record,) = [r.data for r in store.audit_log.audit_records("tournament_invitation") if r.data["player"] == "ana"]
    assert (record["by"], record["reason"], record["answer"]) == ("tdir", "a promotion", "accepted")
    commands = [(r.data["command"], r.data["player"], r.data["by"], r.data["reason"])
                for r in store.audit_log.audit_records("director_command") if r.data.get("player") == "ana"]
    assert commands == [("invite player", "ana", "tdir", "a promotion")]


def test_STAFF_2_a_declined_invitation_moves_nothing_is_kept_for_login_and_is_not_sent_again(room):
    bob, _ = sign_up(room.url, "bob")
    bob.close()                                                             # offline when invited
    assert room.add("paid", "bob")["invited"]
    bob = Player(room.url)
    assert bob.request("login", nickname="bob", password=PASSWORD)["balance"] == WELCOME
    shown = bob.wait_for(lambda m: m.get("type") == "tournament_invitation")   # shown again at login
    assert shown["invitation"]["tournament"] == "paid"
    listed = bob.request("tournament_invitations")["invitations"]
    assert [(i["tournament"], i["entry_cost"], i["by"]) for i in listed] == [("paid", PAID_COST, "tdir")]
    declined = bob.request("tournament_invitation_answer", tournament="paid", accept=False)
    assert declined["ok"] and declined["balance"] == WELCOME and not declined["registered"]
    assert bob.request("tournament_invitations")["invitations"] == [] and "bob" not in room.entrants("paid")
    refused(room.add("paid", "bob", "again and again"), code="invitation_declined", rule="STAFF-2")


def test_STAFF_2_accepting_without_the_funds_or_after_a_cancel_pays_nothing(room):
    cy = sign_up(room.url, "cyd")[0]
    room.create("pricey", buy_in=WELCOME, fee=1_000)
    assert room.add("pricey", "cyd")["invited"]
    short = cy.request("tournament_invitation_answer", tournament="pricey", accept=True)
    assert short["error"]["code"] == "insufficient_funds" and wallet(cy) == WELCOME
    assert [i["tournament"] for i in cy.request("tournament_invitations")["invitations"]] == ["pricey"]
    assert room.director.request("director_cancel", tournament="pricey", reason="no field", confirm=True)["ok"]
    gone = cy.wait_for(lambda m: m.get("type") == "tournament_invitation_withdrawn")
    assert gone["tournament"] == "pricey"
    refused(cy.request("tournament_invitation_answer", tournament="pricey", accept=True),
            code="no_invitation", rule="STAFF-2")
    assert wallet(cy) == WELCOME
    refused(room.add("pricey", "cyd"), code="registration_closed", rule="TR-REG-4")


def test_STAFF_2_a_free_event_takes_a_directors_direct_entry_and_nothing_moves(room):
    dan = sign_up(room.url, "dan")[0]
    entered = room.add("free", "dan")
    assert entered["ok"] and entered["entered"] and not entered["invited"]
    assert "dan" in room.entrants("free") and wallet(dan) == WELCOME
    assert dan.request("tournament_unregister", tournament="free")["ok"]    # theirs to leave: no ticket entry
    assert "dan" not in room.entrants("free")


def test_STAFF_2_AC_3_a_named_player_is_a_real_account_under_its_own_spelling(room):
    evelyn = sign_up(room.url, "Evelyn")[0]
    refused(room.add("free", "nobody"), code="no_such_player", rule="STAFF-2")
    refused(room.add("paid", "nobody"), code="no_such_player", rule="STAFF-2")
    entered = room.add("free", "EVELYN")
    assert entered["ok"] and entered["player"] == "Evelyn"
    entrants = room.entrants("free")
    assert "Evelyn" in entrants and "EVELYN" not in entrants and "nobody" not in entrants
    invited = room.add("paid", "eVeLyN")
    assert invited["ok"] and invited["player"] == "Evelyn"
    push = evelyn.wait_for(lambda m: m.get("type") == "tournament_invitation")
    assert push["invitation"]["player"] == "Evelyn"
    refused(room.add("paid", "evelyn"), code="already_invited", rule="STAFF-2")  # the same account, whatever the case
    removed = room.director.request("director_remove_player", tournament="free", player="evelyn", reason="a test")
    assert removed["ok"] and "Evelyn" not in room.entrants("free")


def test_STAFF_2_AC_5_stake_buy_by_a_self_excluded_player_is_refused_and_moves_nothing(room):
    backer = sign_up(room.url, "backer")[0]
    assert backer.request("self_exclude", days=30)["ok"]
    refused(backer.request("stake_buy", tournament="paid", seller="seller", percent=10),
            code="self_excluded", rule="AC-5")
    assert wallet(backer) == WELCOME
    fine = sign_up(room.url, "backer2")[0]
    bought = fine.request("stake_buy", tournament="paid", seller="SELLER", percent=10)    # any case: the entrant
    assert bought["ok"] and bought["balance"] == WELCOME - PAID_COST // 10         # 10% of the entry at 1.0


KINDS = {   # a forbidden account kind -> the refusal every path gives it
    "excluded": ("self_excluded", "AC-5"),
    "country": ("restricted_country", "AC-2"),
    "frozen": ("account_frozen", "SEC-4"),
    "security": ("staff_may_not_play", "SEC-2"),
    "admin": ("staff_may_not_play", "SEC-2"),
    "banned": ("account_closed", "AC-1"),
}
NAMES = {"excluded": "xena", "country": "colm", "frozen": "frida", "security": "sergei", "admin": "adele",
         "banned": "bruno"}


def forbidden_account(room: Room, kind: str) -> Player | None:
    """A new account that joined the casino table and holds an invitation while it could, then became ``kind``;
    its session now (None: banned, it has none)."""
    name = NAMES[kind]
    p = sign_up(room.url, name)[0]
    assert p.request("casino_join", table=BAC)["ok"]
    assert room.add("paid", name)["invited"]
    if kind == "excluded":
        assert p.request("self_exclude", days=None)["ok"]
    elif kind == "frozen":
        assert room.security.request("security_freeze", player=name, on=True, reason="review")["ok"]
    elif kind == "banned":
        assert room.security.request("security_ban", player=name, reason="fraud")["ok"]
        return None
    else:
        if kind == "country":                                   # the room no longer takes play from there (AC-2)
            room.store().accounts.update_account(name, country="US")
        else:
            room.role(name, kind)
        p.close()
        p = room.login(name)
    return p


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_STAFF_2_AC_5_AC_2_SEC_2_a_forbidden_account_is_refused_on_every_path_into_play(room, kind):
    code, rule = KINDS[kind]
    name = NAMES[kind]
    p = forbidden_account(room, kind)
    if p is None:                                               # banned: no session; a login is refused
        refused(Player(room.url).request("login", nickname=name, password=PASSWORD), code="account_closed", rule="AC-1")
    else:
        paths = {
            "join": {"table": "t1", "buy_in": 500},
            "waiting_list": {"table": "t1", "on": True},
            "tournament_register": {"tournament": "paid"},
            "tournament_rebuy": {"tournament": "paid"},
            "tournament_add_on": {"tournament": "paid"},
            "tournament_invitation_answer": {"tournament": "paid", "accept": True},
            "casino_join": {"table": BAC},
            "casino_bet": {"table": BAC, "market": "player", "amount": 100},
            "stake_buy": {"tournament": "paid", "seller": "seller", "percent": 5},
        }
        for path, fields in paths.items():
            answer = p.request(path, **fields)
            assert not answer["ok"] and (answer["error"]["code"], answer["error"]["rule"]) == (code, rule), \
                (path, answer)
        assert wallet(p) == WELCOME                             # nothing left the wallet on any path
    for tournament in ("free", "paid"):                          # the director's entry and invitation (STAFF-2)
        answer = room.add(tournament, name.upper())
        assert not answer["ok"] and (answer["error"]["code"], answer["error"]["rule"]) == (code, rule), \
            (tournament, answer)
        assert name in answer["error"]["message"]               # said of the named player, not "you"
    assert name not in room.entrants("free") and name not in room.entrants("paid")


def test_STAFF_2_an_invitation_edited_to_the_same_total_with_the_fee_to_the_house_is_refused_as_outdated(room):
    """Issue 33, finding 4: the invitation guarded only the total; 1000 + 100 edited to 100 + 1000 and another
    stack was accepted. The invitation holds the whole offer and any edit withdraws it."""
    room.create("edited", buy_in=1_000, fee=100)
    dee = sign_up(room.url, "dee")[0]
    assert room.add("edited", "dee")["invited"]
    offer = dee.wait_for(lambda m: m.get("type") == "tournament_invitation")["invitation"]
    assert (offer["buy_in"], offer["fee"], offer["entry_cost"]) == (1_000, 100, 1_100)
    edited = room.director.request("director_edit", tournament="edited",
                                   settings={"buy_in": 100, "fee": 1_000, "starting_stack": 1_500})
    assert edited["ok"], edited
    gone = dee.wait_for(lambda m: m.get("type") == "tournament_invitation_withdrawn")
    assert gone["tournament"] == "edited" and "changed" in gone["reason"]
    before = wallet(dee)
    refused(dee.request("tournament_invitation_answer", tournament="edited", accept=True),
            code="invitation_outdated", rule="STAFF-2")
    assert wallet(dee) == before and "dee" not in room.entrants("edited")
    assert dee.request("tournament_invitations")["invitations"] == []
    assert_ledger_sound(room.tmp / "data")
