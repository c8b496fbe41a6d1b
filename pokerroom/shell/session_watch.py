"""Sessions follow the account (STAFF-3): role changes and bans reach live sessions at once; tokens expire.

The database is the authority on who a token belongs to and what that account
may do -- not the memory of one process. The room checks a token against the
store at every resume (:meth:`~pokerroom.shell.accounts.Accounts._on_resume`) and reads
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
from typing import TYPE_CHECKING, Any

from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger

from pokerroom import players
from pokerroom.errors import RuleViolation
from pokerroom.protocol.schema import Request, ok
from pokerroom.shell.staff_out_of_play import leave_play, refuse_if_playing
from pokerroom.store.session_records import token_digest

if TYPE_CHECKING:
    from pokerroom.bus import Bus
    from pokerroom.gateway.routes import Gateway
    from pokerroom.security.moderation import Moderation
    from pokerroom.shell.accounts import Accounts
    from pokerroom.shell.recorder import Recorder
    from pokerroom.store.room_store import RoomStore

ACCOUNT_CLOSED = 4003               # the close code of a banned account's live connection
CLOSED_REASON = "your account is closed"
RENEW_EVERY = 60.0                  # seconds between two renewals of a connected session's token
LATE_COMMIT = 10.0                  # seconds a change is read again: its id may have been taken before a newer one's
ADMIN_ROLES = frozenset({"admin"})


class SessionWatch:
    log = Logger()

    def __init__(self, reactor: IReactorTime, store: RoomStore, recorder: Recorder, rules: players.AccountRules,
                 moderation: Moderation, gateway: Gateway, bus: Bus, accounts: Accounts) -> None:
        self.reactor = reactor
        self.store = store
        self.recorder = recorder                            # the store through the writer, and the audit log
        self.rules = rules
        self.moderation = moderation                        # the security team's freezes, as stored
        self.gateway = gateway                              # the sessions, by token and by player
        self.bus = bus
        self.accounts = accounts                            # the end of a closed account's session
        self.cursor = 0                                     # the newest account change applied
        self.renewed_at = float("-inf")
        self.running = False
        self.next_tick: Any = None                          # the pending poll (a DelayedCall), cancelled at stop
        # where else a player can be in play (SEC-2), each asked on its subject: {"has a casino bet open":
        # "casino.playing"}
        self.play_checks: dict[str, str] = {}

    def count_in_play(self, where: str, subject: str) -> None:
        """Another place a player can be in play (SEC-2), asked on ``subject`` (an ``InPlayRead``, answered True
        or False: :mod:`pokerroom.shell.in_play`), said as ``where`` in a refusal."""
        self.play_checks[where] = subject

    @property
    def idle(self) -> float:
        """Seconds a token lives unused."""
        return self.rules.session_idle_hours * 3600.0

    def start(self) -> None:
        """From the newest change on (blocking; at start): older ones are read afresh at each login and resume."""
        self.cursor = self.store.sessions.last_account_change()
        if not self.running:
            self.running = True
            self._later()

    def stop(self) -> None:
        """No more polls (the room is stopping): the pending one is cancelled, and one being read schedules none."""
        self.running = False
        if self.next_tick is not None and self.next_tick.active():
            self.next_tick.cancel()
        self.next_tick = None

    def _later(self) -> None:
        if self.running:
            self.next_tick = self.reactor.callLater(self.rules.session_check_seconds, self._tick)

    def _tick(self) -> None:
        now = self.reactor.seconds()
        if now - self.renewed_at >= RENEW_EVERY:
            self.renewed_at = now
            self._renew(now)
        d = self.recorder.write(self.store.sessions.account_changes_since, self.cursor, time.time() - LATE_COMMIT,
                                quiet=False)
        d.addCallback(self._changed)
        d.addErrback(lambda failure: self.log.failure("reading the account changes failed", failure))
        d.addBoth(lambda _: self._later())

    def _renew(self, now: float) -> None:
        digests = sorted({token_digest(s.token) for s in self.gateway.sessions.values()
                         if s.token is not None and s.connection is not None})
        if digests:
            self.recorder.write(self.store.sessions.renew_tokens, digests, now, self.idle)

    def _changed(self, found: tuple[int, list]) -> None:
        cursor, accounts = found
        self.cursor = max(self.cursor, cursor)
        for account in accounts:
            self.apply(account)

    def apply(self, account: Any) -> None:
        """The account as stored now reaches its session in this process, if it has one."""
        name = account.nickname
        if account.frozen:
            self.moderation.freeze(name)
        else:
            self.moderation.unfreeze(name)
        session = self.gateway.by_player.get(name)
        if session is None:
            return
        if account.closed:
            self.shut(session, session.token)
            return
        if session.role != account.role:
            was, session.role = session.role, account.role
            session.push({"type": "session_changed", "role": account.role, "was": was})
            if account.role in players.SECURITY_ROLES:         # staff do not play (SEC-2): out of play, safely
                leave_play(self.bus, name)

    def shut(self, session: Any, token: str | None) -> None:
        """A closed account's session ends and its connection is closed -- if it is still that session."""
        if session.player_id is None or session.token != token:
            return
        connection = session.connection
        self.accounts.end_identity(session)
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
        by = session.player_id

        def found(account: Any) -> Any:
            if account is None:
                raise RuleViolation("no_such_player", f"there is no player {player}", "STAFF-3")
            refused = refuse_if_playing(self.bus, self.play_checks, account.nickname, role)      # SEC-2, asked
            return refused.addCallback(lambda _: self.recorder.write(self.store.sessions.set_role, key, role,
                                                                     self.reactor.seconds(), quiet=False))

        def stored(account: Any) -> dict:
            if account is None:
                raise RuleViolation("no_such_player", f"there is no player {player}", "STAFF-3")
            self.recorder.audit("role_granted", nickname=account.nickname, role=role, by=by, reason=reason)
            self.apply(account)
            return ok(request, player=account.nickname, role=role)

        found_account = self.recorder.write(self.store.accounts.find_account, key, quiet=False)
        return found_account.addCallback(found).addCallback(stored)
