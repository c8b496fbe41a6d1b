"""Every subject the room's services use, built in one place.

A table id or a nickname becomes one token: the characters the bus gives a
meaning to (``.``, ``*``, ``>``), ``%`` itself, and whitespace and control
characters (which would end a NATS protocol line) are percent-encoded, so no
name can reach another's subject and every subject is a valid NATS subject.
"""

from __future__ import annotations

import re
from functools import lru_cache

TABLE_FULL = "table.*.full"          # every table's batches as plain TableBatch records, for listeners (the narrator)
TABLE_CLOSED = "table.*.closed"      # a table has left the room
LOBBY_CHANGED = "lobby.changed"      # payload: a LobbyLine, a table's line as it is now (or None: it left the room)
LOBBY_UPDATE = "lobby.update"        # the lobby feed's coalesced update, for lobby subscribers
SESSION_EVENTS = "session.events"    # SessionGone / SessionBack records: one subject, so their order is kept
# "gathered": every node answers for its own tables (bus.gather; the asker merges: pokerroom.shell.every_node)
CASH_TABLES_KNOWN = "tables.known"   # gathered: every cash table id the room has known, closed ones too
CASH_TABLES_RESUME = "tables.resume"  # gathered: a ResumeRead, may a player resume these tables (the host checks)
CASH_TABLES_WHERE = "tables.where"   # gathered: a WhereRead, the cash tables a player sits at or waits for
CASH_TABLES_DESK = "tables.desk"     # gathered: a DeskRead, every open cash table as the directors' desk shows it
LOBBY_LINES = "lobby.lines"          # gathered: None, every open cash table's LobbyLine (a late lobby feed's start)
TABLES_MOVING = "tables.moving"       # request: [kind, table] nobody answered for: refused table_moving if it is
                                     # between owners (the tenancy that knows its lease says), else None
TABLES_TAKEN_OVER = "tables.taken_over"  # payload: [kind, table], a process just won the lease of a table another
                                     # held (its process died or hung): what a gateway still waits for of it ends
CASH_TABLES_OPEN = "tables.open"     # request: an OpenTable, a director's new cash table opened by the tables' side
LOBBY_WANTED = "lobby.wanted"        # payload: None, a gateway process just started: every table side sends its
                                     # lobby lines (lobby.changed, not news) and sections (lobby.section) again
LOBBY_SECTION = "lobby.section"      # payload: a LobbySection, another section of the lobby whole (the casino's)
CASINO_TABLES = "casino.tables"      # gathered: None, every casino table's lobby line (casino_list)
CASINO_PLAYING = "casino.playing"    # gathered: an InPlayRead, has a player a bet in an open round (SEC-2)
CASINO_MEMBERSHIPS = "casino.memberships"   # gathered: a MembershipsRead, a returning player's tables (CR-6)
SECURITY_IDLE = "security.idle"      # gathered: an IdleRead, may a player be renamed (nothing of theirs at a table)
SECURITY_RENAME = "security.rename"  # request: a Rename, the account and its wallet renamed (AC-3)
SECURITY_VOID = "security.void"      # request: a VoidWinnings, a player's winnings of cash hands reversed (AC-7)
WALLET_BALANCE = "wallet.balance"    # request: a WalletRead, a player's cash (the wallet desk answers)
WALLET_HELD = "wallet.held"          # request: a HeldRead, what some accounts hold (promotions, guarantees)
WALLET_WELCOME = "wallet.welcome"    # request: a WelcomeDeposit, a new account's welcome balance (AC-5, once)
WALLET_PROMOTIONS = "wallet.promotions"  # request: a FundPromotions, an admin's house money into promotions (STAFF-1)
WALLET_MAY_DEPOSIT = "wallet.may_deposit"  # request: a DepositAllowed, a deposit within the stored limits (AC-5)
WALLET_DEPOSIT = "wallet.deposit"    # request: a DepositApproved, an asked deposit the provider approved, credited
WALLET_HOLD = "wallet.hold"          # request: a WithdrawalHold, a withdrawal's money held before the provider
WALLET_SETTLE = "wallet.settle"      # request: a WithdrawalSettled, a held withdrawal paid out or returned
WALLET_PAYOUTS = "wallet.payouts"    # request: a PayoutsRead, every held withdrawal (the cashier's start)
CASHIER_PENDING = "cashier.pending"  # payload: a CashierPending, a deposit or withdrawal the provider did not answer
                                     # (to the one process that settles: it asks again later)
WALLET_CREDIT = "wallet.credit"      # request: an AdminCredit, an admin's bounded credit of a wallet (STAFF-1)
TOURNAMENTS_LIST = "tournaments.list"  # gathered: a TournamentsRead, every tournament's lobby line (the hall answers)
TOURNAMENTS_CREATE = "tournaments.create"  # request: a CreateEvent, a director's new tournament (the hall answers)
TOURNAMENTS_RETIRED = "tournaments.retired"  # payload: a tournament's id, once it has left the hall's memory
TOURNAMENTS_INVITATIONS = "tournaments.invitations"  # gathered: an InvitationsRead, a player's open invitations
PLAYERS_RENAMED = "players.renamed"  # payload: a PlayerRenamed, a nickname reset (AC-3), from the security desk
PLAYERS_DISPLAY_NAME = "players.display_name"  # payload: a DisplayName, who shows their real name (AC-4)
PLAYERS_NAMES_WANTED = "players.names_wanted"  # payload: None, a table process just started: the deciding side
                                               # sends every name it shows again (players.display_name)
TOURNAMENTS_PLAYING = "tournaments.playing"  # gathered: an InPlayRead, is a player entered (the hall answers)
TOURNAMENTS_HANDS = "tournaments.hands"  # request: a PlayHand, a hand of an event played away from its director


_BLANK = re.compile(r"[\x00-\x20\x7f]")


@lru_cache(maxsize=65_536)
def token(name: str) -> str:
    if not name:
        return "%"
    encoded = name.replace("%", "%25").replace(".", "%2E").replace("*", "%2A").replace(">", "%3E")
    return _BLANK.sub(lambda blank: f"%{ord(blank.group()):02X}", encoded)


def table_public(table_id: str) -> str:
    """What anyone watching the table may see: events as an observer sees them, chat, the table closing."""
    return f"table.{token(table_id)}.public"


@lru_cache(maxsize=65_536)
def table_seat(table_id: str, player_id: str) -> str:
    """Everything one seated player sees of a table, public frames and their own, in the table's order: while
    seated they hear the table here and nowhere else (docs/protocol.md, "Order")."""
    return f"table.{token(table_id)}.seat.{token(player_id)}"


def table_full(table_id: str) -> str:
    """Every event as it happened, every card: the recorder and the security team."""
    return f"table.{token(table_id)}.full"


def table_closed(table_id: str) -> str:
    return f"table.{token(table_id)}.closed"


@lru_cache(maxsize=65_536)
def table_command(table_id: str) -> str:
    """Requests: a command record of :mod:`pokerroom.table.commands`, answered by the table's host."""
    return f"table.{token(table_id)}.command"


def table_snapshot(table_id: str) -> str:
    """Requests: the table as one viewer may see it now (``SnapshotRead``)."""
    return f"table.{token(table_id)}.snapshot"


def table_catch_up(table_id: str) -> str:
    """Requests: what a resuming viewer missed (``CatchUpRead``)."""
    return f"table.{token(table_id)}.catch_up"


def table_players(table_id: str) -> str:
    """Requests: who sits at the table (``PlayersRead``)."""
    return f"table.{token(table_id)}.players"


def table_chat(table_id: str) -> str:
    """Requests: what the table chat needs of the table before it takes a line (``ChatRead``)."""
    return f"table.{token(table_id)}.chat"


def table_keep_chat(table_id: str) -> str:
    """Requests: a chat line for the table process's recorder to keep (``ChatLine``)."""
    return f"table.{token(table_id)}.keep_chat"


def table_announce(table_id: str) -> str:
    """Requests: a frame the table's host sends everyone at the table (``Announce``: a chat line)."""
    return f"table.{token(table_id)}.announce"


@lru_cache(maxsize=65_536)
def player_stream(player_id: str) -> str:
    """What is the player's and no table's: the cashier's notices, their tournaments (a tournament moves its
    players between tables, so its hands reach them here, in one order with its events)."""
    return f"player.{token(player_id)}"


def casino_public(table_id: str) -> str:
    """A casino table's rounds as everyone at it may see them (each player's own bets go to their stream)."""
    return f"casino.{token(table_id)}.public"


@lru_cache(maxsize=65_536)
def casino_seat(table_id: str, player_id: str) -> str:
    """Everything one member of a casino table sees of it, their own bets and payouts among its rounds, in order."""
    return f"casino.{token(table_id)}.seat.{token(player_id)}"


def casino_command(table_id: str) -> str:
    """Requests: a casino table's command records (:mod:`pokerroom.casino.commands`), answered by the floor."""
    return f"casino.{token(table_id)}.command"


def casino_read(table_id: str) -> str:
    """Requests: a casino table's rules or results history (``CasinoRead``), answered by the floor."""
    return f"casino.{token(table_id)}.read"


def tournament_public(tournament_id: str) -> str:
    """A tournament's events, for its subscribers (its entrants hear them on their own streams)."""
    return f"tournament.{token(tournament_id)}.public"


def tournament_table(tournament_id: str, table_id: str) -> str:
    """A tournament table's hands as an observer may see them."""
    return f"tournament.{token(tournament_id)}.{token(table_id)}.public"


def tournament_command(tournament_id: str) -> str:
    """Requests: a player's or a director's command record for a tournament (:mod:`tournament.commands`),
    answered by the tournament hall."""
    return f"tournament.{token(tournament_id)}.command"


def tournament_read(tournament_id: str) -> str:
    """Requests: what the requests read of a tournament (an event's page, a refund's preview), answered by the
    tournament hall."""
    return f"tournament.{token(tournament_id)}.read"


def tournament_hand(tournament_id: str, hand_id: str) -> str:
    """Requests: a ``HandAct`` at a tournament hand played away from its director, answered by the process
    playing it (the hand's id in the subject: a process that played the table's last hand answers nothing of
    this one)."""
    return f"tournaments.hand.{token(tournament_id)}.{token(hand_id)}"
