"""The players' tournament requests: the lobby's lists, entering and leaving, playing, staking and deals.

Each request checks what only the shell knows (who asks, whether they may
play: the room's one check, STAFF-2), then asks the hall on the bus
(:mod:`~pokerroom.shell.tournaments.hall_line`): the director's command as a
record (:mod:`tournament.commands`) on ``tournament.<id>.command``, the hall's
own beside it (an entry paid, a stake offered or bought), and the lobby's
reads on ``tournaments.list`` and ``tournament.<id>.read``. These requests are
on the gateway's side of the process line and hold no director and no
wallet: the hall reads the funds of what is paid and answers the balance
after it. The asker is always the session's player. An answer that came in
the same call (the in-process bus) is handed back as a dict, as cash play
does. Watching an event is asked too (``Watch``: the hall keeps its
watchers), then the connection follows the event's public stream here, and
lets go of it when the hall says the event was retired.
"""

from __future__ import annotations

from typing import Any

from twisted.internet.interfaces import IReactorTime

from pokerroom.bus.records import BuyShares, DetailsRead, Enter, OfferShares, Watch
from pokerroom.bus.subjects import tournament_public
from pokerroom.gateway.routes import Gateway
from pokerroom.protocol.schema import Request, ok
from pokerroom.shell.asked import answered
from pokerroom.shell.play_check import PlayCheck
from pokerroom.shell.tournaments.hall_line import HallLine
from tournament import commands as tc

PUBLIC = frozenset({"tournament_list", "tournament_details", "tournament_subscribe"})   # answered without a login


class PlayerRequests:
    def __init__(self, line: HallLine, reactor: IReactorTime, play_check: PlayCheck, gateway: Gateway) -> None:
        self.line = line                        # every command and read of the hall: a request
        self.reactor = reactor
        self.play_check = play_check            # the one may-play check (STAFF-2)
        self.gateway = gateway                  # the route table, and the connections' streams

    def install(self) -> None:
        self.gateway.serve(self, PUBLIC)
        self.line.on_retired(self._retired)

    def _retired(self, tournament: str) -> None:
        """An event left the hall: no connection follows its stream any more (rare: an hour after it ends)."""
        subject = tournament_public(tournament)
        for session in list(self.gateway.connections):
            self.gateway.unfollow(session, subject)

    def _ask(self, tournament: str, command: Any, then: Any) -> Any:
        """``then`` of the hall's answer to ``command``: at once when it came in the same call, else a Deferred."""
        return answered(self.line.command(tournament, command), tournament, then)

    @staticmethod
    def _with_balance(request: Request) -> Any:
        """The answer with the player's cash after the command, as the hall read it."""
        return lambda paid: ok(request, balance=paid["balance"])

    # ------------------------------------------------------------------ the lobby

    def _on_tournament_list(self, session: Any, request: Request) -> Any:
        """Every tournament's summary, with ``registered``: whether the asker has an entry in it now."""
        return answered(self.line.listed(session.player_id), "", lambda answer: ok(request, **answer))

    def _on_tournament_details(self, session: Any, request: Request, tournament: str) -> Any:
        """The event's page: the biggest stacks and the asker's rank, not the whole field."""
        return answered(self.line.read(tournament, DetailsRead(session.player_id)), tournament,
                        lambda page: ok(request, **page))

    def _on_tournament_subscribe(self, session: Any, request: Request, tournament: str, on: bool) -> Any:
        """The connection follows the event's public stream (or no longer does), once the hall knows it watches."""

        def watching(_: dict) -> dict:
            if on:
                self.gateway.follow(session, tournament_public(tournament))
            else:
                self.gateway.unfollow(session, tournament_public(tournament))
            return ok(request)

        return self._ask(tournament, Watch(session.id, session.player_id, on), watching)

    # ------------------------------------------------------------------ entering and leaving

    def _on_tournament_register(self, session: Any, request: Request, tournament: str) -> Any:
        self.play_check.session(session)                # the one may-play check (STAFF-2)
        return self._ask(tournament, Enter(session.player_id), self._with_balance(request))

    def _on_tournament_unregister(self, session: Any, request: Request, tournament: str) -> Any:
        command = tc.Unregister(session.player_id, self.reactor.seconds())
        return self._ask(tournament, command, self._with_balance(request))

    def _on_tournament_rebuy(self, session: Any, request: Request, tournament: str) -> Any:
        self.play_check.session(session)
        command = tc.Rebuy(session.player_id, 0)       # the funds: the hall reads the wallet
        return self._ask(tournament, command, self._with_balance(request))

    def _on_tournament_add_on(self, session: Any, request: Request, tournament: str) -> Any:
        self.play_check.session(session)
        command = tc.AddOn(session.player_id, 0)       # the funds: the hall reads the wallet
        return self._ask(tournament, command, self._with_balance(request))

    # ------------------------------------------------------------------ play

    def _on_tournament_act(self, session: Any, request: Request, tournament: str, action: str, decision: str,
                           to: int | None = None) -> Any:
        return self._ask(tournament, tc.Act(session.player_id, action, to, decision), lambda _: ok(request))

    def _on_tournament_options(self, session: Any, request: Request, tournament: str, auto_muck: bool) -> Any:
        return self._ask(tournament, tc.MuckChoice(session.player_id, auto_muck), lambda _: ok(request))

    def _on_stake_offer(self, session: Any, request: Request, tournament: str, percent: int,
                        markup_percent: int) -> Any:
        """The asker's own shares, offered (TR-STAKE-1): the hall keeps the offer."""
        return self._ask(tournament, OfferShares(session.player_id, percent, markup_percent), lambda _: ok(request))

    def _on_stake_buy(self, session: Any, request: Request, tournament: str, seller: str, percent: int) -> Any:
        """Shares bought at the offer's markup with the asker's own cash, as the hall reads them (TR-STAKE-1)."""
        self.play_check.session(session)                # buying action is playing too (STAFF-2)
        return self._ask(tournament, BuyShares(seller, session.player_id, percent), self._with_balance(request))

    def _on_deal_propose(self, session: Any, request: Request, tournament: str, kind: str,
                         left_to_play_for: int = 0) -> Any:
        return self._ask(tournament, tc.ProposeDeal(session.player_id, kind, left_to_play_for), lambda _: ok(request))

    def _on_deal_answer(self, session: Any, request: Request, tournament: str, accept: bool) -> Any:
        return self._ask(tournament, tc.AnswerDeal(session.player_id, accept), lambda _: ok(request))
