"""What players may write: no links or offensive words in chat (HR-CHAT-2), no names that pass for staff (AC-3).

A filter that compares raw text is beaten by spelling: ``evil . com``,
``evil．com``, ``fսck`` (an Armenian letter), ``F U C K``, ``adm1n``. So
every test here runs on a *skeleton* of the text:

1. NFKD, which folds full-width and other compatibility forms and takes
   accents apart from their letters; combining marks and invisible format
   characters are dropped, and NFKC puts the rest together again;
2. every other non-ASCII character replaced by its ASCII look-alike from
   Unicode TR39's confusables table (the ``confusable-homoglyphs`` package);
3. casefolded.

Words are matched on the skeleton with common ASCII stand-ins folded too
(``1 l i ! |`` all read ``i``, ``0`` reads ``o``, ``3 e``, ``4 @ a``,
``5 $ s``) and separators removed: inside a word (``f.u.c.k``, ``f*ck`` is not
a spelling of it), and across words when the match starts where a word starts
(``F U C K``, ``fu ck``), so that ``this hit`` is not ``shit``.

A link is a name, a dot and a top-level domain that exists. The dot may be
spaced, full-width, ideographic or written ``(dot)``; the domains come from
the Public Suffix List snapshot that ``tldextract`` ships, read once at import
and never fetched. A dot with a space only after it ends a sentence
(``nice hand. so what``), so there only the top-level domains that are no
English word count as a link.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache

import tldextract
from confusable_homoglyphs import confusables as tr39

# Offensive words refused in chat and in nicknames (HR-CHAT-2, AC-3); a room may set its own list.
OFFENSIVE_WORDS = ("fuck", "shit", "cunt", "bitch", "asshole", "wanker")
# Names of the room's staff roles: no nickname may look like one (AC-3).
STAFF_WORDS = ("admin", "security", "director", "dealer", "support", "moderator", "staff", "cashier",
               "croupier")

_DOTS = {ord(c): "." for c in "\u3002\uff0e\uff61\u2024\ufe52"}      # IDNA's label separators and look-alikes
_STAND_INS = str.maketrans({"1": "i", "l": "i", "!": "i", "|": "i", "0": "o", "3": "e", "4": "a", "@": "a",
                            "5": "s", "$": "s"})
_DROPPED = frozenset({"Mn", "Me", "Cf"})                                # combining marks, zero-width characters
# Top-level domains a sentence does not begin with: ``evil. com`` is a link, ``nice hand. so what`` is not.
_SPELLED_TLDS = frozenset({"com", "net", "org", "io", "xyz", "ru", "cn", "info", "biz", "top", "tk", "cc"})


def _ascii_lookalike(char: str) -> str | None:
    """The ASCII character TR39 says ``char`` is confusable with: a small letter first, then a digit."""
    found = [g["c"].strip("\u200e") for g in tr39.confusables_data.get(char, ())]
    found = [c for c in found if len(c) == 1 and c.isascii() and c.isprintable()]
    for kind in (str.islower, str.isdigit, str.isupper):
        for c in found:
            if kind(c):
                return c
    return found[0] if found else None


@cache
def _skeleton_table() -> dict[int, str]:
    table = {ord(c.strip("\u200e")): a for c in tr39.confusables_data     # right-to-left ones come marked
             if len(c.strip("\u200e")) == 1 and not c.isascii() and (a := _ascii_lookalike(c)) is not None}
    table.update(_DOTS)
    return table


@cache
def _tlds() -> frozenset[str]:
    """Every top-level domain in the bundled Public Suffix List (no network: no suffix list URLs, no cache)."""
    suffixes = tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None).tlds
    return frozenset(s.rsplit(".", 1)[-1].lstrip("!*").casefold() for s in suffixes)


def prepare() -> None:
    """Build the look-alike table and read the domain list now (a tenth of a second), not on a first chat line."""
    _skeleton_table()
    _tlds()


def skeleton(text: str) -> str:
    """``text`` as its look-alike ASCII where there is one, casefolded (the TR39 idea, to ASCII prototypes)."""
    text = unicodedata.normalize("NFKD", text)                 # marks apart from their letters, then dropped
    text = unicodedata.normalize("NFKC", "".join(c for c in text if unicodedata.category(c) not in _DROPPED))
    return text.translate(_skeleton_table()).casefold()


def _folded(text: str) -> str:
    return skeleton(text).translate(_STAND_INS)


def _words(text: str) -> list[str]:
    """The words of ``text``: folded, with everything but letters and digits taken out of each."""
    words = ["".join(c for c in w if c.isalnum()) for w in _folded(text).split()]
    return [w for w in words if w]


@cache
def _folded_words(words: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(w for w in ("".join(c for c in _folded(word) if c.isalnum()) for word in words) if w)


def find_word(text: str, words: Iterable[str]) -> str | None:
    """The first of ``words`` spelled in ``text``, however disguised, or ``None``."""
    tokens = _words(text)
    starts, ends, at = set(), [], 0
    for token in tokens:
        starts.add(at)
        at += len(token)
        ends.append(at)
    joined = "".join(tokens)
    for word in _folded_words(tuple(words)):
        i = joined.find(word)
        while i >= 0:
            end_of_token = next(e for e in ends if e > i)
            if i in starts or i + len(word) <= end_of_token:      # from a word's start, or inside one word
                return word
            i = joined.find(word, i + 1)
    return None


def name_imitates(nickname: str, words: Iterable[str]) -> str | None:
    """Which of ``words`` (staff roles, offensive words) the nickname spells, ignoring ``_``, ``-`` and look-alikes."""
    key = "".join(c for c in _folded(nickname) if c.isalnum())
    return next((w for w in _folded_words(tuple(words)) if w in key), None)


_SCHEME = re.compile(r"\b[a-z][a-z0-9+.-]*\s*:\s*/\s*/|\bwww\s*\.")
_DOMAIN = re.compile(r"(?<=[^\W_])(\s*)(\.|\(\s*dot\s*\)|\[\s*dot\s*\]|\[\s*\.\s*\]|\(\s*\.\s*\))(\s*)"
                     r"([^\W\d_]{2,63})(?!\w)")
_SPOKEN_DOT = re.compile(r"(?<=[^\W_])\s+dot\s+([a-z]{2,6})(?!\w)")


def _glued(view: str) -> str:
    """Runs of one-character words put back together: ``e v i l . c o m`` reads ``evil.com``."""
    words: list[str] = []
    single = False
    for word in view.split():
        if len(word) == 1 and single:
            words[-1] += word
        else:
            words.append(word)
            single = len(word) == 1
    return " ".join(words)


def find_link(text: str) -> str | None:
    """The first thing in ``text`` that reads as a web address, or ``None``."""
    view = skeleton(text)
    return _find_link(view) or _find_link(_glued(view))


def _find_link(view: str) -> str | None:
    found = _SCHEME.search(view)
    if found:
        return found.group(0)
    tlds = _tlds()
    for match in _DOMAIN.finditer(view):
        before, dot, after, tld = match.groups()
        if tld not in tlds:
            continue
        if len(dot) > 1 or not after or before or tld in _SPELLED_TLDS:
            return match.group(0).strip()
    for match in _SPOKEN_DOT.finditer(view):
        if match.group(1) in _SPELLED_TLDS:
            return match.group(0).strip()
    return None


def chat_refusal(text: str, offensive_words: Iterable[str] = OFFENSIVE_WORDS) -> str | None:
    """Why a chat line is blocked (HR-CHAT-2): ``"link"``, ``"word"``, or ``None`` when it may be shown."""
    if find_link(text) is not None:
        return "link"
    if find_word(text, offensive_words) is not None:
        return "word"
    return None
