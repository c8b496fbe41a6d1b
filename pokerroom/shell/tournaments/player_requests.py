"""The players' tournament requests: the lobby's lists, entering and leaving, playing, staking and deals.

Each request checks what only the shell knows (who asks, whether they may
play: the room's one check, STAFF-2), then sends the director's command
as a record (:mod:`tournament.commands`) on ``tournament.<id>.command``, which the
hall answers through its one command path; an answer that came in the same call
(the in-process bus) is handed back as a dict, as cash play does.
"""

from __future__ import annotations

from dataclasses import asdict
from itertools import islice
from typing import TYPE_CHECKING, Any

from pokerroom.errors import RuleViolation
from pokerroom.protocol.schema import Request, ok
from pokerroom.shell.cash_play import answered
from tournament import commands as tc
from tournament import director as td
from tournament.structure import TournamentSpec

if TYPE_CHECKING:
    from pokerroom.shell.tournaments.hall import TournamentHall

SHOWN = 200                 # standings and finishers on an event's page: the top of a field, not all of it


def _structure(spec: TournamentSpec) -> dict:
    """What a player reads of an event's structure before entering it."""
    return {"levels": [asdict(level) for level in spec.levels], "breaks": [asdict(b) for b in spec.breaks],
            "starting_stack": spec.starting_stack, "table_size": spec.table_size,
            "late_registration_levels": spec.late_registration_levels, "re_entries": spec.re_entries,
            "rebuys": spec.rebuys, "add_on_stack": spec.add_on_stack, "deals": spec.deals,
            "satellite_target": spec.satellite_target}


class PlayerRequests:
    def __init__(self, hall: TournamentHall) -> None:
        self.hall = hall
        self.room = hall.room
        self.offers: dict[tuple[str, str], tuple[int, int]] = {}    # (tournament, seller) -> (percent, markup %)

    def forget(self, tid: str) -> None:
        for key in [k for k in self.offers if k[0] == tid]:
            del self.offers[key]

    def _ask(self, tournament: str, command: tc.TournamentCommand, then: Any) -> Any:
        """``then`` of the hall's answer to ``command``: at once when it came in the same call, else a Deferred."""
        return answered(self.hall.ask(tournament, command), tournament, then)

    def _with_balance(self, request: Request, player: str) -> Any:
        return lambda _: ok(request, balance=self.room.balance(player))

    # ------------------------------------------------------------------ the lobby

    def _on_tournament_list(self, session: Any, request: Request) -> dict:
        """Every tournament's summary, with ``registered``: whether the asker has an entry in it now."""
        player = session.player_id
        return ok(request, tournaments=[{**self.hall.summary(d), "registered": player in d.entries}
                                        for d in self.hall.directors.values()])

    def _on_tournament_details(self, session: Any, request: Request, tournament: str) -> dict:
        """The event's page: the biggest stacks and the asker's rank, not the whole field (a field of 100,000
        is kept in chip order as hands end: :mod:`tournament.standings`)."""
        d = self.hall.director(tournament)
        spec = d.spec
        rank = None
        if d.state == td.RUNNING:
            kept = d.standings
            top = kept.top(SHOWN)
            rank, average = kept.rank(session.player_id), kept.average
        else:
            top = [(p, spec.starting_stack) for p in islice(d.entries, SHOWN)]
            average = spec.starting_stack if d.entries and d.state == td.REGISTERING else 0
        standings = [{"player": p, "chips": chips, "table": d.entries[p].table} for p, chips in top]
        finished = [{"player": e.player, "places": list(e.place)} for e in d.eliminations.busted[-SHOWN:] if e.place]
        return ok(request, tournament=self.hall.summary(d), structure=_structure(spec),
                  prizes=list(d.eliminations.provisional_prizes()), prizes_fixed=d.eliminations.prizes is not None,
                  standings=standings,
                  players_left=len(d.entries), average_stack=average, rank=rank,
                  finished=finished, tables={t.id: {"seats": {str(s): p for s, p in t.seats.items()},
                                                    "stacks": dict(t.stacks), "in_hand": t.in_hand}
                                             for t in _tables_shown(d, session.player_id)})

    def _on_tournament_subscribe(self, session: Any, request: Request, tournament: str, on: bool) -> dict:
        self.hall.director(tournament)
        self.hall.feed.subscribe(tournament, session, on)
        return ok(request)

    # ------------------------------------------------------------------ entering and leaving

    def _on_tournament_register(self, session: Any, request: Request, tournament: str) -> dict:
        d = self.hall.director(tournament)
        self.room.may_play(session)                    # the one may-play check (STAFF-2)
        self.hall.enter(d, session.player_id)
        self.hall.invitations.book.drop(tournament, session.player_id)   # entered on their own: nothing to answer
        return ok(request, balance=self.room.balance(session.player_id))

    def _on_tournament_unregister(self, session: Any, request: Request, tournament: str) -> Any:
        command = tc.Unregister(session.player_id, self.hall.reactor.seconds())
        return self._ask(tournament, command, self._with_balance(request, session.player_id))

    def _on_tournament_rebuy(self, session: Any, request: Request, tournament: str) -> Any:
        self.room.may_play(session)
        command = tc.Rebuy(session.player_id, self.room.balance(session.player_id))
        return self._ask(tournament, command, self._with_balance(request, session.player_id))

    def _on_tournament_add_on(self, session: Any, request: Request, tournament: str) -> Any:
        self.room.may_play(session)
        command = tc.AddOn(session.player_id, self.room.balance(session.player_id))
        return self._ask(tournament, command, self._with_balance(request, session.player_id))

    # ------------------------------------------------------------------ play

    def _on_tournament_act(self, session: Any, request: Request, tournament: str, action: str, decision: str,
                           to: int | None = None) -> Any:
        return self._ask(tournament, tc.Act(session.player_id, action, to, decision), lambda _: ok(request))

    def _on_stake_offer(self, session: Any, request: Request, tournament: str, percent: int,
                        markup_percent: int) -> dict:
        d = self.hall.director(tournament)
        if session.player_id not in d.entries or d.state != td.REGISTERING:
            raise RuleViolation("not_registered", "shares are offered after registering, before the start",
                                "TR-STAKE-1")
        self.offers[(tournament, session.player_id)] = (percent, markup_percent)
        self.hall.run(d, [])
        return ok(request)

    def _on_stake_buy(self, session: Any, request: Request, tournament: str, seller: str, percent: int) -> Any:
        d = self.hall.director(tournament)
        self.room.may_play(session)                    # buying action is playing too (STAFF-2)
        seller = self.hall.entrant(d, seller)
        offered = self.offers.get((tournament, seller))
        if offered is None or percent > offered[0]:
            raise RuleViolation("no_offer", f"{seller} does not offer {percent}% of their action", "TR-STAKE-1")
        command = tc.SellShares(seller, session.player_id, percent, offered[1], self.room.balance(session.player_id))

        def sold(_: dict) -> dict:
            self.offers[(tournament, seller)] = (offered[0] - percent, offered[1])
            return ok(request, balance=self.room.balance(session.player_id))

        return self._ask(tournament, command, sold)

    def _on_deal_propose(self, session: Any, request: Request, tournament: str, kind: str,
                         left_to_play_for: int = 0) -> Any:
        return self._ask(tournament, tc.ProposeDeal(session.player_id, kind, left_to_play_for), lambda _: ok(request))

    def _on_deal_answer(self, session: Any, request: Request, tournament: str, accept: bool) -> Any:
        return self._ask(tournament, tc.AnswerDeal(session.player_id, accept), lambda _: ok(request))


def _tables_shown(d: td.Director, player: str | None) -> list:
    """The first :data:`SHOWN` tables and the asker's own: anyone may ask, and a field of 100,000 sits at
    11,000 tables -- every one of them in each answer would hold the reactor for every asker."""
    tables = list(islice(d.tables.values(), SHOWN))
    entry = d.entries.get(player) if player is not None else None
    own = d.tables.get(entry.table) if entry is not None and entry.table is not None else None
    if own is not None and own not in tables:
        tables.append(own)
    return tables
