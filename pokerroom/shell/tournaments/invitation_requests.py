"""The invitations' requests (STAFF-2): a director's ``director_add_player`` and the player's list and answer.

On the gateway's side of the process line, as the other tournament requests
are: the director's role, the chat filter on the reason the player will read
(HR-CHAT-2), the named account's may-play check and the answering player's own
are made here, before anything is asked; the hall's side
(:mod:`~pokerroom.shell.tournaments.invitations`) keeps the book and pays an
accepted entry, answering the records :class:`~pokerroom.bus.records.Invite`,
:class:`~pokerroom.bus.records.AnswerInvitation` (on ``tournament.<id>.command``)
and :class:`~pokerroom.bus.records.InvitationsRead` (``tournaments.invitations``).
The director's command goes in the audit log here, once the hall took it, so
the directors' activity read sees it in the order this side wrote it.
"""

from __future__ import annotations

from typing import Any

from twisted.internet import defer

from pokerroom import conduct
from pokerroom.bus.records import AnswerInvitation, InvitationsRead, Invite
from pokerroom.errors import RuleViolation
from pokerroom.protocol.schema import Request, ok
from pokerroom.shell.asked import answered
from pokerroom.shell.directors import directed, verify_director
from pokerroom.shell.play_check import PlayCheck, Standing
from pokerroom.shell.recorder import Recorder
from pokerroom.shell.tournaments.hall_line import HallLine


class InvitationRequests:
    def __init__(self, line: HallLine, recorder: Recorder, play_check: PlayCheck,
                 banned_words: tuple[str, ...]) -> None:
        self.line = line                        # the hall, by bus requests only
        self.recorder = recorder                # the audit chain: the director's command
        self.play_check = play_check            # the one may-play check (STAFF-2)
        self.banned_words = banned_words        # an invitation's reason is read by the player (HR-CHAT-2)

    def _on_director_add_player(self, session: Any, request: Request, tournament: str, player: str,
                                reason: str) -> defer.Deferred:
        """The name is a real account's, which may play; the hall enters them into a free event, or invites them
        into a paid one, where only their own acceptance pays."""
        verify_director(session)
        if conduct.chat_refusal(reason, self.banned_words) is not None:   # the player reads it
            raise RuleViolation("chat_blocked", "links and abusive words are not allowed in an invitation's reason",
                                "HR-CHAT-2")

        def ask(standing: Standing) -> defer.Deferred:
            verify_director(session)                    # still a director once the account was read
            invite = Invite(standing.nickname, session.player_id, reason)
            return self.line.command(tournament, invite).addCallback(taken)

        def taken(answer: dict) -> dict:
            cost = answer.pop("entry_cost")
            if answer["entered"]:
                directed(self.recorder, session, "add player", tournament, player=answer["player"], reason=reason)
            else:
                directed(self.recorder, session, "invite player", tournament, player=answer["player"],
                         reason=reason, entry_cost=cost)
            return ok(request, **answer)

        return self.play_check.named(player).addCallback(ask)

    def _on_tournament_invitations(self, session: Any, request: Request) -> Any:
        """The player's open invitations: what each would cost, from whom and why."""
        return answered(self.line.invitations(InvitationsRead(session.player_id)), "",
                        lambda answer: ok(request, **answer))

    def _on_tournament_invitation_answer(self, session: Any, request: Request, tournament: str,
                                         accept: bool) -> Any:
        """The player's own answer: accepting pays the entry as registering does (once they may play); declining
        moves nothing."""
        if accept:
            self.play_check.session(session)
        return answered(self.line.command(tournament, AnswerInvitation(session.player_id, accept)), tournament,
                        lambda answer: ok(request, **answer))
