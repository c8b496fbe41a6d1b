"""Every subject the room's services use, built in one place.

A table id or a nickname becomes one token: the characters the bus gives a
meaning to (``.``, ``*``, ``>``) and ``%`` itself are percent-encoded, so no
name can reach another's subject.
"""

from __future__ import annotations

from functools import lru_cache

TABLE_FULL = "table.*.full"          # every table's batches as plain TableBatch records, for listeners (the narrator)
TABLE_CLOSED = "table.*.closed"      # a table has left the room
LOBBY_CHANGED = "lobby.changed"      # payload: the id of a table whose lobby line changed
LOBBY_UPDATE = "lobby.update"        # the lobby feed's coalesced update, for lobby subscribers
SESSION_EVENTS = "session.events"    # SessionGone / SessionBack records: one subject, so their order is kept


@lru_cache(maxsize=65_536)
def token(name: str) -> str:
    if not name:
        return "%"
    return (name.replace("%", "%25").replace(".", "%2E").replace("*", "%2A").replace(">", "%3E")
            .replace(" ", "%20"))


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


def tournament_public(tournament_id: str) -> str:
    """A tournament's events, for its subscribers (its entrants hear them on their own streams)."""
    return f"tournament.{token(tournament_id)}.public"


def tournament_table(tournament_id: str, table_id: str) -> str:
    """A tournament table's hands as an observer may see them."""
    return f"tournament.{token(tournament_id)}.{token(table_id)}.public"
