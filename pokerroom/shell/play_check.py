"""Who may play: the one check on every path that puts a player into play (STAFF-2).

Cash join and waiting list, a tournament entry (register, an invitation
accepted, rebuy, add-on, re-entry), a casino bet, buying a share of someone's
action, and a director's entry or invitation all ask :meth:`PlayCheck.session`
or :meth:`PlayCheck.named`, and both end in :func:`refusal`. A connected player
is checked from their session; a player a director names -- who may be
offline -- from the stored account, found by the case-folded nickname (AC-3):
a different-case copy of a name is that account under its own spelling, and a
name that is no account is refused, so no state is ever kept under either.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime

from pokerroom import players
from pokerroom.errors import RuleViolation

if TYPE_CHECKING:
    from pokerroom.security.moderation import Moderation
    from pokerroom.shell.recorder import Recorder
    from pokerroom.store.room_store import RoomStore


@dataclass(frozen=True, slots=True)
class Standing:
    """What decides whether an account may play, from a session or from the store."""

    nickname: str
    role: str
    country: str
    excluded_until: float | None
    closed: bool
    frozen: bool


def refusal(standing: Standing, rules: players.AccountRules, now: float, *, own: bool) -> RuleViolation | None:
    """Why ``standing`` may not play now, or None; ``own``: said to the player, else to the director naming them."""
    name = standing.nickname
    if standing.closed:                         # closed by the player or banned by the security team
        return RuleViolation("account_closed", "this account is closed" if own else f"{name}'s account is closed",
                             "AC-1")
    if standing.role in players.SECURITY_ROLES:  # they replay every ended hand with all its cards (SEC-2)
        return RuleViolation("staff_may_not_play", "security and admin accounts do not play: use a player account"
                             if own else f"{name} is a security or admin account, and those do not play", "SEC-2")
    if standing.frozen:
        return RuleViolation("account_frozen", "your account is frozen while the security team reviews it; "
                             "contact support" if own else f"{name}'s account is frozen while the security team "
                             "reviews it", "SEC-4")
    if standing.country not in rules.countries:
        return RuleViolation("restricted_country", f"play from {standing.country} is not allowed any more; you may "
                             "still withdraw" if own else f"play from {standing.country} is not allowed: {name} may "
                             "not play", "AC-2")
    if standing.excluded_until is not None and now < standing.excluded_until:
        return RuleViolation("self_excluded", "you have excluded yourself from play for now" if own
                             else f"{name} has excluded themselves from play", "AC-5")
    return None


class PlayCheck:
    """The room's may-play check, on the reactor thread; a named player's account is read through the writer."""

    def __init__(self, rules: players.AccountRules, reactor: IReactorTime, moderation: Moderation, store: RoomStore,
                 recorder: Recorder) -> None:
        self.rules = rules
        self.reactor = reactor
        self.moderation = moderation                        # the security team's freezes
        self.store = store
        self.recorder = recorder                            # a named account is read through the writer's queue

    def check(self, standing: Standing, *, own: bool) -> None:
        refused = refusal(standing, self.rules, self.reactor.seconds(), own=own)
        if refused is not None:
            raise refused

    def session(self, session: Any) -> None:
        """Refuse a connected player who may not play (the request is their own)."""
        player = session.player_id
        self.check(Standing(player, session.role, session.country, session.excluded_until, False,
                            player in self.moderation.frozen), own=True)

    def account(self, name: str) -> defer.Deferred:
        """The stored account ``name`` stands for, in any letter case, or ``no_such_player``.

        It is read through the writer's queue, so it sees every write asked
        for before (a self-exclusion, a freeze, a ban).
        """
        d = self.recorder.write(self.store.accounts.find_account, players.nickname_key(name), quiet=False)

        def found(account: Any) -> Any:
            if account is None:
                raise RuleViolation("no_such_player", f"there is no player {name!r}", "STAFF-2")
            return account

        return d.addCallback(found)

    def named(self, name: str) -> defer.Deferred:
        """A Deferred of the :class:`Standing` of the account ``name`` stands for, once it is known it may play."""

        def checked(account: Any) -> Standing:
            standing = Standing(account.nickname, account.role, account.country, account.excluded_until,
                                bool(account.closed),
                                bool(account.frozen) or account.nickname in self.moderation.frozen)
            self.check(standing, own=False)
            return standing

        return self.account(name).addCallback(checked)
