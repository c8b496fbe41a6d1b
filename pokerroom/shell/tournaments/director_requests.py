"""The directors' tournament requests: templates and previews, creating and editing, running an event.

Every command checks the role first (:func:`verify_director`), runs as a
record (:mod:`tournament.commands`) on ``tournament.<id>.command``, which the
hall answers through its one command path, and is recorded with who and why
once it succeeded (:func:`directed`, SEC-1). These requests are on the
gateway's side of the process line: what they read of an event (a
cancellation's refund preview) is a request on ``tournament.<id>.read``, and a
player a director names is resolved to the entrant by the hall, so nothing
here holds a director or the hall. A director's ``settings`` are whole
numbers; the few that stand for more (``level_seconds``, ``pko_percent``,
``break_after_level``) become structure in :func:`changes`: here for a
preview, by the hall for an event created or edited (``tournaments.create``,
``EditEvent``), where a satellite's target is known.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, fields, replace
from fractions import Fraction
from random import Random
from typing import TYPE_CHECKING, Any

from twisted.internet.interfaces import IReactorTime

from pokerroom.bus.records import CreateEvent, EditEvent, RefundPreviewRead
from pokerroom.errors import RuleViolation
from pokerroom.poker.variants import VARIANTS
from pokerroom.protocol.schema import NEW_ID, Request, ok
from pokerroom.shell.asked import answered
from pokerroom.shell.directors import directed, verify_director
from pokerroom.shell.recorder import Recorder
from pokerroom.shell.tournaments.hall_line import HallLine
from tournament import commands as tc
from tournament import director as td
from tournament.prizes import PayoutTable, prize_pool
from tournament.structure import PAYOUTS, STRUCTURES, Break, StructureError, TournamentSpec

if TYPE_CHECKING:
    from pokerroom.store.room_store import RoomStore

FIXED_FIELDS = frozenset({"id", "name", "start_at", "payouts", "levels", "breaks", "game", "currency",
                          "satellite_target", "progressive_share", "satellite_seat_value", "satellite_seat_fee"})
BOOL_SETTINGS = frozenset({"deals", "director_approves_deals", "remainder_to_top", "block_chat_in_hand"})
# whole-number settings a director may give (beyond the TournamentSpec fields): see changes()
EXTRA_SETTINGS = ("level_seconds", "pko_percent", "break_after_level", "break_seconds")


def spec_record(spec: TournamentSpec) -> dict:
    """A structure as wire data: the knockout share as its exact fraction in a string (e.g. ``"1/2"``)."""
    return {**asdict(spec), "progressive_share": str(spec.progressive_share),
            "levels": [asdict(level) for level in spec.levels], "breaks": [asdict(b) for b in spec.breaks]}


def described(spec: TournamentSpec, template: str) -> dict:
    """A template or a preview as the editor shows it: the knockout share as a whole ``pko_percent``."""
    shown = {k: v for k, v in spec_record(spec).items() if k not in ("id", "progressive_share", "start_at")}
    return {**shown, "template": template, "pko_percent": int(spec.progressive_share * 100)}


@contextmanager
def structure_errors() -> Iterator[None]:
    """A definition that cannot be run is the director's error to fix, in a sentence (TR-PLAY-1)."""
    try:
        yield
    except (StructureError, TypeError, ValueError) as e:
        raise RuleViolation("bad_structure", f"the settings do not make a tournament: {e}", "TR-PLAY-1") from None


def template_spec(template: str, **values: Any) -> TournamentSpec:
    """The structure template ``template`` with ``values`` (an id, a name, a start)."""
    path = STRUCTURES / f"{template}.toml"
    if not re.fullmatch(r"[a-z0-9_]+", template) or not path.exists():
        raise RuleViolation("unknown_template", f"there is no structure template {template!r}")
    return TournamentSpec.load(path, **values)


def changes(spec: TournamentSpec, settings: dict, game: str | None = None,
            target: TournamentSpec | None = None) -> dict:
    """A director's settings as changes to ``spec``: whole numbers, and the few that stand for more; ``target``:
    the structure of the event a satellite's seats are for (the hall looks it up)."""
    unknown = sorted(set(settings) - {f.name for f in fields(TournamentSpec)} - set(EXTRA_SETTINGS))
    if unknown:                                    # a nested map is refused as a request is: by its names
        raise RuleViolation("unknown_field", f"settings has no '{unknown[0][:40]}': director_templates lists "
                                             "the settings")
    fixed = sorted(set(settings) & FIXED_FIELDS)
    if fixed:
        raise RuleViolation("bad_structure", f"{fixed[0]} is not a setting a director can change here",
                            "TR-PLAY-1")
    changed: dict[str, Any] = dict(settings)
    if "break_after_level" in changed:             # one break in place of the template's (TR-PLAY-2)
        changed["breaks"] = (Break(changed.pop("break_after_level"), changed.pop("break_seconds", 300)),)
    if "level_seconds" in changed:                 # every level this long: a short event, or a test's
        seconds = changed.pop("level_seconds")
        changed["levels"] = tuple(replace(level, seconds=seconds) for level in spec.levels)
    if "pko_percent" in changed:                   # of a bounty won, the share paid at once (PKO < 100)
        percent = changed.pop("pko_percent")
        if percent > 100:
            raise RuleViolation("bad_structure", "the knockout share is a percentage from 0 to 100", "TR-PLAY-6")
        changed["progressive_share"] = Fraction(percent, 100)
    for name in BOOL_SETTINGS & set(changed):
        changed[name] = bool(changed[name])
    if game is not None:
        changed["game"] = game
    if target is not None:                        # TR-PRIZE-5: its seats are worth the target's entry
        changed.update(satellite_target=target.id, satellite_seat_value=target.entry_cost,
                       satellite_seat_fee=target.fee, currency=target.currency)
    return changed


class DirectorRequests:
    def __init__(self, line: HallLine, reactor: IReactorTime, recorder: Recorder, store: RoomStore) -> None:
        self.line = line                        # every command and read of the hall: a request
        self.reactor = reactor
        self.recorder = recorder                # the audit chain, and the store read through the writer
        self.store = store

    # ------------------------------------------------------------------ before an event exists

    def _on_director_templates(self, session: Any, request: Request) -> dict:
        verify_director(session)
        templates = [described(TournamentSpec.load(path, id=path.stem), path.stem)
                     for path in sorted(STRUCTURES.glob("*.toml"))]
        settings = sorted({f.name for f in fields(TournamentSpec)} - FIXED_FIELDS | set(EXTRA_SETTINGS))
        return ok(request, templates=templates, games=sorted(VARIANTS), settings=settings)

    def _on_director_preview(self, session: Any, request: Request, template: str, entrants: int,
                             settings: dict | None = None) -> dict:
        """The structure and the prizes ``entrants`` would play for, before creating anything."""
        verify_director(session)
        with structure_errors():
            spec = template_spec(template, id="preview", name="preview")
            spec = spec.edited(**changes(spec, settings or {}))
        payouts = PayoutTable.load(PAYOUTS / f"{spec.payouts}.toml")
        preview = td.Director(spec, payouts, Random(0))
        amounts = preview.eliminations.prize_preview(entrants)
        pool = prize_pool(entrants * spec.buy_in, spec.guarantee).total
        return ok(request, entry_cost=spec.entry_cost, prize_pool=pool, payouts=list(amounts),
                  remainder=pool - sum(amounts), structure=described(spec, template))

    def _on_director_create(self, session: Any, request: Request, template: str, id: str,  # noqa: A002
                            name: str, start_in: int | None, settings: dict | None = None, game: str | None = None,
                            satellite_target: str | None = None) -> Any:
        """A new event, built and bounded by the hall (``tournaments.create``); recorded once it exists."""
        verify_director(session)
        if not NEW_ID.fullmatch(id):
            raise RuleViolation("bad_field", "a tournament id is up to 32 letters, digits, '_' or '-'")
        start_at = None if start_in is None else self.reactor.seconds() + start_in
        event = CreateEvent(template, id, name, start_at, settings or {}, session.player_id, game, satellite_target)

        def done(answer: dict) -> dict:
            directed(self.recorder, session, "create", id, template=template, settings=settings or {}, game=game,
                     satellite_target=satellite_target)
            return ok(request, tournament=answer["tournament"])

        return answered(self.line.create(event), id, done)

    def _on_director_edit(self, session: Any, request: Request, tournament: str, settings: dict) -> Any:
        """New settings before anyone registers, applied by the hall (TR-REG-2, STAFF-1); recorded once applied."""
        verify_director(session)

        def done(answer: dict) -> dict:
            directed(self.recorder, session, "edit", tournament, settings=settings)
            return ok(request, tournament=answer["tournament"])

        return answered(self.line.command(tournament, EditEvent(settings)), tournament, done)

    # ------------------------------------------------------------------ running an event

    def _on_director_start(self, session: Any, request: Request, tournament: str) -> Any:
        return self._directed(session, request, tournament, "start now", lambda by: tc.Start())

    def _on_director_pause(self, session: Any, request: Request, tournament: str, reason: str) -> Any:
        return self._directed(session, request, tournament, "pause", lambda by: tc.Pause(by, reason),
                              reason=reason)                      # the hall stops the clock with play

    def _on_director_resume(self, session: Any, request: Request, tournament: str) -> Any:
        return self._directed(session, request, tournament, "resume", lambda by: tc.Resume(by))

    def _on_director_cancel(self, session: Any, request: Request, tournament: str, reason: str,
                            confirm: bool) -> Any:
        """Unconfirmed: the refunds a cancellation would make now (TR-REFUND), read from the hall; confirmed: the
        cancellation, answered with the refunds it made, as the hall previewed them the moment before."""
        verify_director(session)
        if not confirm:                                 # the preview a director sees before confirming
            return answered(self.line.read(tournament, RefundPreviewRead()), tournament,
                            lambda preview: ok(request, **preview))

        def done(preview: dict) -> dict:
            directed(self.recorder, session, "cancel", tournament, reason=reason, case=preview["case"])
            return ok(request, **preview)

        return answered(self.line.command(tournament, tc.Cancel(reason)), tournament, done)

    def _directed(self, session: Any, request: Request, tournament: str, command: str,
                  record: Callable[[str], tc.TournamentCommand], **details: Any) -> Any:
        """A director command on one tournament (``record`` makes it, given who gives it): role checked, sent on
        ``tournament.<id>.command``, recorded once it succeeded; answered ``ok``."""
        verify_director(session)

        def done(_: dict) -> dict:
            directed(self.recorder, session, command, tournament, **details)
            return ok(request)

        return answered(self.line.command(tournament, record(session.player_id)), tournament, done)

    def _on_director_remove_player(self, session: Any, request: Request, tournament: str, player: str,
                                   reason: str) -> Any:
        return self._directed(session, request, tournament, "remove player",
                              lambda by: tc.RemovePlayer(player), player=player,
                              reason=reason)

    def _on_director_move_player(self, session: Any, request: Request, tournament: str, player: str, table: str,
                                 reason: str) -> Any:
        """Between hands the player moves now; during a hand at either table the move is queued for the hand's
        end (TR-PLAY-4), answered ``queued``: "moves when the hand at table X ends"."""
        verify_director(session)

        def done(answer: dict) -> dict:
            directed(self.recorder, session, "move player", tournament, player=player, table=table, reason=reason,
                     **({"queued": answer["table"]} if answer.get("queued") else {}))
            return ok(request, **({"queued": answer["queued"]} if answer.get("queued") else {}))

        return answered(self.line.command(tournament, tc.MovePlayer(player, table, session.player_id)), tournament,
                        done)

    def _on_director_break_table(self, session: Any, request: Request, tournament: str, table: str,
                                 reason: str) -> Any:
        return self._directed(session, request, tournament, "break table", lambda by: tc.BreakTable(table),
                              table=table, reason=reason)

    def _on_director_balance(self, session: Any, request: Request, tournament: str, reason: str) -> Any:
        return self._directed(session, request, tournament, "balance now", lambda by: tc.BalanceNow(),
                              reason=reason)

    def _on_director_deal(self, session: Any, request: Request, tournament: str, decision: str, reason: str) -> Any:
        return self._directed(session, request, tournament, f"{decision} deal",
                              lambda by: tc.DecideDeal(decision == "approve", by, reason), reason=reason)

    def _on_director_broadcast(self, session: Any, request: Request, tournament: str, text: str) -> Any:
        return self._directed(session, request, tournament, "broadcast", lambda by: tc.Broadcast(text, by),
                              reason=text)

    def _on_director_activity(self, session: Any, request: Request, limit: int = 100,
                              tournament: str | None = None) -> Any:
        """The director commands of the audit log, newest first: who, when, what and why."""
        verify_director(session)

        def shape(records: list) -> dict:
            rows = []
            for record in records:
                data = dict(record.data)
                rows.append({"at": record.at, "by": data.pop("by", ""), "command": data.pop("command", record.kind),
                             "tournament": data.pop("tournament", ""), "table": data.pop("table", ""),
                             "reason": data.pop("reason", ""), "details": data})
            return ok(request, records=rows)

        return self.recorder.write(self.store.audit_log.director_activity, limit, tournament,
                                   quiet=False).addCallback(shape)
