"""A director entering a player, and the player's answer: the hall's invitation requests (STAFF-2).

``director_add_player`` names a player who may be offline. The name is
resolved to the stored account (any letter case, AC-3) and that account must
be allowed to play (the room's one check, :mod:`pokerroom.shell.play_check`),
or the command is refused. Into a free event the player is entered at once;
into a paid one they only get an invitation -- pushed now if connected, again
whenever they log in -- and their own ``tournament_invitation_answer`` decides:
accepting pays the entry exactly as registering does (:meth:`TournamentHall.enter`),
declining moves nothing. The bounds and the bookkeeping are the pure
:class:`~tournament.invitations.InvitationBook`; the director's command and the
player's answer are both in the audit log.

Composed by the hall (it owns the tournaments and the one command path), on
its side of the process line; no Twisted import here: the account lookup's
Deferred comes from the may-play check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pokerroom import conduct
from pokerroom.bus import Bus
from pokerroom.bus.records import SessionBack, SessionEvent
from pokerroom.bus.subjects import SESSION_EVENTS
from pokerroom.errors import RuleViolation
from pokerroom.gateway.routes import Gateway
from pokerroom.protocol.schema import Request, ok
from pokerroom.shell.directors import directed, verify_director
from pokerroom.shell.play_check import PlayCheck
from pokerroom.shell.recorder import Recorder
from pokerroom.shell.wallet import Wallet
from tournament import commands as tc
from tournament import director as td
from tournament.invitations import Invitation, InvitationBook

if TYPE_CHECKING:
    from pokerroom.shell.tournaments.hall import TournamentHall


class InvitationDesk:
    def __init__(self, hall: TournamentHall, bus: Bus, gateway: Gateway, recorder: Recorder, wallet: Wallet,
                 play_check: PlayCheck, banned_words: tuple[str, ...]) -> None:
        self.hall = hall
        self.bus = bus
        self.gateway = gateway                  # the route table, and who is connected to be shown an invitation
        self.recorder = recorder                # the audit chain: the director's command, the player's answer
        self.wallet = wallet
        self.play_check = play_check
        self.banned_words = banned_words        # an invitation's reason is read by the player (HR-CHAT-2)
        self.book = InvitationBook()

    def install(self) -> None:
        self.gateway.serve(self)
        self.bus.subscribe(SESSION_EVENTS, self._session_event)

    # ------------------------------------------------------------------ the director

    def _on_director_add_player(self, session: Any, request: Request, tournament: str, player: str,
                                reason: str) -> Any:
        """Into a free event the player is entered; into a paid one they are invited, and only their own
        acceptance pays. Either way the name is a real account's, which may play."""
        self.hall.director(tournament)
        verify_director(session)
        if conduct.chat_refusal(reason, self.banned_words) is not None:   # the player reads it
            raise RuleViolation("chat_blocked", "links and abusive words are not allowed in an invitation's reason",
                                "HR-CHAT-2")
        return self.play_check.named(player).addCallback(
            lambda standing: self._add(session, request, tournament, standing.nickname, reason))

    def _add(self, session: Any, request: Request, tournament: str, player: str, reason: str) -> dict:
        verify_director(session)
        d = self.hall.director(tournament)
        if player in d.entries:
            raise RuleViolation("already_registered", f"{player} is already in {d.spec.name}", "TR-REG-6")
        if not self.hall.taking_entries(d):
            raise RuleViolation("registration_closed", f"registration for {d.spec.name} is closed", "TR-REG-4")
        if d.awaiting_approval:                         # accepting would be refused: nobody enters it yet
            raise RuleViolation("awaiting_approval", f"{d.spec.name} waits for an admin to approve its guarantee; "
                                "invite players once it is approved", "STAFF-1")
        if d.spec.entry_cost == 0:                      # free: nothing of the player's moves
            self.hall.command(d, tc.Register(player, self.wallet.balance(player)), before=lambda: directed(
                self.recorder, session, "add player", tournament, player=player, reason=reason))
            return ok(request, player=player, entered=True, invited=False)
        invitation = Invitation(tournament, player, session.player_id, reason, self.hall.reactor.seconds(),
                                d.spec.entry_cost, d.spec)
        self.book.add(invitation)
        directed(self.recorder, session, "invite player", tournament, player=player, reason=reason,
                           entry_cost=d.spec.entry_cost)
        self._push(player, {"type": "tournament_invitation", "invitation": invitation.to_wire(d.spec.name)})
        return ok(request, player=player, entered=False, invited=True)

    # ------------------------------------------------------------------ the player

    def _on_tournament_invitations(self, session: Any, request: Request) -> dict:
        """The player's open invitations: what each would cost, from whom and why."""
        return ok(request, invitations=[self._wire(i) for i in self.book.of(session.player_id)
                                        if i.tournament in self.hall.directors])

    def _on_tournament_invitation_answer(self, session: Any, request: Request, tournament: str,
                                         accept: bool) -> dict:
        """The player's own answer: accepting pays the entry as registering does; declining moves nothing."""
        player = session.player_id
        invitation = self.book.get(tournament, player)
        d = self.hall.director(tournament)
        if accept:
            self.play_check.session(session)
            if not invitation.still_offered(d.spec):     # edited since: not what the player was told
                self.book.withdraw_one(invitation)
                raise RuleViolation("invitation_outdated", f"{d.spec.name} was changed after you were invited "
                                    "(its price, stack or structure): the invitation is withdrawn", "STAFF-2")
            self.hall.enter(d, player)                  # refused (funds, full, closed): the invitation stays
        self.book.answered(invitation, accept)
        answer = "accepted" if accept else "declined"
        self.recorder.audit("tournament_invitation", tournament=tournament, player=player, by=invitation.by,
                        reason=invitation.reason, answer=answer, entry_cost=invitation.entry_cost)
        self._push(invitation.by, {"type": "tournament_invitation_answered", "tournament": tournament,
                                   "player": player, "answer": answer})
        return ok(request, registered=accept, balance=self.wallet.balance(player))

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
        session = self.gateway.by_player.get(player)
        if session is not None and session.connection is not None:
            session.push(message)
