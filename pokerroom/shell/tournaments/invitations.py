"""A director entering a player, and the player's answer: the hall's side of the invitations (STAFF-2).

``director_add_player`` names a player who may be offline. The request
(:mod:`~pokerroom.shell.tournaments.invitation_requests`, on the gateway's side
of the process line) checks the director's role and the reason, resolves the
name to the stored account (any letter case, AC-3) that may play, and sends
an :class:`~pokerroom.bus.records.Invite` here. Into a free event the player
is entered at once; into a paid one they only get an invitation -- pushed on
their own stream now, again whenever they log in -- and their own
:class:`~pokerroom.bus.records.AnswerInvitation` decides: accepting pays the
entry exactly as registering does (:meth:`TournamentHall.enter`), declining
moves nothing. The bounds and the bookkeeping are the pure
:class:`~tournament.invitations.InvitationBook`; the player's answer is in the
audit log here, the director's command with the request.

Composed by the hall (it owns the tournaments and the one command path), on
its side of the process line: it learns who logs in from the session events,
and pushes to a player's stream whether or not they are connected (the
gateway forwards it to a connection that follows it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pokerroom.bus import Bus
from pokerroom.bus.records import AnswerInvitation, Frame, InvitationsRead, Invite, SessionBack, SessionEvent
from pokerroom.bus.subjects import SESSION_EVENTS, TOURNAMENTS_INVITATIONS, player_stream
from pokerroom.errors import RuleViolation
from pokerroom.shell.every_node import answer_every_gather
from pokerroom.shell.in_turn import then
from pokerroom.shell.recorder import Recorder
from pokerroom.shell.wallet import Wallet
from tournament import commands as tc
from tournament import director as td
from tournament.invitations import Invitation, InvitationBook

if TYPE_CHECKING:
    from pokerroom.shell.tournaments.hall import TournamentHall


class InvitationDesk:
    def __init__(self, hall: TournamentHall, bus: Bus, recorder: Recorder, wallet: Wallet) -> None:
        self.hall = hall
        self.bus = bus                          # the invitations' pushes, and who logs in
        self.recorder = recorder                # the audit chain: the player's answer
        self.wallet = wallet
        self.book = InvitationBook()

    def install(self) -> None:
        answer_every_gather(self.bus, TOURNAMENTS_INVITATIONS, self.listed)     # each node: its events
        self.bus.subscribe(SESSION_EVENTS, self._session_event)

    # ------------------------------------------------------------------ the director

    def invited(self, d: td.Director, invite: Invite) -> dict:
        """``Invite``: into a free event the player is entered; into a paid one they are invited, and only their
        own acceptance pays."""
        player = invite.player
        if player in d.entries:
            raise RuleViolation("already_registered", f"{player} is already in {d.spec.name}", "TR-REG-6")
        if not self.hall.taking_entries(d):
            raise RuleViolation("registration_closed", f"registration for {d.spec.name} is closed", "TR-REG-4")
        if d.awaiting_approval:                         # accepting would be refused: nobody enters it yet
            raise RuleViolation("awaiting_approval", f"{d.spec.name} waits for an admin to approve its guarantee; "
                                "invite players once it is approved", "STAFF-1")
        cost = d.spec.entry_cost
        if cost == 0:                                   # free: nothing of the player's moves
            self.hall.command(d, tc.Register(player, self.wallet.balance(player)))
            return {"player": player, "entered": True, "invited": False, "entry_cost": 0}
        invitation = Invitation(d.spec.id, player, invite.by, invite.reason, self.hall.reactor.seconds(), cost,
                                d.spec)
        self.book.add(invitation)
        self._push(player, {"type": "tournament_invitation", "invitation": invitation.to_wire(d.spec.name)})
        return {"player": player, "entered": False, "invited": True, "entry_cost": cost}

    # ------------------------------------------------------------------ the player

    def listed(self, read: InvitationsRead) -> dict:
        """``tournaments.invitations``: the player's open invitations, what each would cost, from whom and why."""
        return {"invitations": [self._wire(i) for i in self.book.of(read.player)
                                if i.tournament in self.hall.directors]}

    def answered(self, d: td.Director, answer: AnswerInvitation) -> object:
        """``AnswerInvitation``: accepting pays the entry as registering does; declining moves nothing. A record
        for an invitation nobody made is ``no_invitation`` (the book's), before anything moves."""
        player, tournament = answer.player, d.spec.id
        invitation = self.book.get(tournament, player)
        if answer.accept:
            if not invitation.still_offered(d.spec):     # edited since: not what the player was told
                self.book.withdraw_one(invitation)
                raise RuleViolation("invitation_outdated", f"{d.spec.name} was changed after you were invited "
                                    "(its price, stack or structure): the invitation is withdrawn", "STAFF-2")
            entered = self.hall.enter(d, player)        # refused (funds, full, closed): the invitation stays
        else:
            entered = None

        def answered(_: object) -> Any:
            self.book.answered(invitation, answer.accept)
            said = "accepted" if answer.accept else "declined"
            # the event's record, written by the process directing it: fenced by its lease on several processes
            self.recorder.audit_of("tournament", tournament, "tournament_invitation", tournament=tournament,
                                   player=player, by=invitation.by, reason=invitation.reason, answer=said,
                                   entry_cost=invitation.entry_cost)
            self._push(invitation.by, {"type": "tournament_invitation_answered", "tournament": tournament,
                                       "player": player, "answer": said})
            return self.hall.answered_here(d, {"registered": answer.accept, "balance": self.wallet.balance(player)})

        return then(entered, answered)     # an entry's money off the reactor: once it is made

    # ------------------------------------------------------------------ from the hall and the room

    def closed(self, d: td.Director) -> None:
        """After every command: an event no longer taking entries withdraws its invitations, and tells
        their players."""
        if not self.book.open or self.hall.taking_entries(d):
            return
        for invitation in self.book.withdraw(d.spec.id):
            self._push(invitation.player, {"type": "tournament_invitation_withdrawn", "tournament": d.spec.id,
                                           "reason": f"{d.spec.name} no longer takes entries"})
        if d.state in (td.FINISHED, td.CANCELLED):
            self.book.forget(d.spec.id)

    def edited(self, d: td.Director) -> None:
        """Any change to an event withdraws its open invitations: the player accepted an offer, not an event
        (the same total could now go mostly to the house, with another stack or structure)."""
        for invitation in self.book.outdate(d.spec.id):
            self._push(invitation.player, {"type": "tournament_invitation_withdrawn", "tournament": d.spec.id,
                                           "reason": f"{d.spec.name} was changed after you were invited"})

    def _session_event(self, subject: str, event: SessionEvent) -> None:
        """A player who logs in (or resumes) is shown their open invitations again."""
        if isinstance(event, SessionBack):
            for invitation in self.book.of(event.player):
                if invitation.tournament in self.hall.directors:
                    self._push(event.player, {"type": "tournament_invitation", "invitation": self._wire(invitation)})

    def _wire(self, invitation: Invitation) -> dict:
        return invitation.to_wire(self.hall.directors[invitation.tournament].spec.name)

    def _push(self, player: str, message: dict) -> None:
        """On the player's own stream: a connection of theirs that follows it shows it, nobody else (an offline
        player is shown their invitations when they log in)."""
        self.bus.publish(player_stream(player), Frame.of(message))
