"""The security team's desk: review, cases and actions over the protocol (SEC-2..4, HR-CHAT-3, AC-3, AC-4, AC-7).

Theory of operation
-------------------
Every ``security_*`` request is refused to anyone without the role
(:data:`~pokerroom.players.SECURITY_ROLES`). Reads go through the room's
writer queue, so what was just written is there to read; the collusion
signals, which read every stored hand of a period, run on a thread of their
own so the writer is never held up. Every action -- a case opened, a mute, a
void -- is chained in the audit log with who, why and what it touched, after
it succeeded. Play history is never edited: a void is a new, reversing ledger
transfer; a renamed player keeps their old name in every old record.

SEC-2: the security team sees every card, but only of hands that have ended.
A hand still being played is refused, and searches find only ended hands.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from twisted.internet import defer, threads
from twisted.internet.interfaces import IReactorTime
from twisted.python.threadpool import ThreadPool

from pokerroom import players
from pokerroom.bus import Bus, NoResponder
from pokerroom.bus.records import IdleRead, Rename, VoidWinnings, WalletRead, WhereRead
from pokerroom.bus.subjects import (
    CASH_TABLES_WHERE,
    SECURITY_IDLE,
    SECURITY_RENAME,
    SECURITY_VOID,
    TOURNAMENTS_PLAYING,
    WALLET_BALANCE,
    table_command,
)
from pokerroom.errors import RuleViolation
from pokerroom.money.accounts import cash
from pokerroom.players import nickname_key
from pokerroom.poker import events as he
from pokerroom.poker.history.ohh import to_ohh
from pokerroom.protocol.schema import Request, ok
from pokerroom.security.signals import MAX_IDENTITY_HOLDERS, PairSignals
from pokerroom.shell.every_node import AT_TABLES, ask_every_node
from pokerroom.shell.hand_export import pokerstars_text, tournament_prices
from pokerroom.shell.in_play import ask_in_play
from pokerroom.shell.security_moves import busy, transfer_dict
from pokerroom.shell.session_watch import ACCOUNT_CLOSED, CLOSED_REASON
from pokerroom.store.security_records import unpack_facts
from pokerroom.table.commands import SitOut

if TYPE_CHECKING:
    from pokerroom.gateway.routes import Gateway
    from pokerroom.security.moderation import Moderation
    from pokerroom.shell.accounts import Accounts
    from pokerroom.shell.display_names import DisplayNames
    from pokerroom.shell.histories import Histories
    from pokerroom.shell.recorder import Recorder
    from pokerroom.store.room_store import RoomStore

SHARED_HANDS = 200


def _hand_summary(hand: Any, who: list[str]) -> dict:
    return {"hand_id": hand.hand_id, "table": hand.table_id, "tournament": hand.tournament,
            "started_at": hand.started_at, "ended_at": hand.ended_at, "players": who, "void": hand.void}


def _chat_line(line: Any) -> dict:
    return {"id": line.id, "table": line.table_id, "hand_id": line.hand_id, "player": line.player_id,
            "text": line.text, "at": line.at, "blocked": line.blocked}


def _audit(record: Any) -> dict:
    return {"id": record.id, "kind": record.kind, "data": record.data, "at": record.at, "hash": record.hash}


class SecurityDesk:
    """The security team's requests; built once by the composition root with what they use. The cash tables, the
    wallet and the places in play are the table process's: asked on the bus."""

    def __init__(self, *, store: RoomStore, reactor: IReactorTime, bus: Bus, recorder: Recorder,
                 account_rules: players.AccountRules, moderation: Moderation, display_names: DisplayNames,
                 gateway: Gateway, accounts: Accounts, histories: Histories,
                 in_thread: Callable[..., defer.Deferred] | None = None) -> None:
        self.store = store                                  # read through the writer's queue, or on a thread
        self.reactor = reactor
        self.bus = bus
        self.recorder = recorder                            # the writer, and the audit log (SEC-4)
        self.account_rules = account_rules                  # a new nickname's rules (AC-3)
        self.moderation = moderation                        # the standing decisions: mutes, freezes, links
        self.display_names = display_names                  # AC-4: the shown names
        self.gateway = gateway                              # the sessions by player, ended on a ban or a rename
        self.accounts = accounts                            # the end of a session's identity
        self.histories = histories                          # a player's escrows, for their ledger
        self.in_thread = in_thread or self._signals_thread  # a test runs the signals in line
        self._pool: ThreadPool | None = None

    # ------------------------------------------------------------------ plumbing

    @staticmethod
    def _verify(session: Any) -> str:
        if session.role not in players.SECURITY_ROLES:
            raise RuleViolation("forbidden", "only the security team can do that", "SEC-4")
        return session.player_id

    def _looked(self, session: Any, what: str, **details: Any) -> None:
        """SEC-4: searches and replays are logged too -- who looked at which cards, and when."""
        by = self._verify(session)
        self.recorder.audit("security_review", what=what, by=by,
                        **{k: v for k, v in details.items() if v is not None})

    def _signals_thread(self, work: Callable[[], dict]) -> defer.Deferred:
        """The signals read every hand of a period: on a thread of their own, one request at a time, never
        holding up the writer or the logins' password hashing."""
        if self._pool is None:
            self._pool = ThreadPool(minthreads=1, maxthreads=1, name="pokerroom-signals")
            self._pool.start()
            self.reactor.addSystemEventTrigger("before", "shutdown", self._pool.stop)
        return threads.deferToThreadPool(self.reactor, self._pool, work)

    def _read(self, function: Callable, *args: Any, **kwargs: Any) -> defer.Deferred:
        return self.recorder.write(lambda: function(*args, **kwargs), quiet=False)

    def _acted(self, by: str, action: str, reason: str, **details: Any) -> None:
        """SEC-4: every action is itself logged, once it has succeeded."""
        self.recorder.audit("security_action", action=action, by=by, reason=reason, **details)

    def _now(self) -> float:
        return self.reactor.seconds()

    def _account(self, player: str) -> defer.Deferred:
        def found(view: dict | None) -> dict:
            if view is None:
                raise RuleViolation("no_such_player", f"there is no player {player}", "SEC-4")
            return view
        return self._read(self.store.security.account_view, nickname_key(player)).addCallback(found)

    # ------------------------------------------------------------------ review (SEC-4)

    def _on_security_hands(self, session: Any, request: Request, player: str | None = None, table: str | None = None,
                           tournament: str | None = None, since: int | None = None, until: int | None = None,
                           limit: int = 50) -> defer.Deferred:
        self._looked(session, "hands", player=player, table=table, tournament=tournament, since=since, until=until)
        d = self._read(self.store.security.search_hands, player, table, tournament, since, until, limit)
        return d.addCallback(lambda found: ok(request, hands=[_hand_summary(h, who) for h, who in found]))

    def _on_security_hand(self, session: Any, request: Request, hand_id: str) -> defer.Deferred:
        self._looked(session, "hand", hand_id=hand_id)

        def shape(hand: Any) -> defer.Deferred:
            if hand is None:
                raise RuleViolation("no_such_hand", f"there is no hand {hand_id}", "SEC-4")
            if hand.ended_at is None:
                raise RuleViolation("hand_in_progress", f"hand {hand_id} is still being played: its cards are "
                                                        "shown once it ends", "SEC-2")
            out = {**_hand_summary(hand, list(hand.start_stacks)), "start_stacks": hand.start_stacks,
                   "end_stacks": hand.end_stacks, "rake": hand.rake, "events": he.upgrade_stored(hand.events or []),
                   "times": hand.event_times or []}
            lines = self._read(self.store.security.search_chat, hand_id=hand_id, limit=500)
            return lines.addCallback(lambda chat: ok(request, hand={**out, "chat": [_chat_line(c)
                                                                                    for c in reversed(chat)]}))

        return self._read(self.store.security.hand, hand_id).addCallback(shape)

    def _on_security_chat(self, session: Any, request: Request, player: str | None = None, table: str | None = None,
                          text: str | None = None, since: int | None = None, until: int | None = None,
                          limit: int = 100) -> defer.Deferred:
        self._looked(session, "chat", player=player, table=table, text=text, since=since, until=until)
        d = self._read(self.store.security.search_chat, player, table, text, since, until, limit)
        return d.addCallback(lambda lines: ok(request, lines=[_chat_line(c) for c in lines]))

    def _signals(self, since: int | None, until: int | None) -> PairSignals:
        """Every stored hand of the period through the signals (on a thread of its own: it may take seconds)."""
        signals = PairSignals()
        for data in self.store.security.iter_hand_facts(since, until):
            signals.add(unpack_facts(data))
        for player, identities in self.store.security.identities(since).items():
            signals.add_identities(player, identities)
        return signals

    def _on_security_pairs(self, session: Any, request: Request, since: int | None = None,
                           until: int | None = None, limit: int = 50) -> defer.Deferred:
        self._looked(session, "pairs", since=since, until=until)

        def work() -> dict:
            signals = self._signals(since, until)
            entries = signals.rank(limit)
            return ok(request, pairs=[e.to_wire() for e in entries],
                      rings=[r.to_wire() for r in signals.rings()])

        return self.in_thread(work)

    def _on_security_pair(self, session: Any, request: Request, a: str, b: str, since: int | None = None,
                          until: int | None = None) -> defer.Deferred:
        self._looked(session, "pair", players=[a, b], since=since, until=until)
        pair = tuple(sorted((a, b)))

        def work() -> dict:
            signals = self._signals(since, until)
            try:
                entry = signals.entry(a, b)
            except KeyError:                                # they never met at a table, nor share anything
                entry = None
            identities = self.store.security.identities(since)
            mine, theirs = identities.get(a, set()), identities.get(b, set())
            shared = signals.shared_identities(a, b)            # what the shared-identity signal read
            hands = self.store.security.hands_together(a, b, SHARED_HANDS)
            tables = {h.table_id for h in self.store.security.hands_by_id(hands)}
            chat = [c for c in self.store.security.search_chat(players=[a, b], limit=500) if c.table_id in tables]
            report = {"players": list(pair), "score": entry.score if entry else 0.0,
                      "signals": entry.to_wire()["signals"] if entry else {}, "shared_hands": hands,
                      "identities": {a: sorted(mine), b: sorted(theirs), "shared": sorted(shared),
                                     "holders": shared,
                                     "too_common": [i for i, n in shared.items() if n > MAX_IDENTITY_HOLDERS]},
                      "chat": [_chat_line(c) for c in chat]}
            return ok(request, report=report)

        return self.in_thread(work)

    def _on_security_player(self, session: Any, request: Request, player: str) -> defer.Deferred:
        self._looked(session, "player", player=player)
        now = self._now()

        def more(view: dict) -> defer.Deferred:
            name = view["nickname"]

            def gather() -> dict:
                return {**view,
                        "muted": [{"table": m.table_id, "until": m.until, "reason": m.reason}
                                  for m in self.store.security.active_mutes(now, name)],
                        "restrictions": [{"player": r.b if r.a == name else r.a, "reason": r.reason}
                                         for r in self.store.security.restrictions(name)],
                        "connections": [{"ip": c.ip, "device": c.device_id, "connected_at": c.connected_at,
                                         "disconnected_at": c.disconnected_at}
                                        for c in self.store.accounts.connections_of(name)[-50:]],
                        "aliases": self.store.security.aliases_of(name)}

            def balance(out: dict) -> defer.Deferred:       # the wallet is the table process's: asked
                held = self.bus.request(WALLET_BALANCE, WalletRead(name))
                return held.addCallback(lambda wallet: ok(request, player={**out, "balance": wallet["balance"]}))

            return self._read(gather).addCallback(balance)

        return self._account(player).addCallback(more)

    def _on_security_ledger(self, session: Any, request: Request, player: str, limit: int = 50) -> defer.Deferred:
        self._looked(session, "ledger", player=player)
        d = self.histories.escrows(player)
        d.addCallback(lambda escrows: self._read(self.store.ledger.transfers_touching, [cash(player), *escrows], limit))
        return d.addCallback(lambda transfers: ok(request, transfers=[transfer_dict(t) for t in transfers]))

    def _on_security_audit(self, session: Any, request: Request, kind: str | None = None, player: str | None = None,
                           limit: int = 100) -> defer.Deferred:
        self._verify(session)
        d = self._read(self.store.security.recent_audit, limit, kind, player)
        return d.addCallback(lambda records: ok(request, records=[_audit(r) for r in records]))

    # ------------------------------------------------------------------ cases (SEC-4)

    def _on_security_cases(self, session: Any, request: Request, state: str | None = None) -> defer.Deferred:
        self._verify(session)
        d = self._read(self.store.security.cases, state)
        return d.addCallback(lambda cases: ok(request, cases=[self._case(c) for c in cases]))

    @staticmethod
    def _case(case: Any) -> dict:
        return {"id": case.id, "title": case.title, "players": case.players, "state": case.state,
                "opened_by": case.opened_by, "opened_at": case.opened_at, "decision": case.decision,
                "decided_by": case.decided_by, "decided_at": case.decided_at}

    def _found_case(self, case_id: int) -> defer.Deferred:
        def check(found: Any) -> Any:
            if found is None:
                raise RuleViolation("no_such_case", f"there is no case {case_id}", "SEC-4")
            return found
        return self._read(self.store.security.case, case_id).addCallback(check)

    def _on_security_case(self, session: Any, request: Request, case: int) -> defer.Deferred:
        self._verify(session)

        def shape(found: Any) -> defer.Deferred:
            row, hands, notes = found
            actions = self._read(self.store.security.recent_audit, 500, "security_action")
            return actions.addCallback(lambda records: ok(request, case={
                **self._case(row), "hands": hands,
                "notes": [{"by": n.by, "text": n.text, "at": n.at} for n in notes],
                "actions": [_audit(r) for r in records if r.data.get("case") == case]}))

        return self._found_case(case).addCallback(shape)

    def _on_security_case_open(self, session: Any, request: Request, title: str, players: list[str],
                               reason: str) -> defer.Deferred:
        by = self._verify(session)
        names = list(dict.fromkeys(players))

        def known(views: dict) -> defer.Deferred:
            missing = [name for name in names if views.get(nickname_key(name)) is None]
            if missing:
                raise RuleViolation("no_such_player", f"there is no player {missing[0]}", "SEC-4")
            named = [views[nickname_key(name)]["nickname"] for name in names]
            return self._read(self.store.security.open_case, title, named, by, self._now())

        d = self._read(lambda: {nickname_key(n): self.store.security.account_view(nickname_key(n)) for n in names})
        d.addCallback(known)

        def opened(case_id: int) -> dict:
            self._acted(by, "case_open", reason, case=case_id, title=title, players=players)
            return ok(request, case=case_id)

        return d.addCallback(opened)

    def _on_security_case_note(self, session: Any, request: Request, case: int, text: str) -> defer.Deferred:
        by = self._verify(session)
        d = self._read(self.store.security.note_case, case, by, text, self._now())
        return d.addCallback(lambda _: self._acted(by, "case_note", "note", case=case, text=text)).addCallback(
            lambda _: ok(request))

    def _on_security_case_attach(self, session: Any, request: Request, case: int, hand_id: str) -> defer.Deferred:
        by = self._verify(session)
        d = self._read(self.store.security.attach_hand, case, hand_id, by, self._now())
        return d.addCallback(lambda _: self._acted(by, "case_attach", "evidence", case=case, hand_id=hand_id)) \
            .addCallback(lambda _: ok(request))

    def _on_security_case_decide(self, session: Any, request: Request, case: int, decision: str,
                                 reason: str) -> defer.Deferred:
        by = self._verify(session)
        d = self._read(self.store.security.decide_case, case, decision, by, self._now())
        return d.addCallback(lambda _: self._acted(by, "case_decide", reason, case=case, decision=decision)) \
            .addCallback(lambda _: ok(request))

    def _on_security_export(self, session: Any, request: Request, case: int, format: str) -> defer.Deferred:  # noqa: A002
        self._looked(session, "export", case=case, format=format)

        def export(found: Any) -> defer.Deferred:
            return self._read(read, found[1]).addCallback(shape)

        def read(hand_ids: list) -> tuple[list, dict]:      # the hands, and their tournaments' prices
            hands = self.store.security.hands_by_id(hand_ids)
            return hands, tournament_prices(self.store, (h.tournament for h in hands)) if format == "pokerstars" else {}

        def shape(found: tuple[list, dict]) -> dict:
            hands, prices = found
            ended = [h for h in hands if h.ended_at is not None]
            histories = [he.events_from_stored(h.events) for h in ended]
            if format == "pokerstars":                  # every card; numbered as the player's own export is
                text = "\n\n".join(pokerstars_text(h, events, prices) or "" for h, events in zip(ended, histories,
                                                                                                strict=True))
                name = f"case-{case}.txt"
            else:
                text = "\n\n".join(json.dumps(to_ohh(events)) for events in histories)
                name = f"case-{case}.ohh"
            return ok(request, text=text, filename=name, hands=len(histories))

        return self._found_case(case).addCallback(export)

    # ------------------------------------------------------------------ actions

    def _on_security_mute(self, session: Any, request: Request, player: str, reason: str, table: str | None = None,
                          minutes: int | None = None) -> defer.Deferred:
        """HR-CHAT-3: at one table or room-wide, for a while or for good; logged with its reason."""
        by = self._verify(session)
        now = self._now()
        until = None if minutes is None else now + minutes * 60.0

        def mute(view: dict) -> defer.Deferred:
            name = view["nickname"]
            self.moderation.mute(name, table, until, reason)
            self._acted(by, "mute", reason, player=name, table=table, until=until)
            return self._read(self.store.security.add_mute, name, table, until, reason, by, now)

        return self._account(player).addCallback(mute).addCallback(lambda _: ok(request))

    def _on_security_unmute(self, session: Any, request: Request, player: str, reason: str) -> defer.Deferred:
        by = self._verify(session)

        def unmute(view: dict) -> defer.Deferred:
            self.moderation.unmute(view["nickname"])
            self._acted(by, "unmute", reason, player=view["nickname"])
            return self._read(self.store.security.lift_mutes, view["nickname"], self._now())

        return self._account(player).addCallback(unmute).addCallback(lambda _: ok(request))

    def _on_security_freeze(self, session: Any, request: Request, player: str, on: bool,
                            reason: str) -> defer.Deferred:
        """No new seat, buy-in or tournament entry while frozen; seats already taken sit out after the hand."""
        by = self._verify(session)

        def freeze(view: dict) -> defer.Deferred:
            name = view["nickname"]
            if on:
                self.moderation.freeze(name)
                self._sit_out_everywhere(name)
            else:
                self.moderation.unfreeze(name)
            self._acted(by, "freeze" if on else "unfreeze", reason, player=name)
            return self._read(self.store.accounts.update_account, nickname_key(name), frozen=on)

        return self._account(player).addCallback(freeze).addCallback(lambda _: ok(request))

    def _sit_out_everywhere(self, player: str) -> defer.Deferred:
        """At every cash table the player sits at, sitting out after the hand: where is asked of the tables'
        host (``tables.where``), and each sit-out is a command sent as a request (``table.<id>.command``)."""
        bus = self.bus

        def where(at: dict) -> defer.Deferred:
            return defer.DeferredList([bus.request(table_command(table_id), SitOut(player)).addErrback(
                lambda failure: failure.trap(RuleViolation, NoResponder)) for table_id in at["seated"]])
                                                            # already sitting out, or closed since

        return ask_every_node(bus, CASH_TABLES_WHERE, WhereRead(player), AT_TABLES).addCallback(where)

    def _on_security_ban(self, session: Any, request: Request, player: str, reason: str) -> defer.Deferred:
        """The account is closed: its sessions end now, its tokens resume nothing, it can never log in again.

        Sessions of the account in other processes, or logging in meanwhile, end at the rooms' next look at
        the account changes (STAFF-3).
        """
        by = self._verify(session)

        def ban(view: dict) -> defer.Deferred:
            name = view["nickname"]
            self._acted(by, "ban", reason, player=name)
            self._end_sessions(name, ACCOUNT_CLOSED, CLOSED_REASON)
            return self._read(self.store.sessions.close_account, nickname_key(name), self._now())

        return self._account(player).addCallback(ban).addCallback(lambda _: ok(request))

    def _end_sessions(self, player: str, code: int, reason: str) -> None:
        session = self.gateway.by_player.get(player)
        if session is not None:
            connection = session.connection
            self.accounts.end_identity(session)
            if connection is not None:
                connection.close(code, reason)

    def _on_security_restrict(self, session: Any, request: Request, a: str, b: str, reason: str) -> defer.Deferred:
        by = self._verify(session)
        if nickname_key(a) == nickname_key(b):
            raise RuleViolation("same_player", "a restriction links two different accounts", "SEC-4")

        def restrict(first: str, second: str) -> defer.Deferred:
            self.moderation.link(first, second)
            self._acted(by, "restrict", reason, players=[first, second])
            return self._read(self.store.security.add_restriction, first, second, reason, by, self._now())

        d = self._account(a).addCallback(lambda one: self._account(b).addCallback(
            lambda other: restrict(one["nickname"], other["nickname"])))
        return d.addCallback(lambda _: ok(request))

    def _on_security_verify_identity(self, session: Any, request: Request, player: str, real_name: str,
                                     reason: str) -> defer.Deferred:
        """AC-4: the player may show this name from now on (``real_name``)."""
        by = self._verify(session)

        def verify(view: dict) -> defer.Deferred:
            self._acted(by, "verify_identity", reason, player=view["nickname"], real_name=real_name)
            return self._read(self.store.accounts.update_account, nickname_key(view["nickname"]),
                              verified_name=real_name)

        return self._account(player).addCallback(verify).addCallback(lambda _: ok(request))

    def _on_security_reset_nickname(self, session: Any, request: Request, player: str, nickname: str,
                                    reason: str) -> defer.Deferred:
        """AC-3: only the security team renames, and only an account idle everywhere (freeze it first).

        The account, its wallet, its mutes and restrictions move to the new name in one transaction; the old
        name stays in every hand, chat line and transfer, and is never given to anyone else.
        """
        by = self._verify(session)
        players.check_nickname(nickname, self.account_rules)
        key = nickname_key(nickname)
        if key == nickname_key(player):
            raise RuleViolation("same_nickname", "that is the account's nickname already", "AC-3")

        def free(view: dict) -> defer.Deferred:
            old = view["nickname"]
            accounts = self.store.accounts
            d = self._idle(old)
            d.addCallback(lambda _: self._read(lambda: accounts.find_account(key) is None
                                               and not accounts.name_was_used(key)))
            return d.addCallback(lambda available: rename(old, available))

        def rename(old: str, available: bool) -> defer.Deferred:
            if not available:
                raise RuleViolation("nickname_taken", f"the nickname {nickname} is taken", "AC-3")
            return self._no_entries(old).addCallback(lambda _: move(old))   # still idle after the read

        def move(old: str) -> defer.Deferred:              # the tables: checked idle again by the move itself
            self._end_sessions(old, 4004, "nickname reset: log in with your new nickname")
            moved = self.bus.request(SECURITY_RENAME, Rename(old, nickname, key, reason, by, self._now()))
            return moved.addCallback(lambda _: renamed(old))

        def renamed(old: str) -> dict:
            self._end_sessions(old, 4004, "nickname reset: log in with your new nickname")   # a login in flight
            self.moderation.renamed(old, nickname)
            self.display_names.renamed(old, nickname)
            self._acted(by, "reset_nickname", reason, player=old, nickname=nickname)
            return ok(request, nickname=nickname)

        return self._account(player).addCallback(free)

    def _idle(self, player: str) -> defer.Deferred:
        """Fires once nothing of the player's stays behind under the old name: no tournament entry (asked of the
        hall), no seat, place in a queue, or money anywhere but the wallet (asked of the table process,
        ``security.idle``); fails ``player_busy`` if not (AC-3)."""
        return self._no_entries(player).addCallback(   # every node: a refusal of any decides
            lambda _: ask_every_node(self.bus, SECURITY_IDLE, IdleRead(player), lambda answers: None,
                                     whole=True))

    def _no_entries(self, player: str) -> defer.Deferred:
        """Fires once the hall says the player has no tournament entry (``tournaments.playing``; a room without
        the hall has none), fails ``player_busy`` if they have (AC-3)."""
        def entered(playing: bool) -> None:
            if playing:
                raise busy(player, "is in a tournament")

        return ask_in_play(self.bus, TOURNAMENTS_PLAYING, player, absent=False).addCallback(entered)

    def _on_security_void(self, session: Any, request: Request, player: str, hands: list[str], reason: str,
                          case: int | None = None) -> defer.Deferred:
        """AC-7: reversing transfers, one per hand, from the player's wallet to those who lost to them -- worked out,
        made and logged where the money is, asked of the table process (``security.void``)."""
        by = self._verify(session)
        asked = VoidWinnings(player, tuple(dict.fromkeys(hands)), by, reason, case)
        return self.bus.request(SECURITY_VOID, asked).addCallback(
            lambda voided: ok(request, transfers=voided["transfers"]))

    def _on_real_name(self, session: Any, request: Request, on: bool) -> defer.Deferred:
        """AC-4: a player whose identity the security team verified may show their real name instead."""
        player = session.player_id

        def switch(view: dict) -> defer.Deferred:
            if on and not view["verified_name"]:
                raise RuleViolation("not_verified", "the security team has not verified your identity yet", "AC-4")
            if on:
                self.display_names.show(player, view["verified_name"])
            else:
                self.display_names.hide(player)
            d = self._read(self.store.accounts.update_account, nickname_key(player), show_real_name=on)
            return d.addCallback(lambda _: ok(request, name=view["verified_name"] if on else player))

        return self._account(player).addCallback(switch)
