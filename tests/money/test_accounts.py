"""The account-name vocabulary: every name reads back as what made it, no two accounts share a name, and no
module but ``pokerroom/money/accounts.py`` builds or tests account names as strings (DESIGN.md idea 3)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pokerroom import players
from pokerroom.errors import RuleViolation
from pokerroom.money import accounts, ledger
from pokerroom.money.accounts import Account, Kind, parse

ROOT = Path(__file__).resolve().parents[2]

# what the room lets through: nicknames (AC-3) and table / tournament ids a director may choose (any text,
# colons included), plus the characters that could confuse a reader weighted up
SEPARATORS = ":_- "
nicknames = st.from_regex(r"[A-Za-z0-9_\-]{3,20}", fullmatch=True)
player_ids = nicknames | st.text(alphabet=SEPARATORS + "ab", min_size=1).filter(lambda s: ":" not in s)
places = st.text(min_size=1, max_size=32) | st.text(alphabet=SEPARATORS + "ab", min_size=1, max_size=12) | \
    st.sampled_from(["pool", "x:pool", "t:ana", "cash", "house:rake", "table:t1"])


def _made() -> st.SearchStrategy[tuple[Account, str]]:
    """Every constructor, with what it should read back as."""
    p, t = player_ids, places
    return st.one_of(
        st.just((Account(Kind.WORLD), accounts.WORLD)),
        st.sampled_from(sorted(accounts.HOUSE_NAMES)).map(lambda h: (Account(Kind.HOUSE, purpose=h),
                                                                     accounts.house(h))),
        p.map(lambda a: (Account(Kind.WALLET, player=a), accounts.cash(a))),
        st.tuples(t, p).map(lambda x: (Account(Kind.TABLE, x[1], x[0]), accounts.table_escrow(*x))),
        st.tuples(t, p).map(lambda x: (Account(Kind.CASINO, x[1], x[0]), accounts.casino_escrow(*x))),
        st.tuples(t, st.sampled_from(sorted(accounts.TOURNAMENT_PURPOSES))).map(
            lambda x: (Account(Kind.TOURNAMENT, place=x[0], purpose=x[1]), accounts.tournament_account(*x))),
        st.tuples(t, p).map(lambda x: (Account(Kind.TICKET, x[1], x[0]), accounts.ticket(*x))),
        p.map(lambda a: (Account(Kind.TDOLLARS, player=a), accounts.tournament_dollars(a))),
        st.tuples(t, p).map(lambda x: (Account(Kind.PAYOUT, x[1], x[0]), accounts.payout(*x))),
    )


@given(_made())
def test_every_name_reads_back_as_what_made_it(made):
    account, name = made
    assert parse(name) == account
    assert account.name == name
    assert accounts.kind_of(name) is account.kind
    assert accounts.owner(name) == (account.player if account.kind in accounts.PLAYER_KINDS else None)


@given(st.lists(_made(), min_size=2, max_size=40))
def test_no_two_accounts_share_a_name(made):
    seen: dict[str, Account] = {}
    for account, name in made:
        assert seen.setdefault(name, account) == account


@given(st.text(alphabet=SEPARATORS + "abcehlorstuwyT$", max_size=30) | st.text(max_size=30))
def test_a_name_no_constructor_makes_reads_as_none(text):
    """Whatever text is read, it is either nothing or exactly the account whose constructor spells it."""
    account = parse(text)
    assert account is None or account.name == text


def test_the_separator_is_kept_out_of_players_and_names_with_it_read_from_the_right():
    assert parse(accounts.table_escrow("nl:10", "ana")) == Account(Kind.TABLE, "ana", "nl:10")
    assert parse(accounts.tournament_pool("sunday:pool")) == Account(Kind.TOURNAMENT, "", "sunday:pool", "pool")
    for bad in ("a:b", "", ":"):
        with pytest.raises(ValueError):
            accounts.cash(bad)
        with pytest.raises(ValueError):
            accounts.table_escrow("t1", bad)
    with pytest.raises(ValueError):
        accounts.casino_escrow("", "ana")
    with pytest.raises(ValueError):
        accounts.tournament_account("t", "fees")
    with pytest.raises(ValueError):
        accounts.house("bank")
    for text in ("", "world:x", "cash", "cash:a:b", "house:bank", "table:t1", "table::ana", "tournament:t:fees",
                 "rake", "tables:t1:ana"):
        assert parse(text) is None, text


@given(st.text(alphabet=SEPARATORS + "abc", min_size=3, max_size=20))
def test_AC_3_no_nickname_the_room_accepts_holds_the_separator(text):
    """The format's safety rests on this: the nickname rule never lets a colon through."""
    try:
        players.check_nickname(text, players.AccountRules())
    except RuleViolation:
        return
    assert accounts.SEPARATOR not in text
    accounts.cash(text)


def test_the_ledger_still_exports_the_names_callers_import():
    for name in ("WORLD", "HOUSE_RAKE", "HOUSE_FEES", "HOUSE_CASINO", "PROMOTIONS", "cash", "table_escrow",
                 "casino_escrow"):
        assert getattr(ledger, name) is getattr(accounts, name)
    houses = (accounts.HOUSE_RAKE, accounts.HOUSE_FEES, accounts.HOUSE_CASINO, accounts.PROMOTIONS,
              accounts.ROUNDING, accounts.PACKAGES)
    assert {parse(a) for a in houses} == {Account(Kind.HOUSE, purpose=h) for h in accounts.HOUSE_NAMES}


# ---------------------------------------------------------------------- structure: names come from one module

VOCABULARY = ROOT / "pokerroom" / "money" / "accounts.py"
SCANNED = ("pokerroom", "tournament", "lobby", "bench", "tests")
SUFFIXES = tuple(accounts.SEPARATOR + p for p in sorted(accounts.TOURNAMENT_PURPOSES))
KIND_WORDS = frozenset(k.value for k in Kind)


def _starts_a_name(text: object) -> bool:
    """``cash:...``, ``table:...``: a vocabulary prefix not followed by a space (``table: 3`` is prose)."""
    if type(text) is not str:
        return False
    for prefix in accounts.PREFIXES:
        if text.startswith(prefix):
            return len(text) == len(prefix) or not text[len(prefix)].isspace()
    return False


def _text(node: ast.AST) -> object:
    return node.value if isinstance(node, ast.Constant) else None


def string_built_names(source: str) -> list[int]:
    """Lines that build an account name by string (f-string, ``+``, ``%``, ``format``, ``":".join``) or hold
    a bare prefix or tournament suffix to test names with (``startswith("cash:")``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.JoinedStr):
            pieces = [_text(v) for v in node.values]
            built = (_starts_a_name(pieces[0]) or (len(pieces) > 1 and pieces[-1] in SUFFIXES)) if pieces else False
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod):
            built = _starts_a_name(_text(node.left)) or (isinstance(node.op, ast.Add) and _text(node.right) in SUFFIXES)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner, attr = _text(node.func.value), node.func.attr
            first = node.args[0] if node.args else None
            built = (attr == "format" and _starts_a_name(owner)) or (
                attr == "join" and owner == accounts.SEPARATOR and isinstance(first, ast.List | ast.Tuple)
                and bool(first.elts) and _text(first.elts[0]) in KIND_WORDS)
        elif isinstance(node, ast.Constant):
            built = node.value in accounts.PREFIXES or node.value in SUFFIXES
        else:
            built = False
        if built:
            found.append(node.lineno)
    return sorted(set(found))


def test_the_scan_finds_names_built_by_string_and_nothing_else():
    built = '''
a = f"cash:{p}"
b = "table:" + t + ":" + p
c = "casino:%s:%s" % (t, p)
d = "tdollars:{}".format(p)
e = ":".join(("ticket", t, p))
f = f"{t}:pool"
g = name.startswith(("house:", "tournament:"))
h = t + ":stakes"
'''
    assert string_built_names(built) == list(range(2, 10))
    prose = '''
a = f"tables: {', '.join(names)}"
b = f"table {t}: seat {s}" + "casino: closed"
c = market.split(":", 1)[0]
d = f"after round {n} {HOUSE_CASINO} holds {x}"
e = ":".join((host, port))
f = f"{t}:{p}"
g = "house:rake"
h = "the pool"
'''
    assert string_built_names(prose) == []


def test_no_module_but_the_vocabulary_builds_or_tests_account_names_by_string():
    mine = {VOCABULARY, Path(__file__).resolve()}
    offenders = []
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            if path.resolve() in mine:
                continue
            for line in string_built_names(path.read_text(encoding="utf-8")):
                offenders.append(f"{path.relative_to(ROOT)}:{line}")
    assert offenders == [], "use pokerroom.money.accounts to make and read account names: " + ", ".join(offenders)
