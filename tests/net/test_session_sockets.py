"""Sessions follow the account (STAFF-3) over real sockets against a ``pokerroom serve`` process: the operator's
``pokerroom role``, run as another process while a director is connected, takes the director's powers at once and
the old token resumes a player; a ban closes the live connection and its token resumes nothing; tokens are stored
only as hashes, expire, end at logout, and resume after a restart from the database."""

from __future__ import annotations

import sqlite3

from sqlalchemy import text

from pokerroom.store.db import make_engine, sqlite_url
from pokerroom.store.room_store import RoomStore
from pokerroom.store.session_records import token_digest
from tests.net.server_process import Player, Server
from tests.support.socket_play import PASSWORD, closed_with, sign_up
from tests.support.waiting import wait_until


def test_STAFF_3_a_director_demoted_by_the_command_line_loses_the_powers_at_once_and_the_token_resumes_a_player(
        tmp_path):
    server = Server(tmp_path).start()
    try:
        sign_up(server.url, "boss")[0].close()
        server.grant("boss", "director")
        boss = Player(server.url)
        login = boss.request("login", nickname="boss", password=PASSWORD)
        assert login["role"] == "director"
        token = login["token"]
        assert boss.request("director_tables")["ok"]

        done = server.grant("boss", "player")                 # while the director is connected
        assert "takes effect at once" in done.stdout
        changed = boss.wait_for(lambda p: p.get("type") == "session_changed", timeout=10)
        assert (changed["role"], changed["was"]) == ("player", "director")
        refused = boss.request("director_tables")
        assert refused["error"]["code"] == "forbidden"
        boss.close()

        again = Player(server.url)
        resumed = again.request("resume", token=token, tables={})
        assert resumed["ok"] and resumed["role"] == "player"
        assert again.request("director_tables")["error"]["code"] == "forbidden"
        again.close()

        server.stop()                                           # a new process knows the token only by its hash
        server.start()
        server.grant("boss", "director")
        restarted = Player(server.url)
        resumed = restarted.request("resume", token=token, tables={})
        assert resumed["ok"] and (resumed["nickname"], resumed["role"]) == ("boss", "director")
        assert restarted.request("director_tables")["ok"]
    finally:
        server.stop()


def test_STAFF_3_a_ban_closes_the_live_session_tokens_are_hashes_that_expire_and_end_at_logout(tmp_path):
    server = Server(tmp_path).start()
    try:
        sec, _ = sign_up(server.url, "sec")
        server.grant("sec", "security")
        assert sec.wait_for(lambda p: p.get("type") == "session_changed", timeout=10)["role"] == "security"
        ana, ana_token = sign_up(server.url, "ana")
        cy, cy_token = sign_up(server.url, "cyd")
        di, di_token = sign_up(server.url, "dia")

        assert sec.request("security_ban", player="ana", reason="collusion proven")["ok"]
        closed = closed_with(ana)
        assert (closed.rcvd.code, closed.rcvd.reason) == (4003, "your account is closed")
        refused = Player(server.url).request("resume", token=ana_token, tables={})
        assert refused["error"]["code"] == "bad_token" and refused["error"]["rule"] == "STAFF-3"
        assert Player(server.url).request("login", nickname="ana", password=PASSWORD)["error"]["code"] == \
            "account_closed"

        assert cy.request("logout")["ok"]
        assert Player(server.url).request("resume", token=cy_token, tables={})["error"]["code"] == "bad_token"

        store = RoomStore(make_engine(sqlite_url(tmp_path / "data")))
        ended = lambda: [r.ended_at is not None  # noqa: E731
                         for r in store.sessions.token_rows("ana") + store.sessions.token_rows("cyd")]
        assert wait_until(lambda: ended() == [True, True], timeout=10), "timed out waiting for the ended tokens"
        with sqlite3.connect(tmp_path / "data" / "room.db") as db:       # the whole database, every table
            dump = "\n".join(db.iterdump())
        for token in (ana_token, cy_token, di_token):
            assert token not in dump and token_digest(token) in dump

        di.close()                                              # away longer than the idle time: the row says so
        with store.engine.begin() as c:
            c.execute(text("UPDATE session_tokens SET expires_at = used_at - 1 WHERE player_id = 'dia'"))
        expired = Player(server.url).request("resume", token=di_token, tables={})
        assert expired["error"]["code"] == "session_expired" and expired["error"]["rule"] == "STAFF-3"
        assert "expired after 24 hours without use" in expired["error"]["message"]
    finally:
        server.stop()


def test_STAFF_3_SEC_2_a_login_ends_tokens_from_before_a_restart_a_logout_restarts_the_deadline_and_staff_leave_play(
        tmp_path):
    from tests.net.server_process import start

    server = start(tmp_path, connections="login_seconds = 3\n")
    try:
        ana, before_restart = sign_up(server.url, "ana")
        ana.close()
        server.stop()                                           # the new process never saw that token
        server.start()
        ana = Player(server.url)
        assert ana.request("login", nickname="ana", password=PASSWORD)["ok"]
        refused = Player(server.url).request("resume", token=before_restart, tables={})
        assert refused["error"]["code"] == "bad_token" and refused["error"]["rule"] == "STAFF-3"

        assert ana.request("logout")["ok"]                      # anonymous again: the login deadline runs again
        closed = closed_with(ana)
        assert closed.rcvd.code == 4010 and "log in within 3 seconds" in closed.rcvd.reason

        root, _ = sign_up(server.url, "root")
        server.grant("root", "admin")
        root.wait_for(lambda p: p.get("type") == "session_changed", timeout=10)
        bo, _ = sign_up(server.url, "bob")
        cy, _ = sign_up(server.url, "cyd")
        for who in (bo, cy):
            assert who.request("join", table="t1", buy_in=500)["ok"]
        refused = root.request("admin_set_role", player="cyd", role="security", reason="hired")
        assert refused["error"]["code"] == "player_busy" and refused["error"]["rule"] == "SEC-2"
        done = server.grant("bob", "security")                  # the command line does it anyway
        assert "do not play" in done.stdout and "stands them up" in done.stdout
        assert bo.wait_for(lambda p: p.get("type") == "session_changed", timeout=10)["role"] == "security"
        taken = lambda: cy.request("lobby_list")["tables"][0]["taken"]      # noqa: E731
        assert wait_until(lambda: taken() == 1, timeout=30), "bob did not stand up"     # after the hand in play, if one
        again = bo.request("join", table="t1", buy_in=500)
        assert again["error"]["code"] == "staff_may_not_play" and again["error"]["rule"] == "SEC-2"
    finally:
        server.stop()
