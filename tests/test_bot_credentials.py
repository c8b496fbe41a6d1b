"""Bot passwords come from a secret, never from the bot's name alone (issue 18: bots could be taken over)."""

from __future__ import annotations

import stat

import pytest

from pokerroom.bot_credentials import SECRET_ENV, bot_password, demo_secret, new_secret, operator_secret


def test_a_bots_password_depends_on_the_secret_and_differs_per_bot():
    secret = new_secret()
    assert bot_password(secret, "bot001") == bot_password(secret, "bot001")
    assert bot_password(secret, "bot001") != bot_password(secret, "bot002")
    assert bot_password(secret, "bot001") != bot_password(new_secret(), "bot001")
    assert "bot001" not in bot_password(secret, "bot001") and len(bot_password(secret, "bot001")) >= 40


def test_a_demo_rooms_secret_is_made_once_and_readable_by_its_owner_only(tmp_path):
    first = demo_secret(tmp_path / "data")
    assert demo_secret(tmp_path / "data") == first and len(first) >= 32
    assert stat.S_IMODE((tmp_path / "data" / "bot-secret").stat().st_mode) == 0o600
    assert demo_secret(tmp_path / "other") != first


def test_the_operators_secret_comes_from_a_file_or_the_environment_and_must_be_long(tmp_path):
    assert operator_secret(None, {}) is None
    assert operator_secret(None, {SECRET_ENV: "x" * 20}) == b"x" * 20
    kept = tmp_path / "secret"
    kept.write_text("y" * 30 + "\n")
    assert operator_secret(str(kept), {SECRET_ENV: "x" * 20}) == b"y" * 30
    with pytest.raises(ValueError, match=SECRET_ENV):
        operator_secret(None, {SECRET_ENV: "short"})
