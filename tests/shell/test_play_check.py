"""The one may-play check (STAFF-2): a standing may play exactly when nothing forbids it, and each refusal
carries its code and rule, said to the player ("you") or of the player a director named."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from pokerroom.players import ROLES, AccountRules
from pokerroom.shell.play_check import Standing, refusal

RULES = AccountRules(countries={"NL", "DE"})
NOW = 1_000.0

STANDINGS = st.builds(Standing, nickname=st.sampled_from(["ana", "Bob_7"]), role=st.sampled_from(ROLES),
                      country=st.sampled_from(["NL", "DE", "US"]),
                      excluded_until=st.none() | st.sampled_from([NOW - 1, NOW, NOW + 1, float("inf")]),
                      closed=st.booleans(), frozen=st.booleans())


@given(STANDINGS, st.booleans())
def test_STAFF_2_SEC_2_AC_2_AC_5_a_standing_may_play_exactly_when_nothing_forbids_it(standing, own):
    forbidden = {
        ("account_closed", "AC-1"): standing.closed,
        ("staff_may_not_play", "SEC-2"): standing.role in ("security", "admin"),
        ("account_frozen", "SEC-4"): standing.frozen,
        ("restricted_country", "AC-2"): standing.country not in RULES.countries,
        ("self_excluded", "AC-5"): standing.excluded_until is not None and NOW < standing.excluded_until,
    }
    refused = refusal(standing, RULES, NOW, own=own)
    if not any(forbidden.values()):
        assert refused is None
    else:
        assert refused is not None and forbidden[(refused.code, refused.rule_id)]
        assert (standing.nickname in refused.message) is not own      # "you", or the named player
