"""The chat and nickname filters see through spelling (HR-CHAT-2, AC-3), and leave ordinary lines and names alone."""

from __future__ import annotations

import unicodedata

import pytest
from confusable_homoglyphs import confusables as tr39
from hypothesis import given
from hypothesis import strategies as st

from pokerroom.conduct import OFFENSIVE_WORDS, STAFF_WORDS, chat_refusal, find_link, find_word, name_imitates
from pokerroom.errors import RuleViolation
from pokerroom.players import AccountRules, check_nickname

# What the review got through, and more of the same.
LINKS = ["evil . com", "evil\uff0ecom", "evil.xyz", "evil\u3002com", "EVIL.COM", "see evil. com now",
         "evil(dot)com", "evil [.] com", "evil dot com", "https://x", "www . x", "e v i l . c o m", "evil.poker",
         "evil.c\u03bfm", "hxxp://evil"]
WORDS = ["f\u057dck", "F U C K", "f.u.c.k", "sh1t", "fu ck you", "5h!t", "\uff46\uff55\uff43\uff4b", "f\u200bu\u200bck",
         "fu\u0301ck", "what the fuuck fuck"]
# Ordinary table talk: none of it may be blocked.
NORMAL_LINES = ["nice hand.", "gg", "2.5", "nice hand. so lucky", "wait...what", "ok. me too", "I had 2.5 bb",
                "lol", "AKs vs QQ", "e.g. a flush", "i.e. the river", "ty.", "good game everyone",
                "this hit the board", "gg wp", "no.", "3.14", "10:30", "$5", "Mr. Smith", "wp. gl", "U.S. players",
                "Dr. No", "it was 2am. go home", "nice.", "call.", "well played!!", "ok...", "A.K. suited",
                "if u c kings", "is hit", "raise to 4.5", "that was fun. win some lose some", "its hit",
                "hello,world", "I'm all in. Go!", "1.000 chips", "tilt. me? never", "J.T. of hearts", "0.5/1",
                "the dealer was slow", "ask support about it", "who is the director?", "2:1 pot odds"]
IMITATIONS = ["securlty", "dlrector", "adm1n", "dea1er", "Adm_in", "SUPP0RT", "m0derator", "d-i-r-e-c-t-o-r",
              "xXadminXx", "Sh1tHead"]
NORMAL_NAMES = ["alice", "bob_99", "PokerFan", "lucky7", "Ilona", "Olli", "river_rat", "NitNut", "dealmaker",
                "Sam-ssa", "ana", "ben", "carl", "d0nk", "fishy", "Lilly", "Joe_1990", "AcesUp", "Sec0ndBest"]


@pytest.mark.parametrize("line", LINKS)
def test_HR_CHAT_2_links_are_blocked_however_the_dot_is_written(line):
    assert chat_refusal(line) == "link"


@pytest.mark.parametrize("line", WORDS)
def test_HR_CHAT_2_offensive_words_are_blocked_through_look_alikes_and_separators(line):
    assert chat_refusal(line) == "word"


@pytest.mark.parametrize("line", NORMAL_LINES)
def test_HR_CHAT_2_ordinary_table_talk_passes(line):
    assert chat_refusal(line) is None


@pytest.mark.parametrize("name", IMITATIONS)
def test_AC_3_nicknames_that_spell_a_staff_role_or_a_bad_word_are_refused(name):
    with pytest.raises(RuleViolation) as refused:
        check_nickname(name, AccountRules())
    assert refused.value.code == "nickname_refused" and refused.value.rule_id == "AC-3"


@pytest.mark.parametrize("name", NORMAL_NAMES)
def test_AC_3_ordinary_nicknames_are_allowed(name):
    check_nickname(name, AccountRules())


def test_HR_CHAT_2_a_room_sets_its_own_word_list():
    rules = AccountRules.from_config({"accounts": {"banned_words": ["donk"], "staff_words": ["boss"]}})
    assert chat_refusal("d 0 n k", rules.banned_words) == "word" and chat_refusal("fish", rules.banned_words) is None
    with pytest.raises(RuleViolation):
        check_nickname("the_b0ss", rules)


SEPARATORS = st.text(alphabet=" .-_*~/\\,\u200b\u00b7", min_size=0, max_size=3)    # not "|": it reads "l"
PLAIN = st.text(alphabet="abcdefghjkmnpqrtvwxyz ", max_size=20)       # words that cannot spell one on their own


def _lookalikes(char: str) -> list[str]:
    """Single characters TR39 lists as confusable with ``char`` (NFKC's own foldings come first: it reads "ſ" as s)."""
    found = [g["c"].strip("\u200e") for g in tr39.confusables_data.get(char, ())]
    return [c for c in found if len(c) == 1 and not c.isascii() and unicodedata.normalize("NFKC", c) == c]


@given(st.sampled_from(OFFENSIVE_WORDS + STAFF_WORDS), st.data(), PLAIN, PLAIN)
def test_HR_CHAT_2_inserting_separators_never_hides_a_word(word, data, before, after):
    spaced = "".join(c + data.draw(SEPARATORS) for c in word[:-1]) + word[-1]
    line = f"{before} {spaced} {after}"
    assert find_word(line, [word]) is not None


@given(st.sampled_from(OFFENSIVE_WORDS + STAFF_WORDS), st.data(), PLAIN, PLAIN)
def test_HR_CHAT_2_substituting_look_alike_letters_never_hides_a_word(word, data, before, after):
    disguised = "".join(data.draw(st.sampled_from([c, c.upper(), *_lookalikes(c)])) for c in word)
    assert find_word(f"{before} {disguised} {after}", [word]) is not None
    assert name_imitates(disguised, [word]) is not None


@given(st.from_regex(r"[a-z][a-z0-9]{0,12}", fullmatch=True),
       st.sampled_from([".", " . ", " .", "\uff0e", "\u3002", "\uff61", "(dot)", " [.] ", " dot "]),
       st.sampled_from(["com", "net", "org", "io", "xyz", "ru", "info"]))
def test_HR_CHAT_2_a_name_a_dot_and_a_top_level_domain_is_a_link(name, dot, tld):
    assert find_link(f"join me at {name}{dot}{tld} tonight") is not None
