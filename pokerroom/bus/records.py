"""The records that cross the bus: nothing but these, bytes and plain data is published or requested.

Theory of operation
-------------------
A bus message is what another process could receive: plain data (None,
bools, ints, finite floats, str, bytes, lists, maps with str keys) or one of
the records declared here. A record is a frozen, slotted dataclass whose
fields are plain data or records again, with tuples for sequences, so a copy
that went through msgpack compares equal to the original.

:func:`record` declares one under a short wire name; :func:`packb` and :func:`unpackb` (:mod:`~pokerroom.bus.
record_codec`) carry records as a msgpack extension (``RECORD_EXT``): the name, then the field values in declaration
order. The in-process bus hands the publisher's record over as it is (it is frozen, so no subscriber can change it);
:class:`~pokerroom.bus.strict.StrictBus` and a broker-backed bus send the bytes.

Where records live: each family below in its own section, one class a
message kind. A service that needs a new message kind declares it here, not
in its own module, so the process line (docs/architecture.md) is one file.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from pokerroom.bus.record_codec import RECORD_EXT as RECORD_EXT
from pokerroom.bus.record_codec import RECORDS as RECORDS
from pokerroom.bus.record_codec import NotPlainData as NotPlainData
from pokerroom.bus.record_codec import packb as packb
from pokerroom.bus.record_codec import record
from pokerroom.bus.record_codec import unpackb as unpackb
from pokerroom.casino import commands as cc
from pokerroom.poker.quick_init import quick_init
from pokerroom.table import commands as tc
from tournament import commands as tourc

# ---------------------------------------------------------------------- the bus's own: a failed request's answer

@record("bus.refused")
@dataclass(frozen=True, slots=True)
class Refused:
    """A responder's ``RuleViolation`` on its way to a requester in another process: code, sentence, rule and
    amounts (in ``currency`` when the responder priced them), so the requester raises the same refusal."""

    code: str
    template: str
    rule: str
    amounts: dict[str, int]
    currency: str | None


@record("bus.failed")
@dataclass(frozen=True, slots=True)
class Failed:
    """A responder's other exception (or an answer that was not plain data), by type name and message: a bug on
    the responder's side, logged there with its traceback; the requester gets :class:`ResponderFailed`."""

    kind: str
    text: str


# ---------------------------------------------------------------------- sessions: who is on which connection

# Why a player is no longer on a session (:class:`SessionGone`) or is on one again (:class:`SessionBack`).
DISCONNECTED = "disconnected"       # the connection closed; the session stays the player's to resume (HR-DC-2)
LOGGED_OUT = "logged_out"           # they logged out, or were ended on it (a ban, another login on the connection)
TAKEN_OVER = "taken_over"           # a newer login or resume of the player took the session over
LOGGED_IN = "logged_in"
RESUMED = "resumed"


@record("session.gone")
@dataclass(frozen=True, slots=True)
class SessionGone:
    """A player is no longer on a session, as the gateway saw it when it published.

    ``current`` says whether the session was the one the player is signed in
    on (a taken-over session never is; a closed one stays theirs to resume):
    only then are they disconnected at their tables (HR-DC-1), so no
    subscriber needs the session itself to judge. ``tables`` are the cash
    tables it watched, taken before the gateway forgets them; ``epoch``
    names the login or resume this ends (the ``epoch`` of its
    :class:`SessionBack`). ``player`` is None when an anonymous connection
    closes.
    """

    session: str                    # the session's id, unique in the room
    player: str | None
    why: str                        # DISCONNECTED, LOGGED_OUT or TAKEN_OVER
    current: bool
    tables: tuple[str, ...]
    epoch: int


@record("session.back")
@dataclass(frozen=True, slots=True)
class SessionBack:
    """A player logged in or resumed on a session (``why``: LOGGED_IN or RESUMED): their tables, casino rounds
    and tournament hands take them back. ``epoch`` is new with each login or resume in the room."""

    session: str
    player: str
    why: str
    tables: tuple[str, ...]
    epoch: int


SessionEvent = SessionGone | SessionBack        # what SESSION_EVENTS carries, in the order the gateway saw them



# ---------------------------------------------------------------------- players: names each side keeps a copy of
# The side that decides publishes; each other side keeps its own copy from these (docs/architecture.md).


@record("players.renamed")
@dataclass(frozen=True, slots=True)
class PlayerRenamed:
    """``players.renamed``: the account ``old`` is ``new`` from now on (AC-3), published by the security desk once
    the account and its wallet moved: what a copy keeps under the old name now concerns the new one."""

    old: str
    new: str


@record("players.display_name")
@dataclass(frozen=True, slots=True)
class DisplayName:
    """``players.display_name``: ``player`` shows the verified real ``name`` at the tables (AC-4), or nothing
    (None): published by the accounts at a login and by the security desk when the player's choice changes."""

    player: str
    name: str | None


# ---------------------------------------------------------------------- frames: what a viewer is sent


@record("frame")
@dataclass(frozen=True, slots=True)
class Frame:
    """One frame for one audience, made once where its events are made; the gateway only forwards it.

    ``message`` is the frame as plain data; ``packed`` its msgpack bytes when
    the publisher made them anyway (a table packs its events for its log), so
    no gateway packs it again; ``extra`` are keys added for this viewer only
    (a decision's ``legal``) on top of a ``message`` others get as it is;
    ``instead`` names players who get a frame of their own on their seat's
    stream in place of this one. The gateway encodes one ``message`` once per
    subprotocol for all its viewers and keeps those bytes itself: a frame is
    never written into. (After a broker's round trip the lists inside
    ``message`` are tuples: they encode as the same arrays.)
    """

    message: dict
    packed: bytes | None = None
    extra: dict | None = None
    instead: tuple[str, ...] = ()

    @classmethod
    def of(cls, message: dict) -> Frame:
        return cls(message)


# ---------------------------------------------------------------------- tables: full batches for the recorder
# The recorder is fed by its own process's table host through a direct port (pokerroom.shell.recorder); what
# goes on ``table.<id>.full`` is this plain copy, for listeners that may miss a message (the demo's narrator,
# the security team).


@record("transfer")
@quick_init                                 # this and TableBatch, one or more an action: made as cheaply as an event
@dataclasses.dataclass(frozen=True, slots=True)
class LedgerTransfer:
    """A ledger transfer as plain data: its number, its postings (account, signed minor units), why, when."""

    number: int
    postings: tuple[tuple[str, int], ...]
    reason: str
    reference: str
    at: float

    @classmethod
    def of(cls, transfer: Any) -> LedgerTransfer:
        """From a :class:`~pokerroom.money.ledger.Transfer`."""
        return cls(transfer.number, tuple((p.account, p.amount) for p in transfer.postings), transfer.reason,
                   transfer.reference, transfer.at)


@record("table.batch")
@quick_init
@dataclasses.dataclass(frozen=True, slots=True)
class TableBatch:
    """One batch of a cash table's events as they happened, every card: published on ``table.<id>.full``."""

    table: str
    game: str                                       # the rules' game key (variant and betting)
    currency: str
    at: float
    events: tuple[dict, ...]                        # each event as the protocol writes it (its lists arrive
                                                    # as tuples from another process)
    transfers: tuple[tuple[int, LedgerTransfer], ...] = ()   # (position in ``events``, the transfer made for it)



# ---------------------------------------------------------------------- tables: commands and reads as requests

# A cash table's commands are the pure core's own records (the table package imports nothing of the bus):
# declared here under their wire names, they are what ``table.<id>.command`` carries. The answer is plain data:
# ``{"seat": <the player's seat or None>}``; a refusal comes back as the RuleViolation, code and amounts kept.
for _name, _command in (("t.sit", tc.Sit), ("t.leave", tc.Leave), ("t.add", tc.AddChips), ("t.out", tc.SitOut),
                        ("t.in", tc.SitIn), ("t.opt", tc.SetOptions), ("t.act", tc.Act),
                        ("t.wait", tc.JoinWaitingList), ("t.unwait", tc.LeaveWaitingList),
                        ("t.gone", tc.Disconnect), ("t.back", tc.Reconnect), ("t.close", tc.Close),
                        ("t.deal", tc.StartHand), ("t.timeout", tc.Timeout), ("t.bank", tc.TimeBankExpired),
                        ("t.offer", tc.OfferExpired), ("t.sat_out", tc.SitOutExpired)):
    record(_name)(_command)


@record("t.snapshot")
@dataclasses.dataclass(frozen=True, slots=True)
class SnapshotRead:
    """``table.<id>.snapshot``: the table as ``player`` may see it (an observer's view for None or a non-player).

    Answered with the ``table_snapshot`` push as a dict, once no outcome waits for its commit."""

    player: str | None


@record("t.missed")
@dataclasses.dataclass(frozen=True, slots=True)
class CatchUpRead:
    """``table.<id>.catch_up``: what ``player`` missed after ``last_seq`` (HR-DC-2).

    Answered ``{"frames": [<table_events push>, …]}`` when the log holds it and it shows the table whole, else
    ``{"snapshot": <table_snapshot push>}``."""

    player: str | None
    last_seq: int


@record("t.players")
@dataclasses.dataclass(frozen=True, slots=True)
class PlayersRead:
    """``table.<id>.players``: who sits at the table now, answered as a list of player ids by seat."""


# ---------------------------------------------------------------------- the lobby

@record("lobby.line")
@dataclasses.dataclass(frozen=True, slots=True)
class LobbyLine:
    """``lobby.changed``: a table's lobby line as it is now, or None once the table has left the room.

    ``news`` False: a table there from the start -- the feed keeps its line and tells no subscriber."""

    table: str
    line: dict | None
    news: bool = True


@record("lobby.section")
@dataclasses.dataclass(frozen=True, slots=True)
class LobbySection:
    """``lobby.section``: a section of the lobby beside the cash tables (``name``: "casino"), its lines as they are
    now, sent whole by the service on the table side whenever they change; the lobby feed keeps the copy."""

    name: str
    lines: tuple[dict, ...]


# ------------------------------------------------------------------ cash tables: a resume's check, asked of the host
# Accounts live in a gateway process, the tables in a table process (docs/architecture.md): what a resume
# needs to know of the tables is asked, as one request the host answers for all its tables.

@record("t.resume")
@dataclasses.dataclass(frozen=True, slots=True)
class ResumeRead:
    """``tables.resume``: may ``player`` resume these ``tables`` (id, the last seq the client saw), watching
    ``watched`` here? Each must be open and watched or sat at, or closed since; no seq beyond the table's newest.

    Answered ``{"open": [<the tables of tables, watched and others still open>, …], "seated": [<every table the
    player sits at>, …]}`` (``others``: the resuming connection's own watches, caught up too; ``seated``: what a
    session from another process watches again, with a snapshot); a refusal (``no_such_table``,
    ``not_watching``, ``bad_seq``) is raised, for the first table in id order that has one."""

    player: str
    watched: tuple[str, ...]
    tables: tuple[tuple[str, int], ...]
    others: tuple[str, ...] = ()


@record("t.where")
@dataclasses.dataclass(frozen=True, slots=True)
class WhereRead:
    """``tables.where``: the cash tables ``player`` is at, for a desk that takes them out of play (SEC-2, SEC-4).

    Answered ``{"seated": [...], "leaving": [...], "waiting": [...]}`` (table ids; ``leaving``: seated, already
    standing up after the hand)."""

    player: str


@record("t.chat")
@dataclasses.dataclass(frozen=True, slots=True)
class ChatRead:
    """``table.<id>.chat``: what the table chat needs of the table before it takes a line of ``player``
    (HR-CHAT-4). Answered ``{"hand": <the running hand's id or None>, "in_hand": <player dealt into it>,
    "closed_in_hand": <the table closes chat to players in the hand>}``. On ``tournament.<id>.read`` the event's
    hall answers for its ``table`` (wherever its hand plays), ``not_at_table`` unless ``player`` is seated there."""

    player: str
    table: str = ""


@record("t.said")
@dataclasses.dataclass(frozen=True, slots=True)
class ChatLine:
    """``table.<id>.keep_chat``: a chat line said at the table at ``at``, for the table process's recorder to keep
    (every one, shown or not: HR-CHAT-1), to note for the collusion signals when ``hand`` runs (HR-CHAT-4), and to
    flag for review when its author is dealt into the hand (``in_hand``). Answered None once queued."""

    player: str
    text: str
    at: float
    hand: str | None                # the hand running when the table was asked (ChatRead), or None
    blocked: bool                   # not shown: muted, abusive, or closed to players in the hand
    in_hand: bool


@record("t.announce")
@dataclasses.dataclass(frozen=True, slots=True)
class Announce:
    """``table.<id>.announce``: a frame for everyone at the table (a chat line), sent by its host on the streams
    each viewer hears the table on, in order with its events. Answered None once it is out."""

    message: dict


@record("t.desk")
@dataclasses.dataclass(frozen=True, slots=True)
class DeskRead:
    """``tables.desk``: every open cash table as the directors' desk shows it, answered as a list of the
    tables' lobby lines with their ``players`` (seat, player, stack, sitting out, connected) and ``waiting_list``.

    A director closes one with the :class:`~pokerroom.table.commands.Close` command on ``table.<id>.command``,
    answered ``{"seat": None, "closed": <it has left the room already>}``."""


@record("t.open")
@dataclasses.dataclass(frozen=True, slots=True)
class OpenTable:
    """``tables.open``: a director's new cash table, as the ``[[tables]]`` entry the desk made of the request; the
    table side builds its rules from the room's config there (a bad entry is ``bad_table``, an id in use
    ``table_exists``), opens it and answers its lobby line with ``players`` and ``waiting_list`` (both empty).
    The desk has checked the director and stored nothing yet: it records the table once the answer says it is
    open."""

    entry: dict


# ---------------------------------------------------------------------- security: the desk asks the table process
# The security desk serves the team in a gateway process; the cash tables and the wallet are the table process's
# (pokerroom.shell.security_moves answers there). A refusal is the RuleViolation, code and rule kept.


@record("play.in")
@dataclasses.dataclass(frozen=True, slots=True)
class InPlayRead:
    """``casino.playing`` / ``tournaments.playing``: is ``player`` in play there -- a casino bet in an open round,
    a tournament entry (or a stake in one) not yet finished? Asked before a promotion to staff (SEC-2) and a
    rename (AC-3); answered True or False by the floor or the hall."""

    player: str


@record("sec.idle")
@dataclasses.dataclass(frozen=True, slots=True)
class IdleRead:
    """``security.idle``: may ``player`` be renamed -- nothing of theirs left under the name but the wallet (no
    seat, waiting list, chips or stakes: AC-3)? Answered None, or refused ``player_busy``."""

    player: str


@record("sec.rename")
@dataclasses.dataclass(frozen=True, slots=True)
class Rename:
    """``security.rename``: the account ``old`` renamed ``new`` (``key``: its nickname key) with its wallet, in one
    transaction, by the security officer ``by`` at ``at`` (AC-3). Answered ``{"moved": <minor units>}``."""

    old: str
    new: str
    key: str
    reason: str
    by: str
    at: float


@record("sec.void")
@dataclasses.dataclass(frozen=True, slots=True)
class VoidWinnings:
    """``security.void``: ``player``'s winnings of the cash ``hands`` reversed to those who lost them (AC-7), asked
    by the security officer ``by`` for ``reason`` (in ``case``, if one). Answered ``{"transfers": [...]}``, each
    transfer as ``security_ledger`` shows it."""

    player: str
    hands: tuple[str, ...]
    by: str
    reason: str
    case: int | None = None


# ---------------------------------------------------------------------- the wallet: the gateway's side asks
# The wallet is the table process's (pokerroom.shell.wallet_desk answers there); accounts, histories and the
# promotions desk live in a gateway process. Each record says what happened or what is read, never "move X from A
# to B": the desk works out the accounts and repeats every check where the money is (docs/architecture.md).


@record("w.balance")
@dataclasses.dataclass(frozen=True, slots=True)
class WalletRead:
    """``wallet.balance``: ``player``'s cash balance, for a login's, a resume's or a history's answer. Answered
    ``{"balance": <minor units>}``."""

    player: str


@record("w.held")
@dataclasses.dataclass(frozen=True, slots=True)
class HeldRead:
    """``wallet.held``: what each of ``accounts`` holds (promotions, a guarantee, the house's earnings). Answered
    ``{"held": {<account>: <minor units>}}``."""

    accounts: tuple[str, ...]


@record("w.welcome")
@dataclasses.dataclass(frozen=True, slots=True)
class WelcomeDeposit:
    """``wallet.welcome``: the room's welcome balance for the newly stored account ``player`` (demo rooms): the
    amount is the room's rule, the limits the stored account's (AC-5), once per account ever (``already_welcomed``).
    Answered ``{"balance": <minor units>}``."""

    player: str


@record("w.promotions")
@dataclasses.dataclass(frozen=True, slots=True)
class FundPromotions:
    """``wallet.promotions``: the admin ``by`` moves ``amount`` of the house's ``source`` (``house:rake``,
    ``house:fees``, or ``deposit``: money from outside) into promotions for ``reason`` (STAFF-1). The desk reads
    ``by``'s stored role, the source's funds and the house deposits' bounds itself. Answered ``{"transfer",
    "balance"}`` (the promotions balance after it)."""

    source: str
    amount: int
    by: str
    reason: str


# The cashier's asks (a deposit's limits, an approved deposit's credit, a withdrawal's hold and its settling, an
# admin's credit): each names the cashier's reference, and the desk reads again what makes it due.


@record("w.may_deposit")
@dataclasses.dataclass(frozen=True, slots=True)
class DepositAllowed:
    """``wallet.may_deposit``: may ``player`` bring ``amount`` in -- their stored account's self-exclusion and
    24-hour limit against the day's deposits the wallet counts (AC-5)? Answered None, or refused."""

    player: str
    amount: int


@record("w.deposit")
@dataclasses.dataclass(frozen=True, slots=True)
class DepositApproved:
    """``wallet.deposit``: the provider approved the cashier's deposit ``reference``. Credited only as the stored
    ``cashier_deposit_asked`` record of that reference says (its player and amount), never refused, once.
    Answered ``{"transfer", "balance", "today": [<the player's deposits of the last 24 hours>]}``."""

    player: str
    amount: int
    reference: str


@record("w.hold")
@dataclasses.dataclass(frozen=True, slots=True)
class WithdrawalHold:
    """``wallet.hold``: ``player`` withdraws ``amount``: it leaves their cash for the withdrawal's own ``payout``
    account (a new ``reference``, used once), with the funds, a closed and a frozen account read where the money is;
    answered ``{"balance"}`` once the hold is stored, before the provider is asked."""

    player: str
    amount: int
    reference: str


@record("cashier.pending")
@dataclasses.dataclass(frozen=True, slots=True)
class CashierPending:
    """``cashier.pending``: a process that does not settle (not the ``cashier:settlements`` lease's holder) took a
    ``deposit`` or ``withdrawal`` the provider has not answered: the settling process asks about it again later."""

    kind: str
    player: str
    amount: int
    reference: str


@record("w.settle")
@dataclasses.dataclass(frozen=True, slots=True)
class WithdrawalSettled:
    """``wallet.settle``: the provider paid (``paid``) or refused the withdrawal ``reference``: what its payout
    account holds goes to the world or back to the player's cash, if it holds ``amount`` still. Answered
    ``{"settled": False}`` when it was settled meanwhile, else ``{"settled": True, "transfer", "balance"}``."""

    player: str
    amount: int
    reference: str
    paid: bool


@record("w.payouts")
@dataclasses.dataclass(frozen=True, slots=True)
class PayoutsRead:
    """``wallet.payouts``: every withdrawal held and not settled, for the cashier's start. Answered ``{"held":
    [[player, reference, amount], ...]}``."""


@record("w.credit")
@dataclasses.dataclass(frozen=True, slots=True)
class AdminCredit:
    """``wallet.credit``: the admin ``by`` credits ``player``'s wallet with ``amount`` the room received from outside
    (``payment`` names it) for ``reason`` (STAFF-1). The desk reads both accounts (an admin; a player's, open, not
    staff, not ``by``'s) and the house deposits' bounds. Answered ``{"player", "reference", "transfer",
    "balance", "today"}``."""

    player: str
    amount: int
    by: str
    reason: str
    payment: str


# ---------------------------------------------------------------------- tournaments

# A tournament director's commands are the pure package's own records (:mod:`tournament.commands`): the hall's
# timers, the players' and the directors' requests send them to the director through one ``Director.apply``;
# declared here under their wire names, they are what a process on the other side of the bus would send. A
# refusal is the RuleViolation, code, sentence, rule and amounts kept.
for _name, _command in (("tn.level", tourc.LevelUp), ("tn.break", tourc.StartBreak), ("tn.unbreak", tourc.EndBreak),
                        ("tn.start", tourc.Start), ("tn.catch_up", tourc.CatchUp), ("tn.deal", tourc.Deal),
                        ("tn.send_hand", tourc.SendHand), ("tn.return_hand", tourc.ReturnHand),
                        ("tn.void_hand", tourc.VoidHand), ("tn.deal_expired", tourc.DealExpired),
                        ("tn.timeout", tourc.Timeout), ("tn.muck", tourc.MuckChoice),
                        ("tn.act", tourc.Act), ("tn.register", tourc.Register), ("tn.unregister", tourc.Unregister),
                        ("tn.rebuy", tourc.Rebuy), ("tn.add_on", tourc.AddOn), ("tn.shares", tourc.SellShares),
                        ("tn.propose", tourc.ProposeDeal), ("tn.answer", tourc.AnswerDeal),
                        ("tn.pause", tourc.Pause), ("tn.resume", tourc.Resume), ("tn.cancel", tourc.Cancel),
                        ("tn.remove", tourc.RemovePlayer), ("tn.move", tourc.MovePlayer),
                        ("tn.break_table", tourc.BreakTable), ("tn.balance", tourc.BalanceNow),
                        ("tn.decide_deal", tourc.DecideDeal), ("tn.broadcast", tourc.Broadcast)):
    record(_name)(_command)

# The hall's own answers beside the director's commands: the players' and directors' requests live in a gateway
# process, the hall in a table process, so what a request reads of an event, and an entry's payment, are asked.
# Who asks and whether they may (the role and may-play checks) is the request's; the rules are the director's.


@record("tn.list")
@dataclasses.dataclass(frozen=True, slots=True)
class TournamentsRead:
    """``tournaments.list``: every tournament's lobby summary, with ``registered``: whether ``player`` (None for an
    anonymous asker) has an entry in it now. Answered ``{"tournaments": [...]}``."""

    player: str | None


@record("tn.details")
@dataclasses.dataclass(frozen=True, slots=True)
class DetailsRead:
    """``tournament.<id>.read``: the event's page as ``player`` (None: anonymous) is shown it -- the summary,
    structure, prizes, the biggest stacks and the asker's rank, the first tables and the asker's own."""

    player: str | None


@record("tn.refunds")
@dataclasses.dataclass(frozen=True, slots=True)
class RefundPreviewRead:
    """``tournament.<id>.read``: what cancelling now would refund (TR-REFUND), answered ``{"case", "refunds":
    {player: amount}, "remainder"}``; a tournament with nothing to refund is ``not_running``."""


@record("tn.create")
@dataclasses.dataclass(frozen=True, slots=True)
class CreateEvent:
    """``tournaments.create``: a new event ``id`` from the structure ``template`` with a director's ``settings``
    (whole numbers, as ``director_create`` takes them), ``by`` the director (the role check is the request's).
    The hall builds the structure (a satellite's seats worth its target's entry, TR-PRIZE-5) and checks the
    bounds (STAFF-1). Answered ``{"tournament": <its lobby summary>}``."""

    template: str
    id: str
    name: str
    start_at: float | None
    settings: dict
    by: str
    game: str | None = None
    satellite_target: str | None = None


@record("tn.edit")
@dataclasses.dataclass(frozen=True, slots=True)
class EditEvent:
    """``tournament.<id>.command``: a director's new ``settings`` for an event nobody has entered yet (TR-REG-2),
    checked against the bounds as at creation (STAFF-1). Answered ``{"tournament": <its lobby summary>}``."""

    settings: dict


@record("tn.play_hand")
@dataclasses.dataclass(frozen=True, slots=True)
class PlayHand:
    """``tournaments.hands``: deal and play a tournament hand the director planned (``setup``, plain data:
    :func:`tournament.hand_in_play.setup_to_plain`) with the room's decision ``seconds``, each dealt player's time
    bank (``banks``), the reconnect seconds a player away gets once in it (``reconnect``, HR-DC-4) and who is away
    now (``away``), and whether the event pays bounties (its hands' facts); the table process that takes it answers
    with its node's name."""

    tournament: str
    table: str
    setup: dict
    seconds: float
    banks: dict
    reconnect: int
    away: tuple
    bounty: bool


@record("tn.hand_act")
@dataclasses.dataclass(frozen=True, slots=True)
class HandAct:
    """``tournaments.hand.<id>.<hand>``: a player's ``Act`` at a hand played away, forwarded by the
    director to the process playing it (a timeout is the process's own)."""

    hand_id: str
    command: tourc.Act


@record("tn.hand_back")
@dataclasses.dataclass(frozen=True, slots=True)
class HandBack:
    """``tournament.<id>.command``: a hand played away ended (``result``, its ``ReturnHand``), stored where it was
    played; ``banks`` is each dealt player's time bank left after it (HR-TIME-4)."""

    result: tourc.ReturnHand
    banks: dict


@record("tn.watch")
@dataclasses.dataclass(frozen=True, slots=True)
class Watch:
    """``tournament.<id>.command``: the connection ``session`` (of ``player``, None before a login) follows the
    tournament's events (``on``) or no longer does. The hall keeps its watchers (an entrant watching hears each
    event once); the gateway's side follows ``tournament.<id>.public`` once this is answered ``{}``, and lets go
    of it on ``tournaments.retired``."""

    session: str
    player: str | None
    on: bool


@record("tn.said")
@dataclasses.dataclass(frozen=True, slots=True)
class TableChatSaid:
    """``tournament.<id>.command``: a line said at ``table``, kept by the hall's recorder (HR-CHAT-1, 4) and, with
    ``message``, shown to the table's players and watchers behind the event's frames. Answered ``{}``."""

    table: str
    line: ChatLine
    message: dict | None


@record("tn.enter")
@dataclasses.dataclass(frozen=True, slots=True)
class Enter:
    """``tournament.<id>.command``: ``player`` enters at their own request, paying from a satellite seat, then T$,
    then cash (TR-PRIZE-5); the hall reads the funds, and any invitation to the event is answered by it. Answered
    ``{"balance": <the player's cash after paying>}``."""

    player: str


@record("tn.offer")
@dataclasses.dataclass(frozen=True, slots=True)
class OfferShares:
    """``tournament.<id>.command``: ``seller`` (an entrant, before the start) offers ``percent`` of their action
    at ``markup_percent`` (TR-STAKE-1). Answered ``{}``; the hall keeps the offer."""

    seller: str
    percent: int
    markup_percent: int


@record("tn.buy")
@dataclasses.dataclass(frozen=True, slots=True)
class BuyShares:
    """``tournament.<id>.command``: ``buyer`` buys ``percent`` of what ``seller`` (any letter case, AC-3) offers,
    at the offer's markup and with the buyer's cash as the hall reads it (TR-STAKE-1). Answered ``{"balance":
    <the buyer's cash after paying>}``; more than is offered is ``no_offer``."""

    seller: str
    buyer: str
    percent: int


@record("tn.approve")
@dataclasses.dataclass(frozen=True, slots=True)
class ApproveGuarantee:
    """``tournament.<id>.command``: the admin ``by`` lets the event's guarantee above the limit open, for ``reason``
    (STAFF-1). The hall reads ``by``'s stored role (``forbidden``), the event's creator (``own_event``) and the
    stored role grants (``granted_by_creator``: the creator made ``by`` an admin, directly or through admins they
    made, within the cooling period) itself. Answered ``{"tournament": <its lobby summary>}``."""

    by: str
    reason: str


# The directors' invitations (STAFF-2): the requests are the gateway's (the role check, the chat filter on the reason,
# the account's may-play check), the book of open invitations the hall's, beside the entries an answer pays.


@record("tn.invite")
@dataclasses.dataclass(frozen=True, slots=True)
class Invite:
    """``tournament.<id>.command``: the director ``by`` enters ``player`` (a stored account's nickname, which the
    request found may play) for ``reason``: into a free event at once, into a paid one as an invitation only the
    player's own answer pays. Answered ``{"player", "entered", "invited", "entry_cost"}``."""

    player: str
    by: str
    reason: str


@record("tn.invited")
@dataclasses.dataclass(frozen=True, slots=True)
class AnswerInvitation:
    """``tournament.<id>.command``: ``player`` accepts (paying as registering does) or declines their invitation to
    the event; with none open it is ``no_invitation`` and nothing moves. Answered ``{"registered", "balance"}``."""

    player: str
    accept: bool


@record("tn.invitations")
@dataclasses.dataclass(frozen=True, slots=True)
class InvitationsRead:
    """``tournaments.invitations``: ``player``'s open invitations, answered ``{"invitations": [...]}`` (what each
    costs, from whom and why)."""

    player: str


# ---------------------------------------------------------------------- casino tables

# A casino table's commands are the pure core's own records (:mod:`pokerroom.casino.commands`): a player's go as
# requests on ``casino.<id>.command``, answered by the casino floor with plain data (or refused with the
# RuleViolation, code, sentence, rule and amounts kept); the floor's timer and session events apply theirs there.


@record("c.read")
@dataclasses.dataclass(frozen=True, slots=True)
class CasinoRead:
    """``casino.<id>.read``: what anyone may read of a casino table, no login needed: ``what`` is ``"rules"``
    (answered with the table's rules, limits and paytable) or ``"history"`` (``{"results", "statistics"}``, CR-7).
    Any other ``what`` is refused ``unknown_read``."""

    what: str


@record("c.members")
@dataclasses.dataclass(frozen=True, slots=True)
class MembershipsRead:
    """``casino.memberships``: the casino tables ``player`` is a member of, each as ``{"table", "state"}`` with the
    ``casino_state`` a returning player is shown (the table's view for them and their decision, CR-6). A read: it
    changes nothing (the floor's reconnect comes from the session's ``SessionBack``). Only the gateway's side asks
    it, for the player of a session that came back; no client request names a player here."""

    player: str


for _name, _command in (("c.join", cc.Join), ("c.leave", cc.Leave), ("c.bet", cc.Bet), ("c.decide", cc.Decide),
                        ("c.gone", cc.Disconnect), ("c.back", cc.Reconnect), ("c.expire", cc.Expire),
                        ("c.void", cc.Void)):
    record(_name)(_command)
