"""A player's own limits (AC-5): self-exclusion, a deposit limit, a reminder of the time played."""

from __future__ import annotations

from functools import partial
from typing import Any

from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime

from pokerroom import players
from pokerroom.bus import Bus
from pokerroom.bus.records import SessionEvent, SessionGone
from pokerroom.bus.subjects import SESSION_EVENTS
from pokerroom.gateway.sessions import Session
from pokerroom.protocol.schema import Request, ok
from pokerroom.shell.recorder import Recorder

DAY = 86_400.0


class ResponsibleGaming:
    def __init__(self, reactor: IReactorTime, bus: Bus, recorder: Recorder) -> None:
        self.reactor = reactor
        self.recorder = recorder
        # player -> (session id, epoch, pending call): the reminder runs for that login on that connection only
        self.reminders: dict[str, tuple[str, int, Any]] = {}
        bus.subscribe(SESSION_EVENTS, self._session_event)

    def _on_self_exclude(self, session: Session, request: Request, days: int | None) -> defer.Deferred:
        now = self.reactor.seconds()
        until = float("inf") if days is None else now + days * DAY
        until = max(until, session.excluded_until or 0.0)             # it cannot be shortened or undone
        session.excluded_until = until
        d = self.recorder.write(partial(self.recorder.store.accounts.update_account,
                                        players.nickname_key(session.player_id), excluded_until=until), quiet=False)
        return d.addCallback(lambda _: ok(request, until=None if until == float("inf") else until))   # null: for good

    def _on_deposit_limit(self, session: Session, request: Request, amount: int | None) -> defer.Deferred:
        """Stored with the account, which every deposit reads afresh (AC-5): no session keeps a copy."""
        d = self.recorder.write(partial(self.recorder.store.accounts.update_account,
                                        players.nickname_key(session.player_id), deposit_limit=amount), quiet=False)
        return d.addCallback(lambda _: ok(request))

    def _on_session_reminder(self, session: Session, request: Request, minutes: int | None) -> dict:
        player = session.player_id
        self._stop(player)
        if minutes is not None:
            key = (session.id, session.epoch)

            def remind() -> None:
                played = (self.reactor.seconds() - session.logged_in_at) / 60
                session.push({"type": "reminder", "minutes_played": round(played)})
                if session.connection is not None and session.player_id == player:
                    self.reminders[player] = (*key, self.reactor.callLater(minutes * 60, remind))
                else:
                    self.reminders.pop(player, None)

            self.reminders[player] = (*key, self.reactor.callLater(minutes * 60, remind))
        return ok(request)

    def _session_event(self, subject: str, event: SessionEvent) -> None:
        """The login the reminder was set in has ended (disconnected, logged out, taken over): it stops."""
        if isinstance(event, SessionGone) and event.player is not None:
            kept = self.reminders.get(event.player)
            if kept is not None and kept[:2] == (event.session, event.epoch):
                self._stop(event.player)

    def _stop(self, player: str) -> None:
        kept = self.reminders.pop(player, None)
        if kept is not None and kept[2].active():
            kept[2].cancel()
