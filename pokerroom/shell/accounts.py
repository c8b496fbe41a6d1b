"""Accounts: registration, login, session tokens, resuming and logging out.

A password costs an argon2id hash, run off the reactor by the password desk,
and attempts are limited per address, network and account. Tokens are stored
hashed with an expiry (STAFF-3), so any process can check one; what an
account may do is read afresh from the store at every login and resume.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from twisted.internet import defer, task
from twisted.internet.interfaces import IReactorTime
from twisted.python.failure import Failure

from pokerroom import players
from pokerroom.bus import NoResponder
from pokerroom.bus.records import (
    DISCONNECTED,
    LOGGED_IN,
    RESUMED,
    CatchUpRead,
    ResumeRead,
    SessionEvent,
    SessionGone,
    WalletRead,
    WelcomeDeposit,
)
from pokerroom.bus.subjects import (
    CASH_TABLES_RESUME,
    SESSION_EVENTS,
    WALLET_BALANCE,
    WALLET_WELCOME,
    table_catch_up,
)
from pokerroom.errors import RuleViolation
from pokerroom.gateway.routes import Gateway
from pokerroom.gateway.sessions import Session
from pokerroom.gateway.throttle import BucketsByKey, SlowLane, network_of
from pokerroom.protocol.codec import VERSION
from pokerroom.protocol.schema import Request, ok
from pokerroom.security.moderation import Moderation
from pokerroom.shell.display_names import DisplayNames
from pokerroom.shell.every_node import ask_every_node, resumable
from pokerroom.shell.password_desk import PasswordDesk
from pokerroom.shell.recorder import Recorder
from pokerroom.store.session_records import TOKEN_EXPIRED, TOKEN_LIVE, token_digest

ACCOUNT_WIDE = 10                   # an account's password attempts from all networks: this many times one network's


class Accounts:
    def __init__(self, reactor: IReactorTime, gateway: Gateway, recorder: Recorder,
                 moderation: Moderation, rules: players.AccountRules,
                 password_desk: PasswordDesk, display_names: DisplayNames, idle: float) -> None:
        self.reactor = reactor
        self.gateway = gateway
        self.recorder = recorder
        self.store = recorder.store
        self.moderation = moderation
        self.rules = rules
        self.password_desk = password_desk
        self.display_names = display_names
        self.idle = idle                        # seconds a token lives without use (STAFF-3)
        self.password_attempts = BucketsByKey(rules.password_attempts_per_minute / 60, rules.password_attempts_burst)
        self.network_attempts = BucketsByKey(rules.network_password_attempts_per_minute / 60,
                                             rules.network_password_attempts_burst)
        self.account_attempts = BucketsByKey(rules.account_password_attempts_per_minute / 60,
                                             rules.account_password_attempts_burst)       # (account, network)
        self.account_attempts_anywhere = SlowLane(ACCOUNT_WIDE * rules.account_password_attempts_per_minute / 60,
                                                  ACCOUNT_WIDE * rules.account_password_attempts_burst,
                                                  rules.account_attempts_wait_seconds)
        self.connection_records: dict[str, defer.Deferred] = {}   # session id -> its stored connection's id (SEC-1)
        gateway.bus.subscribe(SESSION_EVENTS, self._connection_closed)

    def _on_register(self, session: Session, request: Request, nickname: str, password: str, birth_date: str,
                     country: str) -> defer.Deferred:
        now = self.reactor.seconds()
        today = datetime.fromtimestamp(now, UTC).date()
        players.check_registration(nickname, birth_date, country, self.rules, today)
        taken = self._password_attempt(session, nickname)
        d = self._hash(taken, network_of(session.ip), players.hash_password, password)
        d.addCallback(lambda digest: self.recorder.write(self.store.accounts.create_account, nickname,
                                                         players.nickname_key(nickname), digest, birth_date, country,
                                                         now, quiet=False))

        def created(account: Any) -> Any:
            if not self.rules.welcome_balance:
                return ok(request, nickname=account.nickname)
            # the wallet desk pays it, held to the stored account's limits (AC-5), once per account
            d = self.gateway.bus.request(WALLET_WELCOME, WelcomeDeposit(account.nickname))
            return d.addCallback(lambda _: ok(request, nickname=account.nickname))

        return d.addCallback(created)

    def _password_attempt(self, session: Session, nickname: str) -> list:
        """Each attempt costs an argon2id hash: an address, its network and an account each get a few a minute.

        An account's limit counts per network, so whoever guesses at a player's
        password from one network does not lock the player out from theirs.
        What was taken is handed back if the attempt finds the desk busy.
        """
        now = self.reactor.seconds()
        network = network_of(session.ip)
        taken: list = []
        for buckets, key in ((self.password_attempts, session.ip), (self.network_attempts, network)):
            if not buckets.take(key, now):
                self._give_back(taken)
                raise RuleViolation("too_many_attempts", "too many log-in and registration attempts from your "
                                                         "address; wait a minute and try again")
            taken.append((buckets, key))
        account = (players.nickname_key(nickname), network)
        if not self.account_attempts.take(account, now):
            self._give_back(taken)
            raise RuleViolation("too_many_attempts", "too many log-in attempts for this account; wait a minute "
                                                     "and try again")
        taken.append((self.account_attempts, account))
        return taken

    @staticmethod
    def _give_back(taken: list) -> None:
        for buckets, key in taken:
            buckets.give_back(key)

    def _hash(self, taken: list, network: str, work: Any, *args: Any) -> defer.Deferred:
        """``work`` on the password desk; a ``busy`` answer costs the caller none of the attempts it took."""
        try:
            return self.password_desk.run(network, work, *args)
        except RuleViolation:
            self._give_back(taken)
            raise

    def _account_wide(self, session: Session, device: str | None, taken: list, key: str,
                      account: Any) -> defer.Deferred:
        """Seconds this login waits for the account's limit from every network together (ten times one network's),
        where guessing from many networks shows -- but never against the player's own: a login from a network or
        a device the account logged in from before (SEC-1's connection records, read only when the limit is
        reached) does not count there, and one over the limit waits its turn rather than being refused, unless
        the queue is longer than ``account_attempts_wait_seconds``."""
        lane = self.account_attempts_anywhere
        wait = lane.delay(key, self.reactor.seconds())
        if wait == 0.0:
            taken.append((lane, key))
            return defer.succeed(0.0)
        if wait is not None:
            lane.give_back(key)                         # not taken yet: the player's own network may not count

        def judged(places: tuple[set[str], set[str]]) -> float:
            networks, devices = places
            if network_of(session.ip) in networks or (device is not None and device in devices):
                return 0.0
            wait = lane.delay(key, self.reactor.seconds())
            if wait is None:
                self._give_back(taken)
                raise RuleViolation("too_many_attempts", "too many log-in attempts for this account from networks "
                                                         "it has not logged in from; wait a minute and try again")
            taken.append((lane, key))
            return wait

        if account is None:
            return defer.maybeDeferred(judged, (set(), set()))
        return self.recorder.write(places_of, self.store, account.nickname, quiet=False).addCallback(judged)

    def _on_login(self, session: Session, request: Request, nickname: str, password: str,
                  client: str = "desktop", device: str | None = None) -> defer.Deferred:
        taken = self._password_attempt(session, nickname)
        d = self.recorder.write(self.store.accounts.find_account, players.nickname_key(nickname), quiet=False)
        network = network_of(session.ip)

        def found(account: Any) -> defer.Deferred:
            d = self._account_wide(session, device, taken, players.nickname_key(nickname), account)
            return d.addCallback(lambda wait: task.deferLater(self.reactor, wait, hashed, account) if wait
                                 else hashed(account))     # slowed, not refused: the player may be the one waiting

        def hashed(account: Any) -> defer.Deferred:
            if account is None:
                return self._hash(taken, network, players.hash_password, password).addCallback(lambda _: None)
            return self._hash(taken, network, players.password_matches, account.password_hash, password) \
                .addCallback(lambda good: account if good else None)

        def checked(account: Any) -> defer.Deferred:
            if account is None:
                raise RuleViolation("bad_login", "that nickname and password do not match")
            if account.closed:
                raise RuleViolation("account_closed", "this account is closed", "AC-1")
            if session.connection is None:
                raise RuleViolation("connection_closed", "the connection closed while logging in")
            # STAFF-3: every other token of the account ends in the store (a restart's, another process's), and
            # the new one is stored with the account as it is now -- read after the hash, not before it.
            token, now = players.new_session_token(), self.reactor.seconds()
            self.recorder.write(self.store.sessions.end_tokens_of, account.nickname_key, now, "logged in again")
            return self.recorder.write(self.store.sessions.open_token, token_digest(token), account.nickname,
                                       account.nickname_key, now, now + self.idle, quiet=False) \
                .addCallback(lambda fresh: landed(fresh, token))

        def landed(account: Any, token: str) -> dict:
            if account is None:
                raise RuleViolation("account_closed", "this account is closed", "AC-1")
            if session.connection is None:
                self.recorder.write(self.store.sessions.end_token, token_digest(token), self.reactor.seconds(),
                                    "connection closed")
                raise RuleViolation("connection_closed", "the connection closed while logging in")
            if session.player_id is not None and session.player_id != account.nickname:
                self.end_identity(session)                  # this connection was someone else until now
            old = self.gateway.by_player.get(account.nickname)
            if old is not None and old is not session:
                self.end_token(old.token, "logged in elsewhere")    # a new login ends the old token
                self.gateway.take_over(session, old, 4000, "logged in elsewhere")
            session.role, session.client_type = account.role, client
            session.country, session.excluded_until = account.country, account.excluded_until
            session.logged_in_at = self.reactor.seconds()
            session.device = device
            if account.show_real_name and account.verified_name:
                self.display_names.show(account.nickname, account.verified_name)
            self.gateway.identify(session, account.nickname)
            self._connection_opened(session)
            self._account_state(session, account)
            self.end_token(session.token, "logged in again")
            session.token = token
            self.gateway.remember_token(token, session)
            self.gateway.returned(session, LOGGED_IN)
            answer = {"token": session.token, "nickname": account.nickname, "role": account.role}
            return self._with_balance(request, account.nickname, answer)

        return d.addCallback(found).addCallback(checked)

    def _with_balance(self, request: Request, player: str | None, answer: dict) -> defer.Deferred:
        """A login's or a resume's answer with the player's cash, asked of the wallet desk (the table process's)."""
        d = self.gateway.bus.request(WALLET_BALANCE, WalletRead(player or ""))
        return d.addCallback(lambda read: ok(request, **answer, balance=read["balance"], protocol=VERSION))

    def _connection_opened(self, session: Session) -> None:
        """Where a player connected from (IP, device): stored, and chained in the audit log (SEC-1). One record a
        connection at a time: another player's login on it closes the one before."""
        now = self.reactor.seconds()
        self._close_record(session.id, now)
        self.connection_records[session.id] = self.recorder.write(self.store.accounts.connection_opened,
                                                                  session.player_id, session.ip, session.device, now)
        self.recorder.audit("connection", player=session.player_id, ip=session.ip, device=session.device,
                            client=session.client_type)

    def _connection_closed(self, subject: str, event: SessionEvent) -> None:
        """A closed connection's record is closed too (SEC-1), whoever was on it last."""
        if isinstance(event, SessionGone) and event.why == DISCONNECTED:
            self._close_record(event.session, self.reactor.seconds())

    def _close_record(self, session_id: str, now: float) -> None:
        record = self.connection_records.pop(session_id, None)
        if record is not None:
            record.addCallback(lambda stored: self.recorder.write(self.store.accounts.connection_closed, stored, now))

    def end_identity(self, session: Session) -> None:
        """The player leaves this connection: disconnected at their tables (HR-DC-1), token ended."""
        self.end_token(session.token, "ended")
        self.gateway.forget_identity(session)          # the edge's login deadline runs again (its hook)

    def _on_logout(self, session: Session, request: Request) -> dict:
        """End the session; at tables the player is treated as disconnected (HR-DC-1)."""
        self.end_identity(session)
        return ok(request)

    # session tokens (STAFF-3): the store holds their hashes and expiry; any process can check one

    def open_token(self, session: Session, account: Any, shut: Any) -> None:
        """A token for a session signed in directly (the tests' sign-in): an account banned meanwhile is shut out
        when it lands (``shut(session, token)``); otherwise the session gets the account as stored then."""
        token = session.token = players.new_session_token()
        self.gateway.remember_token(token, session)
        now = self.reactor.seconds()
        d = self.recorder.write(self.store.sessions.open_token, token_digest(token), account.nickname,
                                account.nickname_key, now, now + self.idle)
        d.addCallback(lambda fresh: shut(session, token) if fresh is None
                      else self._account_state(session, fresh) if session.token == token else None)

    def end_token(self, token: str | None, reason: str) -> None:
        """Logout, a newer login, a ban: the token resumes nothing any more, in any process."""
        if token is None:
            return
        self.gateway.forget_token(token)
        self.recorder.write(self.store.sessions.end_token, token_digest(token), self.reactor.seconds(), reason)

    def _account_state(self, session: Session, account: Any) -> None:
        """What the account may do, as stored now (STAFF-3): never what an older session remembers."""
        session.role, session.country = account.role, account.country
        session.excluded_until = account.excluded_until
        if account.frozen:                                  # only ever added here: a row read before a freeze
            self.moderation.freeze(account.nickname)       # landed must not undo it; unfreezing is the security
                                                            # desk's job (SEC)

    def _on_resume(self, session: Session, request: Request, token: str, tables: dict[str, int],
                   device: str | None = None) -> defer.Deferred:
        """A reconnecting client: same session, the events it missed or a snapshot (HR-DC-2).

        The token is checked against the store, not this process's memory (STAFF-3): one that ended, expired
        or belongs to a closed account resumes nothing; one this process does not know (a restart, another
        process) resumes its account as it is stored now.
        """
        d = self.recorder.write(self.store.sessions.use_token, token_digest(token), self.reactor.seconds(), self.idle,
                                quiet=False)
        return d.addCallback(lambda found: self._resumed(session, request, token, tables, device, *found))

    def _resumed(self, session: Session, request: Request, token: str, tables: dict[str, int],
                 device: str | None, status: str, account: Any) -> defer.Deferred:
        if status == TOKEN_EXPIRED:
            hours = self.rules.session_idle_hours
            raise RuleViolation("session_expired", f"that session expired after {hours:g} hours without use; "
                                                   "log in again", "STAFF-3")
        if status != TOKEN_LIVE:
            raise RuleViolation("bad_token", "that session has ended; log in again", "STAFF-3")
        if account.closed:
            raise RuleViolation("account_closed", "this account is closed", "AC-1")
        if session.connection is None:
            raise RuleViolation("connection_closed", "the connection closed while resuming")
        old = self._resuming(token, account.nickname)
        # The tables are another process's: whether these may be resumed (refused before anything changes: a
        # client must know) and which are still open is asked of their host.
        read = ResumeRead(account.nickname, tuple(sorted(old.tables)) if old is not None else (),
                          tuple(sorted(tables.items())), tuple(sorted(session.tables)))
        asked = ask_every_node(self.gateway.bus, CASH_TABLES_RESUME, read, resumable)   # each node its tables
        return asked.addCallback(lambda answer: self._resume_checked(session, request, token, tables, device,
                                                                     account, set(answer["open"]),
                                                                     set(answer.get("seated", ()))))

    def _resuming(self, token: str, player: str) -> Session | None:
        """The session a resume takes over: the token's, or the player's under another token; None if neither."""
        old = self.gateway.sessions.get(token)
        if old is None or old.player_id != player:
            old = self.gateway.by_player.get(player)       # known here under another token, or not at all
        return old

    def _resume_checked(self, session: Session, request: Request, token: str, tables: dict[str, int],
                        device: str | None, account: Any, open_tables: set[str],
                        seated: set[str] = frozenset()) -> defer.Deferred:
        if session.connection is None:                      # the host's answer may come on a later turn
            raise RuleViolation("connection_closed", "the connection closed while resuming")
        gateway = self.gateway
        old = self._resuming(token, account.nickname)
        from_elsewhere = old is None            # a session this process never had: its process died, or a restart
        if old is not session:
            if session.player_id is not None:
                self.end_identity(session)                  # this connection was someone until now
            if old is not None:
                if old.token not in (None, token):          # the token it had ends in every process too
                    self.end_token(old.token, "resumed elsewhere")
                gateway.forget_token(old.token)
                gateway.take_over(session, old, 4001, "resumed elsewhere")
            else:                                           # a token from before a restart, or another process
                session.logged_in_at = self.reactor.seconds()
                gateway.identify(session, account.nickname)
            session.device = device
            self._connection_opened(session)
        elif session.token not in (None, token):
            self.end_token(session.token, "resumed elsewhere")
        session.token = token
        self._account_state(session, account)
        gateway.remember_token(token, session)
        gateway.identify(session, session.player_id)
        for table_id in tables:                             # seated there, not watching (a restart): watched again
            if table_id in open_tables and table_id not in session.tables:
                gateway.watch(session, table_id)
        if from_elsewhere:                                  # every seat of the player's watched again, caught up
            for table_id in sorted(seated - session.tables):  # with a snapshot
                open_tables.add(table_id)
                gateway.watch(session, table_id)
        caught_up = {table_id: "closed" for table_id in tables if table_id not in open_tables}
        # Subscribed first (take_over, identify, watch: the public stream and the seat's), caught up by seq second:
        # a frame published before the subscription is in the host's log, one after it comes live.
        catching = [(table_id, self._catch_up(session, table_id, tables.get(table_id, 0)))
                    for table_id in sorted(session.tables) if table_id in open_tables]   # one that just closed: its
                                                                                          # held table_closed follows

        def answer(how: list[str]) -> dict:
            caught_up.update(zip([table_id for table_id, _ in catching], how, strict=True))
            gateway.returned(session, RESUMED)                       # pushed after the catch-up
            return self._with_balance(request, session.player_id,
                                      {"nickname": session.player_id, "role": session.role, "tables": caught_up})

        caught = defer.gatherResults([d for _, d in catching], consumeErrors=True)
        return caught.addCallbacks(answer, lambda failure: failure.value.subFailure)   # a FirstError's own

    def _catch_up(self, session: Session, table_id: str, last_seq: int) -> defer.Deferred:
        """The table as the client missed it, asked of its host (``table.<id>.catch_up``): the missed frames, or a
        snapshot when those cannot show it whole (the host decides: HR-DC-2); "events" or "snapshot"."""
        seen = [last_seq]                               # the last seq the client has once this is pushed

        def push(answer: dict) -> str:
            if "snapshot" in answer:
                session.push(answer["snapshot"])
                seen[0] = answer["snapshot"]["seq"]
                if "moved" in answer:                   # taken over since the seq the client saw: told why
                    session.push(answer["moved"])
                return "snapshot"
            for frame in answer["frames"]:
                session.push_frame(frame)
                seen[0] = frame.message["seq"]
            return "events"

        def closed(failure: Failure) -> str:
            failure.trap(NoResponder)                   # it closed since the host said it was open
            return "closed"

        def release(result: object) -> object:
            self.gateway.release(session, table_id, seen[0])
            return result

        read = CatchUpRead(session.player_id, last_seq)
        self.gateway.hold(session, table_id)            # what comes live meanwhile waits for the catch-up
        return self.gateway.bus.request(table_catch_up(table_id), read).addCallbacks(push, closed).addBoth(release)


def places_of(store: Any, nickname: str) -> tuple[set[str], set[str]]:
    """On the writer thread: the networks and devices the account logged in from before (SEC-1's records)."""
    records = store.accounts.connections_of(nickname)
    return {network_of(r.ip) for r in records}, {r.device_id for r in records if r.device_id}
