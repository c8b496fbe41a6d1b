"""Player accounts: who may register (AC-1..3), passwords, tokens, responsible gaming (AC-5), AML (AC-6).

The checks are pure functions of the request, the room's :class:`AccountRules`
and today's date; hashing a password (argon2id, deliberately slow) is the one
CPU-heavy step, and the server runs it off the reactor thread.
"""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass, field, fields
from datetime import date

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from pokerroom.conduct import OFFENSIVE_WORDS, STAFF_WORDS, name_imitates
from pokerroom.errors import RuleViolation

ROLES = ("player", "director", "security", "admin")
RESERVED = frozenset({"world", "rake", "fees", "house", "bank", "system"})     # names of the room's own accounts
_NICKNAME = re.compile(r"[A-Za-z0-9_\-]{3,20}")
# argon2id with the library's recommended cost. POKERROOM_ARGON2=bench makes it cheap, for load benchmarks
# that log in thousands of bots and for the rooms of the browser tests; never set it in a real room.
_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1) \
    if os.environ.get("POKERROOM_ARGON2") == "bench" else PasswordHasher()

DIRECTOR_ROLES = frozenset({"director", "admin"})      # may run tournaments and cash tables
SECURITY_ROLES = frozenset({"security", "admin"})      # may review play and act on accounts (SEC-4)


@dataclass
class AccountRules:
    """The room's account policy. ``countries`` may change while the room runs (AC-2)."""

    min_age: int = 18
    countries: set[str] = field(default_factory=lambda: {"DE", "GB", "ID", "IR", "NL", "TR"})
    banned_words: tuple[str, ...] = OFFENSIVE_WORDS    # refused in chat and nicknames, however spelt (HR-CHAT-2)
    staff_words: tuple[str, ...] = STAFF_WORDS         # no nickname may pass for staff (AC-3)
    aml_threshold: int = 1_000_000           # minor units: a transfer this large raises an AML flag (AC-6)
    welcome_balance: int = 0                 # play money given at registration (demo rooms)
    session_idle_hours: float = 24.0         # STAFF-3: a session token unused this long expires
    session_check_seconds: float = 1.0       # STAFF-3: how often the room looks for role changes and bans
    password_attempts_per_minute: float = 30.0   # per IP address: each costs an argon2id hash
    password_attempts_burst: float = 20.0
    network_password_attempts_per_minute: float = 60.0   # per IPv4 /24 or IPv6 /64
    network_password_attempts_burst: float = 30.0
    account_password_attempts_per_minute: float = 10.0   # per nickname, whoever tries it
    account_password_attempts_burst: float = 10.0
    account_attempts_wait_seconds: float = 30.0   # all networks' limit (10x that): over it, wait up to this long
    password_threads: int = 2                # the password desk's own threads (pokerroom/shell/password_desk.py)
    password_queue: int = 16                 # hashes that may wait for a thread; beyond: `busy` at once
    password_queue_per_network: int = 4      # places one network may hold, running or waiting

    @classmethod
    def from_config(cls, data: dict) -> AccountRules:
        """The ``[accounts]`` section of the room config (every key optional); ``ValueError`` names a bad key."""
        section = dict(data.get("accounts", {}))
        known = {f.name for f in fields(cls)}
        unknown = set(section) - known
        if unknown:
            raise ValueError(f"[accounts] has no setting {sorted(unknown)[0]!r}")
        if "countries" in section:
            section["countries"] = set(section["countries"])
        for words in ("banned_words", "staff_words"):
            if words in section:
                section[words] = tuple(section[words])
        return cls(**section)


def nickname_key(nickname: str) -> str:
    """Nicknames are unique ignoring case (AC-3)."""
    return nickname.casefold()


def check_nickname(nickname: str, rules: AccountRules) -> None:
    """AC-3: the shape, and no staff name or offensive word however spelt, at registration and at a reset."""
    if not _NICKNAME.fullmatch(nickname):
        raise RuleViolation("bad_nickname", "a nickname is 3 to 20 letters, digits, '_' or '-'", "AC-3")
    key = nickname_key(nickname)
    if key in RESERVED or name_imitates(nickname, rules.staff_words + rules.banned_words) is not None:
        raise RuleViolation("nickname_refused", "that nickname is not allowed here; choose another", "AC-3")


def check_registration(nickname: str, birth_date: str, country: str, rules: AccountRules,
                       today: date) -> None:
    """Refuse a registration the room's rules do not allow (AC-1, AC-2, AC-3)."""
    check_nickname(nickname, rules)
    try:
        born = date.fromisoformat(birth_date)
    except ValueError:
        raise RuleViolation("bad_birth_date", "give the date of birth as YYYY-MM-DD", "AC-1") from None
    age = today.year - born.year - ((today.month, today.day) < (born.month, born.day))
    if born > today or age > 130:
        raise RuleViolation("bad_birth_date", "that date of birth is not possible", "AC-1")
    if age < rules.min_age:
        raise RuleViolation("under_age", f"you must be at least {rules.min_age} to play here", "AC-1")
    if country not in rules.countries:
        raise RuleViolation("restricted_country", f"players from {country} cannot register here", "AC-2")


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


def password_matches(password_hash: str, password: str) -> bool:
    try:
        return _HASHER.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def new_session_token() -> str:
    """192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def check_may_play(country: str, excluded_until: float | None, closed: bool, rules: AccountRules,
                   now: float) -> None:
    """Refuse a player who may not sit down: closed (AC-1), now-restricted country (AC-2), excluded (AC-5)."""
    if closed:
        raise RuleViolation("account_closed", "this account is closed", "AC-1")
    if country not in rules.countries:
        raise RuleViolation("restricted_country", f"play from {country} is not allowed any more; you may "
                                                  "still withdraw", "AC-2")
    if excluded_until is not None and now < excluded_until:
        raise RuleViolation("self_excluded", "you have excluded yourself from play for now", "AC-5")


def aml_flag(amount: int, rules: AccountRules) -> bool:
    """Whether a movement of ``amount`` must be flagged for the security team (AC-6)."""
    return amount >= rules.aml_threshold
