"""Who may register and play (AC-1, AC-2, AC-3, AC-5, AC-6), passwords and tokens."""

from __future__ import annotations

from datetime import date

import pytest

from pokerroom.errors import RuleViolation
from pokerroom.players import (
    AccountRules,
    aml_flag,
    check_may_play,
    check_registration,
    hash_password,
    new_session_token,
    nickname_key,
    password_matches,
)
from tests.support.refusals import refused

TODAY = date(2026, 12, 2)
RULES = AccountRules()


def test_AC_1_an_adult_registers_and_a_minor_is_refused_to_the_day():
    check_registration("Ana_99", "2008-12-02", "NL", RULES, TODAY)          # 18 today
    assert refused(check_registration, "Ana_99", "2008-12-03", "NL", RULES, TODAY).code == "under_age"
    assert refused(check_registration, "Ana_99", "2008-02-30", "NL", RULES, TODAY).rule_id == "AC-1"
    assert refused(check_registration, "Ana_99", "2030-01-01", "NL", RULES, TODAY).code == "bad_birth_date"


def test_AC_2_a_country_not_on_the_list_is_refused_and_the_list_can_change_at_run_time():
    assert refused(check_registration, "Ana_99", "1990-01-01", "US", RULES, TODAY).code == "restricted_country"
    rules = AccountRules()
    check_may_play("NL", None, False, rules, 0.0)
    rules.countries.discard("NL")
    with pytest.raises(RuleViolation) as caught:
        check_may_play("NL", None, False, rules, 0.0)
    assert caught.value.rule_id == "AC-2" and "withdraw" in caught.value.message


def test_AC_3_nicknames_are_filtered_and_keyed_without_case():
    assert refused(check_registration, "a", "1990-01-01", "NL", RULES, TODAY).code == "bad_nickname"
    assert refused(check_registration, "xXadminXx", "1990-01-01", "NL", RULES, TODAY).code == "nickname_refused"
    assert refused(check_registration, "Ana Bo", "1990-01-01", "NL", RULES, TODAY).rule_id == "AC-3"
    assert nickname_key("AnA") == nickname_key("ana")


def test_AC_5_an_excluded_or_closed_account_may_not_play():
    with pytest.raises(RuleViolation) as caught:
        check_may_play("NL", 100.0, False, RULES, 50.0)
    assert caught.value.rule_id == "AC-5"
    check_may_play("NL", 100.0, False, RULES, 100.0)
    with pytest.raises(RuleViolation):
        check_may_play("NL", float("inf"), False, RULES, 1e12)          # permanent
    with pytest.raises(RuleViolation):
        check_may_play("NL", None, True, RULES, 0.0)


def test_AC_6_large_movements_are_flagged():
    assert aml_flag(RULES.aml_threshold, RULES) and not aml_flag(RULES.aml_threshold - 1, RULES)


def test_passwords_are_argon2id_and_tokens_are_long_and_random():
    digest = hash_password("correct horse")
    assert digest.startswith("$argon2id$")
    assert password_matches(digest, "correct horse") and not password_matches(digest, "wrong")
    assert not password_matches("not a hash", "x")
    tokens = {new_session_token() for _ in range(100)}
    assert len(tokens) == 100 and all(len(t) >= 32 for t in tokens)


def test_AC_3_nicknames_of_the_rooms_own_accounts_are_refused():
    for name in ("rake", "Fees", "house", "world"):
        assert refused(check_registration, name, "1990-01-01", "NL", RULES, TODAY).code == "nickname_refused"


def test_AC_2_account_rules_come_from_the_config_and_a_misspelt_key_is_refused():
    rules = AccountRules.from_config({"accounts": {"countries": ["NL", "TR"], "min_age": 21,
                                                   "password_attempts_per_minute": 5}})
    assert rules.countries == {"NL", "TR"} and rules.min_age == 21 and rules.password_attempts_per_minute == 5
    assert AccountRules.from_config({}) == AccountRules()
    with pytest.raises(ValueError, match="min_agee"):
        AccountRules.from_config({"accounts": {"min_agee": 21}})
