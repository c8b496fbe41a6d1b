"""Account names: the one place the ledger's account names are made and read (DESIGN.md idea 3, AC-6).

Every name has a kind, the text before its first colon, and a fixed shape::

    world                               money outside the room
    house:<name>                        the house's own accounts (HOUSE_NAMES)
    cash:<player>                       a player's wallet
    table:<table>:<player>              a player's chips at a cash table (escrow)
    casino:<table>:<player>             a player's stakes on the round in play at a casino table
    tournament:<tournament>:<purpose>   a tournament's pool, bounties, guarantee or stakes (TOURNAMENT_PURPOSES)
    ticket:<tournament>:<player>        a seat won to a tournament, waiting for the player to enter (TR-PRIZE-5)
    tdollars:<player>                   T$: money only for tournament entries (TR-PRIZE-5)
    payout:<reference>:<player>         a withdrawal held until the payment provider pays it (the cashier)

Why a name reads back as exactly one account: a player's name never holds a
colon (nicknames are letters, digits, ``_`` and ``-``, AC-3; the constructors
refuse a colon), so the player, or a tournament account's purpose, is what
follows the last colon, and a table or tournament id -- which a director may
spell with colons -- is everything between the kind and that. The names are
the ones the stored ledger already holds, so no stored row changes.

Pure: no Twisted, SQLAlchemy or msgpack. Other modules call the constructors
and :func:`parse` instead of building or testing names as strings (a test
scans the source for that).
"""

from __future__ import annotations

from enum import Enum
from functools import lru_cache
from typing import NamedTuple


class Kind(Enum):
    """What an account holds; the value is the name's first part."""

    WORLD = "world"
    HOUSE = "house"
    WALLET = "cash"
    TABLE = "table"
    CASINO = "casino"
    TOURNAMENT = "tournament"
    TICKET = "ticket"
    TDOLLARS = "tdollars"
    PAYOUT = "payout"


SEPARATOR = ":"

WORLD = Kind.WORLD.value
HOUSE_RAKE = "house:rake"
HOUSE_FEES = "house:fees"
HOUSE_CASINO = "house:casino"              # the casino games' result; below zero while players are ahead
PROMOTIONS = "house:promotions"            # set aside for guarantees, overlays and freerolls (STAFF-1)
ROUNDING = "house:rounding"                # the odd minor units a split of prizes or bounties leaves
PACKAGES = "house:packages"                # substituted prizes the room delivers (TR-PRIZE-4)
HOUSE_NAMES = frozenset({"rake", "fees", "casino", "promotions", "rounding", "packages"})   # what follows house:

POOL, BOUNTIES, GUARANTEE, STAKES = "pool", "bounties", "guarantee", "stakes"
TOURNAMENT_PURPOSES = frozenset({POOL, BOUNTIES, GUARANTEE, STAKES})

PLAYER_KINDS = frozenset({Kind.WALLET, Kind.TABLE, Kind.CASINO, Kind.TICKET, Kind.TDOLLARS,
                          Kind.PAYOUT})                          # a player's money
ESCROWS = frozenset({Kind.TABLE, Kind.CASINO})     # chips on a table, returned to the wallet after a crash (CR-5)
# A room on several processes: these accounts' truth is their database row, since any process may move them (a
# player's wallet, T$ and tickets, a withdrawal's payout, the room's own); the others -- a table's, a casino
# round's, a tournament's -- are escrow, kept in memory by the one process that owns the table or the event.
SHARED_KINDS = frozenset({Kind.WORLD, Kind.HOUSE, Kind.WALLET, Kind.TDOLLARS, Kind.TICKET, Kind.PAYOUT})
PREFIXES = tuple(k.value + SEPARATOR for k in Kind if k is not Kind.WORLD)


def _player(player: str) -> str:
    if type(player) is not str or not player or SEPARATOR in player:
        raise ValueError(f"a player in an account name is a non-empty name without {SEPARATOR!r}, not {player!r}")
    return player


def _place(place: str) -> str:
    if type(place) is not str or not place:
        raise ValueError(f"a table or tournament in an account name is a non-empty id, not {place!r}")
    return place


def cash(player: str) -> str:
    """The player's wallet."""
    return "cash:" + _player(player)


def table_escrow(table: str, player: str) -> str:
    """The player's chips at a cash table: between hands, their stack."""
    return f"table:{_place(table)}:{_player(player)}"


def casino_escrow(table: str, player: str) -> str:
    """The player's stakes on the round in play at a casino table."""
    return f"casino:{_place(table)}:{_player(player)}"


def tournament_account(tournament: str, purpose: str) -> str:
    """One of a tournament's own accounts: ``purpose`` is one of TOURNAMENT_PURPOSES."""
    if purpose not in TOURNAMENT_PURPOSES:
        raise ValueError(f"a tournament account is one of {sorted(TOURNAMENT_PURPOSES)}, not {purpose!r}")
    return f"tournament:{_place(tournament)}:{purpose}"


def tournament_pool(tournament: str) -> str:
    return tournament_account(tournament, POOL)


def tournament_bounties(tournament: str) -> str:
    return tournament_account(tournament, BOUNTIES)


def tournament_guarantee(tournament: str) -> str:
    """House money held for this event (STAFF-1): its guarantee, reserved from promotions when it is created;
    overlays and prizes the house adds are paid from here, and what is left goes back to promotions."""
    return tournament_account(tournament, GUARANTEE)


def tournament_stakes(tournament: str) -> str:
    """Stake prices held until the staked player's outcome (TR-STAKE-2, TR-STAKE-3)."""
    return tournament_account(tournament, STAKES)


def ticket(tournament: str, player: str) -> str:
    """A seat won to ``tournament`` (TR-PRIZE-5): its value waits here until the player enters."""
    return f"ticket:{_place(tournament)}:{_player(player)}"


def payout(reference: str, player: str) -> str:
    """A withdrawal taken from the player's wallet and held until the payment provider pays it out (or refuses
    it, and it goes back): one account per withdrawal, so a restart finds each one unfinished, with its amount."""
    return f"payout:{_place(reference)}:{_player(player)}"


def tournament_dollars(player: str) -> str:
    """T$: money only for tournament entries (TR-PRIZE-5)."""
    return "tdollars:" + _player(player)


def house(name: str) -> str:
    """A house account by its short name (``rake``, ``fees`` ...): one of HOUSE_NAMES."""
    if name not in HOUSE_NAMES:
        raise ValueError(f"a house account is one of {sorted(HOUSE_NAMES)}, not {name!r}")
    return "house:" + name


class Account(NamedTuple):
    """An account name read back: its kind and parts ("" where the kind has no such part)."""

    kind: Kind
    player: str = ""        # whose money: wallets, escrows, tickets, T$
    place: str = ""         # the table (escrows) or tournament (tournament accounts, tickets)
    purpose: str = ""       # a house account's short name, or a tournament account's purpose

    @property
    def name(self) -> str:
        """The account name this was read from."""
        return _MAKERS[self.kind](self)


_MAKERS = {
    Kind.WORLD: lambda a: WORLD,
    Kind.HOUSE: lambda a: house(a.purpose),
    Kind.WALLET: lambda a: cash(a.player),
    Kind.TABLE: lambda a: table_escrow(a.place, a.player),
    Kind.CASINO: lambda a: casino_escrow(a.place, a.player),
    Kind.TOURNAMENT: lambda a: tournament_account(a.place, a.purpose),
    Kind.TICKET: lambda a: ticket(a.place, a.player),
    Kind.TDOLLARS: lambda a: tournament_dollars(a.player),
    Kind.PAYOUT: lambda a: payout(a.place, a.player),
}
_KINDS = {k.value: k for k in Kind}


@lru_cache(maxsize=1 << 16)
def parse(name: str) -> Account | None:
    """What ``name`` is, or None if it is no account name of the room (nothing else makes a name).

    Cached: the room reads the same few thousand names over and over (a scan of every balance, a casino
    round's check)."""
    if name == WORLD:
        return Account(Kind.WORLD)
    head, _, rest = name.partition(SEPARATOR)
    kind = _KINDS.get(head)
    if kind is None or kind is Kind.WORLD or not rest:
        return None
    if kind is Kind.HOUSE:
        return Account(kind, "", "", rest) if rest in HOUSE_NAMES else None
    if kind is Kind.WALLET or kind is Kind.TDOLLARS:
        return Account(kind, rest) if SEPARATOR not in rest else None
    place, _, last = rest.rpartition(SEPARATOR)
    if not place or not last:
        return None
    if kind is Kind.TOURNAMENT:
        return Account(kind, "", place, last) if last in TOURNAMENT_PURPOSES else None
    return Account(kind, last, place)


def kind_of(name: str) -> Kind | None:
    """The kind of account ``name`` is, or None if it is none of the room's."""
    account = parse(name)
    return None if account is None else account.kind


def is_shared(name: str) -> bool:
    """Whether ``name``'s balance is the database's (SHARED_KINDS) rather than an owning process's escrow."""
    return kind_of(name) in SHARED_KINDS


class SharedAccounts:
    """The shared accounts as a container (``name in SHARED``): what a ledger leaves to the database to guard."""

    __slots__ = ()

    def __contains__(self, name: object) -> bool:
        return type(name) is str and is_shared(name)


SHARED = SharedAccounts()


def is_wallet(name: str) -> bool:
    return kind_of(name) is Kind.WALLET


def owner(name: str) -> str | None:
    """The player whose money the account holds (wallet, escrow, ticket, T$), or None (the house's, a
    tournament's, the world's, or no account of the room)."""
    account = parse(name)
    return account.player if account is not None and account.kind in PLAYER_KINDS else None
