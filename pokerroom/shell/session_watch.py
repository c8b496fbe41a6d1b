"""Sessions follow the account (STAFF-3): role changes and bans reach live sessions at once; tokens expire.

The database is the authority on who a token belongs to and what that account
may do -- not the memory of one process. The room checks a token against the
store at every resume (:meth:`~pokerroom.shell.room.Room._on_resume`) and reads
the account afresh there and at login. This watch does the rest, on the room's
writer queue:

* every ``session_check_seconds`` (1 s by default) it reads the account changes
  stored since the last it saw -- a role set by ``pokerroom role`` in another
  process, a ban, an admin's ``admin_set_role`` -- and applies them to the
  sessions of this process: a new role is pushed (``session_changed``) and the
  old powers end with it, since every staff command checks ``Session.role``; a
  closed account's session is ended and its connection closed (code
  :data:`ACCOUNT_CLOSED`). A change log with a cursor, not a scan of accounts:
  the poll is one indexed read of nothing at all while nothing changes.
* once a minute the tokens of connected sessions are renewed in one write: the
  idle expiry counts from when a token was last used (a login, a resume, a
  connection open).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from pokerroom import players
from pokerroom.errors import RuleViolation
from pokerroom.protocol.schema import Request, ok
from pokerroom.shell.staff_out_of_play import leave_play, refuse_if_playing
from pokerroom.store.session_records import token_digest

if TYPE_CHECKING:
    from pokerroom.bus import Bus
    from pokerroom.gateway.sessions import Session
    from pokerroom.security.moderation import Moderation
    from pokerroom.store.room_store import RoomStore

ACCOUNT_CLOSED = 4003               # the close code of a banned account's live connection
CLOSED_REASON = "your account is closed"
RENEW_EVERY = 60.0                  # seconds between two renewals of a connected session's token
LATE_COMMIT = 10.0                  # seconds a change is read again: its id may have been taken before a newer one's
ADMIN_ROLES = frozenset({"admin"})


class WatchedRoom(Protocol):
    """What the watch uses of the room: the account rules and the clock, the store through the writer and the
    audit log, the sessions (by token and by player) and the end of one, the security team's freezes, and the
    bus (the cash tables a new staff member leaves, where a promotion's player plays: SEC-2)."""

    account_rules: players.AccountRules
    reactor: IReactorTime
    store: RoomStore
    moderation: Moderation
    sessions: dict[str, Session]
    by_player: dict[str, Session]
    bus: Bus

    def write(self, function: Callable[..., Any], *args: Any, quiet: bool = True) -> defer.Deferred: ...

    def audit(self, kind: str, at: float | None = None, **data: Any) -> None: ...

    def end_identity(self, session: Session) -> None: ...


class SessionWatch:
    log = Logger()

    def __init__(self, room: WatchedRoom) -> None:
        self.room = room
        self.cursor = 0                                     # the newest account change applied
        self.renewed_at = float("-inf")
        self.running = False
        # where else a player can be in play (SEC-2), e.g. {"has a casino bet open": floor.playing}
        self.play_checks: dict[str, Callable[[str], bool]] = {}

    def count_in_play(self, where: str, playing: Callable[[str], bool]) -> None:
        """Another place a player can be in play (SEC-2): ``playing(player)``, said as ``where`` in a refusal."""
        self.play_checks[where] = playing

    @property
    def idle(self) -> float:
        """Seconds a token lives unused."""
        return self.room.account_rules.session_idle_hours * 3600.0

    def start(self) -> None:
        """From the newest change on (blocking; at start): older ones are read afresh at each login and resume."""
        self.cursor = self.room.store.sessions.last_account_change()
        if not self.running:
            self.running = True
            self.room.reactor.callLater(self.room.account_rules.session_check_seconds, self._tick)

    def _tick(self) -> None:
        room = self.room
        now = room.reactor.seconds()
        if now - self.renewed_at >= RENEW_EVERY:
            self.renewed_at = now
            self._renew(now)
        d = room.write(room.store.sessions.account_changes_since, self.cursor, time.time() - LATE_COMMIT, quiet=False)
        d.addCallback(self._changed)
        d.addErrback(lambda failure: self.log.failure("reading the account changes failed", failure))
        d.addBoth(lambda _: room.reactor.callLater(room.account_rules.session_check_seconds, self._tick))

    def _renew(self, now: float) -> None:
        room = self.room
        digests = sorted({token_digest(s.token) for s in room.sessions.values()
                          if s.token is not None and s.connection is not None})
        if digests:
            room.write(room.store.sessions.renew_tokens, digests, now, self.idle)

    def _changed(self, found: tuple[int, list]) -> None:
        cursor, accounts = found
        self.cursor = max(self.cursor, cursor)
        for account in accounts:
            self.apply(account)

    def apply(self, account: Any) -> None:
        """The account as stored now reaches its session in this process, if it has one."""
        room = self.room
        name = account.nickname
        if account.frozen:
            room.moderation.freeze(name)
        else:
            room.moderation.unfreeze(name)
        session = room.by_player.get(name)
        if session is None:
            return
        if account.closed:
            self.shut(session, session.token)
            return
        if session.role != account.role:
            was, session.role = session.role, account.role
            session.push({"type": "session_changed", "role": account.role, "was": was})
            if account.role in players.SECURITY_ROLES:         # staff do not play (SEC-2): out of play, safely
                leave_play(room.bus, name)

    def shut(self, session: Any, token: str | None) -> None:
        """A closed account's session ends and its connection is closed -- if it is still that session."""
        if session.player_id is None or session.token != token:
            return
        connection = session.connection
        self.room.end_identity(session)
        if connection is not None:
            connection.close(ACCOUNT_CLOSED, CLOSED_REASON)

    # ------------------------------------------------------------------ the admin's request

    def _on_admin_set_role(self, session: Any, request: Request, player: str, role: str,
                           reason: str) -> Any:
        """An admin gives an account a role; its live sessions have it (and lose the old one) at once."""
        if session.role not in ADMIN_ROLES:
            raise RuleViolation("forbidden", "only an admin can change an account's role", "STAFF-3")
        key = players.nickname_key(player)
        if key == players.nickname_key(session.player_id):
            raise RuleViolation("own_role", "an admin cannot change their own role: another admin or the "
                                            "operator (`pokerroom role`) can", "STAFF-3")
        room = self.room
        by = session.player_id

        def found(account: Any) -> Any:
            if account is None:
                raise RuleViolation("no_such_player", f"there is no player {player}", "STAFF-3")
            refused = refuse_if_playing(room.bus, self.play_checks, account.nickname, role)      # SEC-2, asked
            return refused.addCallback(lambda _: room.write(room.store.sessions.set_role, key, role,
                                                            room.reactor.seconds(), quiet=False))

        def stored(account: Any) -> dict:
            if account is None:
                raise RuleViolation("no_such_player", f"there is no player {player}", "STAFF-3")
            room.audit("role_granted", nickname=account.nickname, role=role, by=by, reason=reason)
            self.apply(account)
            return ok(request, player=account.nickname, role=role)

        return room.write(room.store.accounts.find_account, key, quiet=False).addCallback(found).addCallback(stored)
