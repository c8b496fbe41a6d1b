"""The hall's answers to the requests beside it: commands, the lobby's reads, an entry's payment, staking offers.

The players' and directors' requests live in a gateway process and the hall
in a table process (docs/architecture.md), so everything a request needs of
a tournament is asked on the bus and answered here with plain data:
``tournaments.list`` (every event's lobby line), ``tournament.<id>.read`` (an
event's page, a cancellation's refund preview) and ``tournament.<id>.command``
(the director's command records, and the hall's own beside them: an entry
paid, a stake offered or bought, an event edited, an admin's approval of its
guarantee: :mod:`~pokerroom.shell.tournaments.approvals`; a chat line said at a table:
:mod:`~pokerroom.shell.tournaments.table_talk`), and ``tournaments.create``
(a new event, built from a director's words here, where a satellite's target
is known).

Who asks and whether they may -- the directors' role check, the one may-play
check -- stays with the request, which names the asker in the record; a
player or a rogue director can name nobody else. The rules stay with the
director: what is checked here is only the hall's own bookkeeping (the
staking offers). Money is the hall's to read: the funds of an entry, a
rebuy, an add-on or a share bought are read from the wallet here, whatever a
record says (a director trusts the funds it is given, so they never come
from the requester), and the balance after is in the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, replace
from fractions import Fraction
from itertools import islice
from typing import TYPE_CHECKING, Any

from twisted.internet import defer

from pokerroom.bus.records import (
    AnswerInvitation,
    ApproveGuarantee,
    BuyShares,
    ChatRead,
    CreateEvent,
    DetailsRead,
    EditEvent,
    Enter,
    HandBack,
    Invite,
    OfferShares,
    RefundPreviewRead,
    TableChatSaid,
    TournamentsRead,
    Watch,
)
from pokerroom.errors import RuleViolation, handler_for
from pokerroom.money.accounts import cash
from pokerroom.shell.in_turn import then
from pokerroom.shell.tournaments.approvals import approved
from pokerroom.shell.tournaments.director_requests import changes, structure_errors, template_spec
from pokerroom.shell.wallet import Wallet
from tournament import commands as tc
from tournament import director as td
from tournament.registration import chips_payment, share_payment
from tournament.structure import TournamentSpec

if TYPE_CHECKING:
    from pokerroom.shell.tournaments.hall import TournamentHall

SHOWN = 200                 # standings and finishers on an event's page: the top of a field, not all of it
# What ``tournament.<id>.command`` takes of the director's records: a player's and a director's commands (the role
# and may-play checks are the requests'); the timers' are the hall's own, ``Register`` is paid by ``Enter`` and
# ``SellShares`` by ``BuyShares`` (at the offer's markup, not one the buyer names).
REQUESTED = frozenset({tc.Act, tc.MuckChoice, tc.Unregister, tc.Rebuy, tc.AddOn, tc.ProposeDeal, tc.AnswerDeal,
                       tc.Start, tc.Pause, tc.Resume, tc.Cancel, tc.RemovePlayer, tc.MovePlayer, tc.BreakTable,
                       tc.BalanceNow, tc.DecideDeal, tc.Broadcast})
_NAMING_AN_ENTRANT = (tc.RemovePlayer, tc.MovePlayer)     # a director names a player as they typed it (AC-3)
_PAYING = (tc.Rebuy, tc.AddOn)                            # the funds are the wallet's, read here
_BALANCE_AFTER = (tc.Unregister, tc.Rebuy, tc.AddOn)      # answered with the player's cash after it


def structure(spec: TournamentSpec) -> dict:
    """What a player reads of an event's structure before entering it."""
    return {"levels": [asdict(level) for level in spec.levels], "breaks": [asdict(b) for b in spec.breaks],
            "starting_stack": spec.starting_stack, "table_size": spec.table_size,
            "late_registration_levels": spec.late_registration_levels, "re_entries": spec.re_entries,
            "rebuys": spec.rebuys, "rebuy_levels": spec.rebuy_levels, "rebuy_cost": spec.buy_in,
            "add_on_stack": spec.add_on_stack, "add_on_cost": spec.add_on_cost, "deals": spec.deals,
            "satellite_target": spec.satellite_target}


def tables_shown(d: td.Director, player: str | None) -> list:
    """The first :data:`SHOWN` tables and the asker's own: anyone may ask, and a field of 100,000 sits at
    11,000 tables -- every one of them in each answer would hold the reactor for every asker."""
    tables = list(islice(d.tables.values(), SHOWN))
    entry = d.entries.get(player) if player is not None else None
    own = d.tables.get(entry.table) if entry is not None and entry.table is not None else None
    if own is not None and own not in tables:
        tables.append(own)
    return tables


class TournamentAnswers:
    def __init__(self, hall: TournamentHall, wallet: Wallet) -> None:
        self.hall = hall
        self.wallet = wallet
        self.offers: dict[tuple[str, str], tuple[int, int]] = {}    # (tournament, seller) -> (percent, markup %)

    def forget(self, tid: str) -> None:
        for key in [k for k in self.offers if k[0] == tid]:
            del self.offers[key]

    # ------------------------------------------------------------------ reads

    def listed(self, read: TournamentsRead) -> dict:
        """``tournaments.list``: every tournament's summary, with ``registered``: whether the asker has an entry."""
        return {"tournaments": [{**self.hall.summary(d), "registered": read.player in d.entries}
                                for d in self.hall.directors.values()]}

    def read(self, d: td.Director, read: Any) -> dict:
        """``tournament.<id>.read``: an event's page, or what cancelling it now would refund."""
        return handler_for(_READS, read, "a tournament's reads")(self, d, read)

    @staticmethod
    def refunds(d: td.Director, _: RefundPreviewRead) -> dict:
        """What cancelling now would refund each player (TR-REFUND), from the hands' starting stacks."""
        preview = d.refund_preview()
        return {"case": preview.case, "refunds": dict(preview.amounts), "remainder": preview.remainder}

    def details(self, d: td.Director, read: DetailsRead) -> dict:
        """The event's page: the biggest stacks and the asker's rank, not the whole field (a field of 100,000
        is kept in chip order as hands end: :mod:`tournament.standings`)."""
        spec, player = d.spec, read.player
        rank = None
        if d.state == td.RUNNING:
            kept = d.standings
            top = kept.top(SHOWN)
            rank, average = kept.rank(player), kept.average
        else:
            top = [(p, spec.starting_stack) for p in islice(d.entries, SHOWN)]
            average = spec.starting_stack if d.entries and d.state == td.REGISTERING else 0
        standings = [{"player": p, "chips": chips, "table": d.entries[p].table} for p, chips in top]
        finished = [{"player": e.player, "places": list(e.place)} for e in d.eliminations.busted[-SHOWN:] if e.place]
        entry = d.entries.get(player) if player is not None else None
        you = None if entry is None else {"rebuys": entry.rebuys, "add_on": entry.add_on, "table": entry.table}
        return {"tournament": self.hall.summary(d), "structure": structure(spec),
                "prizes": list(d.eliminations.provisional_prizes()), "prizes_fixed": d.eliminations.prizes is not None,
                "standings": standings, "players_left": len(d.entries), "average_stack": average, "rank": rank,
                "you": you, "finished": finished, "tables": {t.id: {"seats": {str(s): p for s, p in t.seats.items()},
                                                        "stacks": dict(t.stacks), "in_hand": t.in_hand}
                                                 for t in tables_shown(d, player)}}

    # ------------------------------------------------------------------ commands

    def commanded(self, d: td.Director, command: Any) -> dict | defer.Deferred:
        """``tournament.<id>.command``: the hall's own records, or a player's or a director's command applied
        through the hall's one path, answered ``{}`` (a cancellation: with the refunds it made, as previewed the
        moment before; unregistering, a rebuy, an add-on: ``{"balance"}`` after it). A refusal is raised to the
        requester, code, rule and amounts kept."""
        kind = type(command)
        if kind not in REQUESTED:
            return handler_for(_OWN, command, "a tournament's requests")(self, d, command)
        if kind in _NAMING_AN_ENTRANT:
            command = replace(command, player=self.hall.entrant(d, command.player))
        answer = self.refunds(d, RefundPreviewRead()) if kind is tc.Cancel else {}
        if kind in _PAYING:                     # the cost taken as the chips are bought (one step, any process;
            leg = chips_payment(d.spec, "rebuy" if kind is tc.Rebuy else "add_on")     # a Deferred off the reactor)
            done = self.wallet.funded(cash(command.player), [leg], d.spec.id,
                                      lambda funds: self.hall.command(self.hall.here(d), replace(command, funds=funds)),
                                      verify=False)
        else:
            done = self.hall.command(d, command)
        if kind in _BALANCE_AFTER:
            return then(done, lambda _: {"balance": self.wallet.balance(command.player)})
        if kind is tc.MovePlayer:               # asked during a hand: queued for its end (TR-PLAY-4)
            return then(done, lambda _: _queued(d, command.player))
        return then(done, lambda _: answer)

    def hand_back(self, d: td.Director, back: HandBack) -> dict:
        """``HandBack``: a hand played away ended (:mod:`~.hands_away`); refused when this hall sends none."""
        if self.hall.away is None:
            raise RuleViolation("no_hand_away", f"table {back.result.table} has no hand {back.result.hand_id} away",
                                "TR-PLAY-4")
        self.hall.away.returned(d, back)
        return {}

    def created(self, event: CreateEvent) -> dict | defer.Deferred:
        """``tournaments.create``: the event built from the director's words and opened by the hall (bounds and
        quota, STAFF-1); a satellite's seats are worth its target's entry (TR-PRIZE-5)."""
        target = None if event.satellite_target is None else self.hall.director(event.satellite_target).spec
        with structure_errors():
            spec = template_spec(event.template, id=event.id, name=event.name, start_at=event.start_at)
            spec = spec.edited(**changes(spec, dict(event.settings), event.game, target))
        d = self.hall.create(spec, event.by)
        return self.hall.answered_here(d, {"tournament": self.hall.summary(d)})

    def edited(self, d: td.Director, edit: EditEvent) -> dict:
        """``EditEvent``: before anyone registers (TR-REG-2), bounded as at creation (STAFF-1); the invitations
        out for it are withdrawn (STAFF-2: what was offered has changed)."""
        if d.state != td.REGISTERING or d.entries:
            raise RuleViolation("already_open", "a tournament is edited before anyone registers", "TR-REG-2")
        with structure_errors():
            spec = d.spec.edited(**changes(d.spec, dict(edit.settings)))
        pending = self.hall.bounds.check(spec)
        reserve = self.hall.reserve(d.spec.id, spec.guarantee - d.spec.guarantee)
        d.registration.edit(spec, pending)
        self.hall.invitations.edited(d)
        self.hall.run(d, reserve)
        return {"tournament": self.hall.summary(d)}

    def entered(self, d: td.Director, enter: Enter) -> dict | defer.Deferred:
        """``Enter``: paid as the hall pays every entry; an invitation to the event has nothing left to answer."""
        def entered(_: object) -> dict:
            self.hall.invitations.book.drop(d.spec.id, enter.player)
            return {"balance": self.wallet.balance(enter.player)}

        return then(self.hall.enter(d, enter.player), entered)

    def watched(self, d: td.Director, watch: Watch) -> dict:
        """``Watch``: the hall's list of the event's watchers (an entrant watching hears each event once)."""
        self.hall.feed.watch(d.spec.id, watch.session, watch.player, watch.on)
        return {}

    def offered(self, d: td.Director, offer: OfferShares) -> dict:
        if offer.seller not in d.entries or d.state != td.REGISTERING:
            raise RuleViolation("not_registered", "shares are offered after registering, before the start",
                                "TR-STAKE-1")
        self.offers[(d.spec.id, offer.seller)] = (offer.percent, offer.markup_percent)
        self.hall.run(d, [])
        return {}

    def bought(self, d: td.Director, bought: BuyShares) -> dict | defer.Deferred:
        """At most what the seller offers, at the offer's markup: the buyer names neither price nor funds."""
        tid = d.spec.id
        seller = self.hall.entrant(d, bought.seller)
        offered = self.offers.get((tid, seller))
        if offered is None or bought.percent > offered[0]:
            raise RuleViolation("no_offer", f"{seller} does not offer {bought.percent}% of their action",
                                "TR-STAKE-1")
        leg = share_payment(d.spec, Fraction(bought.percent), Fraction(offered[1], 100))

        def sold(_: object) -> dict:
            self.offers[(tid, seller)] = (offered[0] - bought.percent, offered[1])
            return {"balance": self.wallet.balance(bought.buyer)}

        bought_ = self.wallet.funded(cash(bought.buyer), [leg], tid, lambda funds: self.hall.command(   # one step,
            self.hall.here(d), tc.SellShares(seller, bought.buyer, bought.percent, offered[1], funds)),  # any process
            verify=False)
        return then(bought_, sold)


def _queued(d: td.Director, player: str) -> dict:
    """A director's move answered: ``{}`` when made now, else the hand it waits for (TR-PLAY-4)."""
    table = d.balancing.waiting_for(player) if d.state == td.RUNNING and player in d.entries else ""
    return {"queued": f"moves when the hand at table {table} ends", "table": table} if table else {}


# The hall's own records on ``tournament.<id>.command`` and ``tournament.<id>.read``, each to the answer that takes it.
_OWN: dict[type, Callable[[TournamentAnswers, td.Director, Any], dict | defer.Deferred]] = {
    Enter: TournamentAnswers.entered, OfferShares: TournamentAnswers.offered, BuyShares: TournamentAnswers.bought,
    EditEvent: TournamentAnswers.edited, Watch: TournamentAnswers.watched,
    Invite: lambda answers, d, invite: answers.hall.invitations.invited(d, invite),
    AnswerInvitation: lambda answers, d, answer: answers.hall.invitations.answered(d, answer),
    ApproveGuarantee: lambda answers, d, asked: approved(answers.hall, d, asked), HandBack: TournamentAnswers.hand_back,
    TableChatSaid: lambda answers, d, said: answers.hall.talk.said(d, said)}
_READS: dict[type, Callable[[TournamentAnswers, td.Director, Any], dict]] = {
    DetailsRead: TournamentAnswers.details, RefundPreviewRead: lambda answers, d, read: answers.refunds(d, read),
    ChatRead: lambda answers, d, read: answers.hall.talk.read(d, read)}
