"""Sessions follow the account (STAFF-3), in process on a Clock: tokens stored as hashes with an idle expiry,
resumes checked against the store, role changes and bans reaching live sessions at once -- from this room's own
requests or from another process writing the database."""

from __future__ import annotations

import hashlib

from twisted.internet import defer
from twisted.internet.task import Clock

from pokerroom.bus.records import WhereRead
from pokerroom.bus.subjects import CASINO_PLAYING, TOURNAMENTS_PLAYING
from pokerroom.players import nickname_key
from pokerroom.shell.composition import RoomServices
from pokerroom.shell.in_play import answer_in_play, ask_in_play
from pokerroom.store.room_store import RoomStore
from pokerroom.store.session_records import token_digest
from tests.support.clocked_room import Connection, deposit, make_room, player, request, resolved
from tests.support.security_room import security_desk
from tests.support.strict_rooms import signed_in, staffed

HOUR = 3600.0


def resume(room: RoomServices, token: str) -> tuple[dict, object]:
    session = room.gateway.connected(Connection(), "10.0.0.7")
    return resolved(request(room, session, "resume", token=token, tables={})), session


def pushes(connection: Connection, kind: str) -> list[dict]:
    return [m for m in connection.sent if m.get("type") == kind]


def test_STAFF_3_the_store_keeps_only_a_hash_of_each_token_with_an_idle_expiry(store):
    clock = Clock()
    clock.advance(1_000)
    room = make_room(store, clock)
    _, _, token = signed_in(room, "ana")
    [row] = store.sessions.token_rows("ana")
    assert row.token_hash == hashlib.sha256(token.encode()).hexdigest() != token
    assert token not in {str(getattr(row, c.name)) for c in row.__table__.columns}
    assert (row.created_at, row.expires_at, row.ended_at) == (1_000, 1_000 + 24 * HOUR, None)


def test_STAFF_3_a_resume_after_the_idle_time_is_refused_and_the_idle_time_is_configurable(store):
    clock = Clock()
    room = make_room(store, clock, session_idle_hours=2)
    ana, _, token = signed_in(room, "ana")
    room.gateway.disconnected(ana)
    clock.advance(2 * HOUR - 1)                             # just in time: the resume renews it
    answer, back = resume(room, token)
    assert answer["ok"] and answer["nickname"] == "ana"
    room.gateway.disconnected(back)
    clock.advance(2 * HOUR)
    expired, _ = resume(room, token)
    assert expired["error"]["code"] == "session_expired" and expired["error"]["rule"] == "STAFF-3"
    assert "expired after 2 hours without use" in expired["error"]["message"]
    assert store.sessions.token_rows("ana")[0].end_reason == "expired"
    assert resume(room, token)[0]["error"]["code"] == "bad_token"           # it has ended for good


def test_STAFF_3_a_connected_session_keeps_its_token_alive_and_is_renewed_at_most_once_a_minute(store):
    clock = Clock()
    room = make_room(store, clock, session_idle_hours=1)
    ana, _, token = signed_in(room, "ana")
    renewals = []
    renew = store.sessions.renew_tokens
    store.sessions.renew_tokens = lambda *args: (renewals.append(args[1]), renew(*args))[1]
    for _ in range(180):                                    # three hours connected, looked at every second
        clock.advance(60)
    assert 170 <= len(renewals) <= 181 and all(b - a >= 60 for a, b in zip(renewals, renewals[1:], strict=False))
    room.gateway.disconnected(ana)
    clock.advance(HOUR - 60)
    assert resume(room, token)[0]["ok"]


def test_STAFF_3_logout_ends_the_token_in_the_store(store):
    room = make_room(store, Clock())
    ana, _, token = signed_in(room, "ana")
    assert request(room, ana, "logout")["ok"]
    assert store.sessions.token_rows("ana")[0].end_reason == "ended"
    refused, _ = resume(room, token)
    assert refused["error"]["code"] == "bad_token" and refused["error"]["rule"] == "STAFF-3"


def test_STAFF_3_a_role_set_by_another_process_reaches_the_live_director_within_a_check(store):
    clock = Clock()
    room = staffed(store, clock)
    boss, connection, token = signed_in(room, "boss", "director")
    assert request(room, boss, "director_tables")["ok"]
    elsewhere = RoomStore(store.engine)                     # `pokerroom role boss player`, another process
    elsewhere.sessions.set_role("boss", "player", clock.seconds())
    clock.advance(1.0)                                      # session_check_seconds
    assert pushes(connection, "session_changed") == [{"type": "session_changed", "role": "player",
                                                      "was": "director"}]
    refused = request(room, boss, "director_tables")
    assert refused["error"]["code"] == "forbidden"
    room.gateway.disconnected(boss)
    answer, back = resume(room, token)
    assert answer["ok"] and answer["role"] == "player" and back.role == "player"


def test_STAFF_3_a_resume_reads_the_role_and_the_freeze_from_the_store_not_the_old_session(store):
    clock = Clock()
    room = staffed(store, clock, session_check_seconds=3600)      # no look at the changes meanwhile
    boss, _, token = signed_in(room, "boss", "director")
    room.gateway.disconnected(boss)
    store.accounts.update_account("boss", role="player", frozen=True)      # even written without a change row
    answer, back = resume(room, token)
    assert answer["ok"] and answer["role"] == "player"
    assert request(room, back, "director_tables")["error"]["code"] == "forbidden"
    assert request(room, back, "join", table="t1", buy_in=500)["error"]["code"] == "account_frozen"


def test_STAFF_3_a_token_resumes_its_account_after_a_restart(store):
    clock = Clock()
    room = staffed(store, clock)
    ana, _, token = signed_in(room, "ana", "director")
    again = make_room(store, clock)                         # a new process: it has never seen the token
    answer, back = resume(again, token)
    assert answer["ok"] and (answer["nickname"], answer["role"]) == ("ana", "director")
    assert again.gateway.by_player["ana"] is back and again.gateway.sessions[token] is back
    assert resume(again, "x" * 32)[0]["error"]["code"] == "bad_token"


def test_STAFF_3_an_admin_sets_a_role_and_the_live_session_has_it_at_once(store):
    clock = Clock()
    room = staffed(store, clock)
    root, _, _ = signed_in(room, "root", "admin")
    boss, connection, _ = signed_in(room, "boss", "director")
    ana, _, _ = signed_in(room, "ana")
    for who in (boss, ana):                                 # only an admin; a director cannot promote anyone
        refused = resolved(request(room, who, "admin_set_role", player="ana", role="admin", reason="please"))
        assert refused["error"]["code"] == "forbidden" and refused["error"]["rule"] == "STAFF-3"
    own = resolved(request(room, root, "admin_set_role", player="ROOT", role="player", reason="oops"))
    assert own["error"]["code"] == "own_role"
    nobody = resolved(request(room, root, "admin_set_role", player="nobody", role="admin", reason="x"))
    assert nobody["error"]["code"] == "no_such_player"
    demoted = resolved(request(room, root, "admin_set_role", player="BOSS", role="player", reason="left the team"))
    assert demoted["ok"] and demoted["player"] == "boss"
    assert pushes(connection, "session_changed")[-1]["role"] == "player"         # at once: no clock advanced
    assert request(room, boss, "director_tables")["error"]["code"] == "forbidden"
    assert store.accounts.find_account("boss").role == "player"
    [granted] = store.audit_log.audit_records("role_granted")
    assert granted.data == {"nickname": "boss", "role": "player", "by": "root", "reason": "left the team"}
    clock.advance(1.0)                                      # the change row comes back to this room: no second push
    assert len(pushes(connection, "session_changed")) == 1


def test_STAFF_3_a_ban_closes_the_live_session_and_its_tokens_resume_nothing(store):
    clock = Clock()
    room = make_room(store, clock)
    security_desk(room)
    sec, _, _ = signed_in(room, "sec", "security")
    pat, connection, token = signed_in(room, "pat")
    assert resolved(request(room, sec, "security_ban", player="pat", reason="collusion proven"))["ok"]
    assert {"closed": 4003} in connection.sent and pat.player_id is None
    assert [row.end_reason for row in store.sessions.token_rows("pat")] == ["ended"]
    assert resume(room, token)[0]["error"]["code"] == "bad_token"


def test_STAFF_3_a_ban_written_by_another_process_closes_the_live_session_within_a_check(store):
    clock = Clock()
    room = make_room(store, clock)
    pat, connection, token = signed_in(room, "pat")
    RoomStore(store.engine).sessions.close_account("pat", clock.seconds())
    assert store.sessions.token_rows("pat")[0].end_reason == "account closed"
    clock.advance(1.0)
    assert {"closed": 4003} in connection.sent and "pat" not in room.gateway.by_player
    assert token not in room.gateway.sessions
    assert resume(room, token)[0]["error"]["code"] == "bad_token"


def test_STAFF_3_a_login_that_lands_after_the_ban_is_shut_out_when_its_token_is_stored(store):
    clock = Clock()
    room = make_room(store, clock)
    session, connection = player(room, "pat")
    store.accounts.create_account("pat", "pat", "not-a-hash", "1990-01-01", "NL", 0.0)
    account = store.accounts.find_account("pat")                     # the login read the account: not closed yet
    RoomStore(store.engine).sessions.close_account("pat", 1.0)       # the ban lands while the password is checked
    clock.advance(1.0)                                      # and the room has seen it before the login ends
    room.accounts.open_token(session, account, room.session_watch.shut)                      # the login ends
    assert {"closed": 4003} in connection.sent and session.player_id is None and "pat" not in room.gateway.by_player
    assert store.sessions.token_rows("pat") == []


class HeldHash:
    """A password desk whose hashes finish when the test says: what lands meanwhile is the point."""

    def __init__(self) -> None:
        self.pending: list[defer.Deferred] = []

    def run(self, network, work, *args) -> defer.Deferred:                  # noqa: ANN001
        self.pending.append(defer.Deferred())
        return self.pending[-1]

    def finish(self, good: bool = True) -> None:
        self.pending.pop(0).callback(good)


def logging_in(room: RoomServices, name: str):
    """A login of an existing account whose password hash has not finished yet."""
    room.accounts.password_desk = desk = HeldHash()
    session = room.gateway.connected(Connection(), "10.0.0.8")
    answer = request(room, session, "login", nickname=name, password="x" * 12)
    assert isinstance(answer, defer.Deferred) and desk.pending
    return session, answer, desk


def account(room: RoomServices, name: str) -> None:
    room.store.accounts.create_account(name, nickname_key(name), "not-a-hash", "1990-01-01", "NL",
                                       room.reactor.seconds())
    deposit(room, name, 10_000)


def test_STAFF_3_a_freeze_or_a_role_change_that_lands_while_the_password_is_hashed_holds_after_the_login(store):
    clock = Clock()
    room = staffed(store, clock, session_check_seconds=3600)
    account(room, "ana")
    session, answer, desk = logging_in(room, "ana")             # the login read the row: not frozen, a player
    store.accounts.update_account("ana", frozen=True, role="director")  # security_freeze (and a role) land meanwhile
    room.moderation.freeze("ana")                           # as the security desk does it
    desk.finish()
    done = resolved(answer)
    assert done["ok"] and done["role"] == "director" and session.role == "director"
    assert "ana" in room.moderation.frozen                      # the stale row did not unfreeze her
    refused = request(room, session, "join", table="t1", buy_in=500)
    assert refused["error"]["code"] == "account_frozen"


def test_STAFF_3_a_login_whose_account_is_frozen_after_the_read_is_frozen_even_unseen_by_this_room(store):
    clock = Clock()
    room = staffed(store, clock, session_check_seconds=3600)
    account(room, "ana")
    session, answer, desk = logging_in(room, "ana")
    RoomStore(store.engine).accounts.update_account("ana", frozen=True)    # another process froze her; no change row
    desk.finish()
    assert resolved(answer)["ok"] and "ana" in room.moderation.frozen
    assert request(room, session, "join", table="t1", buy_in=500)["error"]["code"] == "account_frozen"


def test_STAFF_3_a_resume_with_a_row_read_before_a_freeze_does_not_undo_the_freeze(store):
    clock = Clock()
    room = staffed(store, clock, session_check_seconds=3600)
    ana, _, token = signed_in(room, "ana")
    room.gateway.disconnected(ana)
    use = store.sessions.use_token

    def read_then_frozen(*args):                                  # the resume read the row, then the freeze ran
        found = use(*args)
        store.accounts.update_account("ana", frozen=True)
        room.moderation.freeze("ana")
        return found

    store.sessions.use_token = read_then_frozen
    answer, back = resume(room, token)
    assert answer["ok"] and "ana" in room.moderation.frozen
    assert request(room, back, "join", table="t1", buy_in=500)["error"]["code"] == "account_frozen"


def test_STAFF_3_a_login_ends_every_other_token_of_the_account_in_the_store(store):
    clock = Clock()
    room = make_room(store, clock)
    account(room, "ana")
    elsewhere = RoomStore(store.engine)                           # tokens of another process, or before a restart
    for token in ("from-another-process", "from-before-a-restart"):
        elsewhere.sessions.open_token(token_digest(token), "ana", "ana", 0.0, 24 * HOUR)
    session, answer, desk = logging_in(room, "ana")
    desk.finish()
    token = resolved(answer)["token"]
    for old in ("from-another-process", "from-before-a-restart"):
        refused, _ = resume(room, old)
        assert refused["error"]["code"] == "bad_token" and refused["error"]["rule"] == "STAFF-3"
    rows = {row.token_hash: row for row in store.sessions.token_rows("ana")}
    assert rows[token_digest("from-another-process")].end_reason == "logged in again"
    assert rows[token_digest(token)].ended_at is None
    assert resume(room, token)[0]["ok"]


def test_STAFF_3_a_resume_that_takes_over_a_live_session_ends_its_old_token_in_the_store(store):
    clock = Clock()
    room = make_room(store, clock)
    ana, connection, first = signed_in(room, "ana")
    second = "second-token-of-another-process"
    RoomStore(store.engine).sessions.open_token(token_digest(second), "ana", "ana", 0.0, 24 * HOUR)
    answer, back = resume(room, second)                          # another process's token takes the session over
    assert answer["ok"] and room.gateway.by_player["ana"] is back and {"closed": 4001} in connection.sent
    ended = {row.token_hash: row.end_reason for row in store.sessions.token_rows("ana")}
    assert ended[token_digest(first)] == "resumed elsewhere" and ended[token_digest(second)] is None
    assert resume(room, first)[0]["error"]["code"] == "bad_token"


def test_STAFF_3_a_login_after_a_logout_leaves_no_token_of_the_account_live_but_its_own(store):
    clock = Clock()
    room = make_room(store, clock)
    account(room, "ana")
    logins = []
    for _ in range(2):
        session, answer, desk = logging_in(room, "ana")
        desk.finish()
        logins.append((session, resolved(answer)["token"]))
    assert request(room, logins[1][0], "logout")["ok"]
    assert [row.ended_at is not None for row in store.sessions.token_rows("ana")] == [True, True]
    assert all(resume(room, token)[0]["error"]["code"] == "bad_token" for _, token in logins)


def test_SEC_2_an_admin_cannot_make_a_player_in_play_security_or_admin(store):
    clock = Clock()
    room = staffed(store, clock)
    root, _, _ = signed_in(room, "root", "admin")
    ana, _, _ = signed_in(room, "ana")
    bo, _, _ = signed_in(room, "bo")
    cyd, _, _ = signed_in(room, "cyd")
    assert request(room, ana, "join", table="t1", buy_in=500, seat=1)["ok"]
    for seat, who in enumerate((bo, *(signed_in(room, f"p{i}")[0] for i in range(4))), start=2):
        assert request(room, who, "join", table="t1", buy_in=500, seat=seat)["ok"]
    assert request(room, cyd, "waiting_list", table="t1", on=True)["ok"]
    answer_in_play(room.bus, "test.casino.playing", lambda name: name == "dee")   # another process's floor
    room.session_watch.count_in_play("has a casino bet open", "test.casino.playing")
    signed_in(room, "dee")
    for name, where in (("ana", "is seated at t1"), ("cyd", "is on the waiting list of t1"),
                        ("dee", "has a casino bet open")):
        for role in ("security", "admin"):
            refused = resolved(request(room, root, "admin_set_role", player=name, role=role, reason="hired"))
            assert refused["error"]["code"] == "player_busy" and refused["error"]["rule"] == "SEC-2"
            assert where in refused["error"]["message"]
        assert store.accounts.find_account(name).role == "player"
    assert resolved(request(room, root, "admin_set_role", player="ana", role="director", reason="x"))["ok"]
    assert request(room, ana, "leave", table="t1")["ok"]
    table = room.tables.runners["t1"].table
    for _ in range(600):                                         # she leaves when the hand in play ends
        if table.seat_of("ana") is None:
            break
        clock.advance(1.0)
    assert resolved(request(room, root, "admin_set_role", player="ana", role="security", reason="hired"))["ok"]


def test_SEC_2_a_seated_player_promoted_by_another_process_leaves_the_table_and_the_waiting_lists(store):
    clock = Clock()
    room = staffed(store, clock)
    ana, connection, _ = signed_in(room, "ana")
    cyd, _, _ = signed_in(room, "cyd")
    assert request(room, ana, "join", table="t1", buy_in=500, seat=1)["ok"]
    for seat in range(2, 7):
        assert request(room, signed_in(room, f"p{seat}")[0], "join", table="t1", buy_in=500, seat=seat)["ok"]
    assert request(room, cyd, "waiting_list", table="t1", on=True)["ok"]
    table = room.tables.runners["t1"].table
    elsewhere = RoomStore(store.engine)                           # `pokerroom role ana security` / `cyd admin`
    elsewhere.sessions.set_role("ana", "security", clock.seconds())
    elsewhere.sessions.set_role("cyd", "admin", clock.seconds())
    clock.advance(1.0)
    assert pushes(connection, "session_changed")[-1]["role"] == "security"
    assert "cyd" not in table.waiting_list
    seat = table.seat_of("ana")
    assert seat is None or table.players[seat].leaving           # gone, or leaving after the hand in play
    for _ in range(600):
        if table.seat_of("ana") is None:
            break
        clock.advance(1.0)                                       # the hand plays out on its timers
    assert table.seat_of("ana") is None
    refused = request(room, ana, "join", table="t1", buy_in=500)
    assert refused["error"]["code"] == "staff_may_not_play" and refused["error"]["rule"] == "SEC-2"


def test_SEC_2_the_built_room_asks_the_casino_floor_and_the_tournament_hall_before_a_promotion(tmp_path):
    from pokerroom.app import build_room

    room = build_room(None, None, str(tmp_path), reactor=Clock())
    checks = room.session_watch.play_checks
    assert checks == {"has a casino bet open": CASINO_PLAYING, "is entered in a tournament": TOURNAMENTS_PLAYING}
    assert [resolved(ask_in_play(room.bus, subject, "nobody")) for subject in checks.values()] == [False, False]
    odd = resolved(room.bus.gather(CASINO_PLAYING, WhereRead("nobody"), 1))      # only an InPlayRead is answered
    assert odd.value.code == "unknown_read"
