"""Session tokens and account changes on SQLite and PostgreSQL (STAFF-3): hashes only, an idle expiry renewed
while in use, ended at logout and at a ban; a change log any process writes and a running room reads by cursor."""

from __future__ import annotations

from sqlalchemy import text

from pokerroom.store.session_records import TOKEN_ENDED, TOKEN_EXPIRED, TOKEN_LIVE, TOKEN_UNKNOWN, token_digest

DAY = 86_400.0
TOKEN = "Zq3v8J0-secret-token-of-ana_xyz"


def account(store, name: str, role: str = "player") -> None:
    store.accounts.create_account(name, name.casefold(), "not-a-hash", "1990-01-01", "NL", 0.0, role=role)


def test_STAFF_3_a_token_is_kept_as_its_hash_and_resumes_until_its_idle_time_passes(store):
    account(store, "Ana")
    store.sessions.open_token(token_digest(TOKEN), "Ana", "ana", 100.0, 100.0 + DAY)
    with store.engine.connect() as c:
        rows = [tuple(map(str, row)) for row in c.execute(text("SELECT * FROM session_tokens"))]
    assert len(rows) == 1 and not any(TOKEN in value for value in rows[0])
    assert token_digest(TOKEN) in rows[0] and len(token_digest(TOKEN)) == 64
    status, found = store.sessions.use_token(token_digest(TOKEN), 100.0 + DAY - 1, DAY)       # in time: renewed
    assert status == TOKEN_LIVE and found.nickname == "Ana" and found.role == "player"
    assert store.sessions.use_token(token_digest(TOKEN), 100.0 + 2 * DAY - 2, DAY)[0] == TOKEN_LIVE
    assert store.sessions.use_token(token_digest(TOKEN), 100.0 + 3 * DAY, DAY) == (TOKEN_EXPIRED, None)
    assert store.sessions.use_token(token_digest(TOKEN), 100.0 + 3 * DAY, DAY) == (TOKEN_ENDED, None)
    assert store.sessions.use_token(token_digest("never-issued-token"), 0.0, DAY) == (TOKEN_UNKNOWN, None)


def test_STAFF_3_renewal_is_for_live_tokens_only_and_logout_and_a_ban_end_them(store):
    account(store, "ana")
    account(store, "bo")
    for token, name, at in (("ana-1", "ana", 0.0), ("ana-2", "ana", 0.0), ("bo-1", "bo", 0.0)):
        store.sessions.open_token(token_digest(token), name, name, at, at + DAY)
    store.sessions.end_token(token_digest("ana-1"), 10.0, "ended")
    store.sessions.renew_tokens([token_digest(t) for t in ("ana-1", "ana-2", "bo-1")], 50.0, DAY)
    rows = {r.token_hash: r for name in ("ana", "bo") for r in store.sessions.token_rows(name)}
    assert rows[token_digest("ana-1")].expires_at == DAY and rows[token_digest("ana-1")].ended_at == 10.0
    assert rows[token_digest("ana-2")].expires_at == rows[token_digest("bo-1")].expires_at == 50.0 + DAY
    store.sessions.close_account("ana", 60.0)
    assert store.accounts.find_account("ana").closed and not store.accounts.find_account("bo").closed
    assert [(r.ended_at, r.end_reason) for r in store.sessions.token_rows("ana")] == [(10.0, "ended"),
                                                                                      (60.0, "account closed")]
    assert store.sessions.use_token(token_digest("ana-2"), 61.0, DAY) == (TOKEN_ENDED, None)
    assert store.sessions.use_token(token_digest("bo-1"), 61.0, DAY)[0] == TOKEN_LIVE


def test_STAFF_3_role_changes_and_bans_are_read_after_a_cursor_with_the_account_as_it_is_now(store):
    account(store, "Boss", "director")
    account(store, "pat")
    assert store.sessions.last_account_change() == 0
    assert store.sessions.account_changes_since(0) == (0, [])
    assert store.sessions.set_role("nobody", "admin", 1.0) is None
    assert store.sessions.set_role("boss", "player", 1.0).role == "player"
    store.sessions.set_role("boss", "security", 2.0)
    store.sessions.close_account("pat", 3.0)
    cursor, accounts = store.sessions.account_changes_since(0)
    assert cursor == store.sessions.last_account_change() == 3
    assert sorted((a.nickname, a.role, a.closed) for a in accounts) == [("Boss", "security", False),
                                                                      ("pat", "player", True)]
    later, only = store.sessions.account_changes_since(2)
    assert later == 3 and [a.nickname for a in only] == ["pat"]
    assert store.sessions.account_changes_since(3) == (3, [])


def test_STAFF_3_a_change_committed_late_is_read_again_while_it_is_recent(store):
    account(store, "boss", "director")
    store.sessions.set_role("boss", "player", 100.0)
    cursor, _ = store.sessions.account_changes_since(0)
    again, accounts = store.sessions.account_changes_since(cursor, 95.0)         # within the window: read once more
    assert again == cursor and [(a.nickname, a.role) for a in accounts] == [("boss", "player")]
    assert store.sessions.account_changes_since(cursor, 101.0) == (cursor, [])


def test_STAFF_3_opening_a_token_returns_the_account_as_stored_then_and_a_login_ends_the_others(store):
    account(store, "ana")
    store.sessions.open_token(token_digest("older-token-of-ana-1"), "ana", "ana", 0.0, DAY)
    store.accounts.update_account("ana", frozen=True, role="director")     # what landed while the password was hashed
    store.sessions.end_tokens_of("ana", 5.0, "logged in again")
    fresh = store.sessions.open_token(token_digest(TOKEN), "ana", "ana", 5.0, 5.0 + DAY)
    assert fresh.frozen and fresh.role == "director"
    assert store.sessions.use_token(token_digest("older-token-of-ana-1"), 6.0, DAY) == (TOKEN_ENDED, None)
    assert store.sessions.use_token(token_digest(TOKEN), 6.0, DAY)[0] == TOKEN_LIVE
    store.sessions.close_account("ana", 7.0)
    assert store.sessions.open_token(token_digest("after-the-ban-token"), "ana", "ana", 8.0, 8.0 + DAY) is None
    assert len(store.sessions.token_rows("ana")) == 2                       # nothing stored for a closed account
