"""Bot passwords that nobody can work out from a bot's name.

Bots once logged in with ``bot-password-<name>``: anyone could take over the
bots an operator ran against a real room. Now each bot's password is
HMAC-SHA256 of its nickname under a secret: the operator's (the
``POKERROOM_BOT_SECRET`` environment variable, or a file), or, in a demo room,
one made at random and kept in the room's data directory so that the demo's
bots log in again after a restart. ``pokerroom bots`` refuses to run against a
room that is not in demo mode unless it was given the secret.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from urllib.error import HTTPError
from urllib.parse import urlsplit, urlunsplit
from urllib.request import urlopen

SECRET_ENV = "POKERROOM_BOT_SECRET"
DEMO_SECRET_FILE = "bot-secret"


def bot_password(secret: bytes, nickname: str) -> str:
    """The password of the bot ``nickname`` under ``secret``."""
    digest = hmac.new(secret, nickname.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def new_secret() -> bytes:
    return secrets.token_bytes(32)


def demo_secret(data_dir: str | Path) -> bytes:
    """The demo room's bot secret, made once and kept (owner-readable only) beside its database."""
    path = Path(data_dir) / DEMO_SECRET_FILE
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as out:
            out.write(secrets.token_urlsafe(32))
    return path.read_text().strip().encode()


def operator_secret(secret_file: str | None, environ: Mapping[str, str]) -> bytes | None:
    """The secret the operator gave: a file first, then the environment; ``None`` when there is none."""
    if secret_file:
        text = Path(secret_file).read_text().strip()
        if len(text) < 16:
            raise ValueError(f"{secret_file} holds fewer than 16 characters: not a secret")
        return text.encode()
    text = environ.get(SECRET_ENV, "").strip()
    if text and len(text) < 16:
        raise ValueError(f"{SECRET_ENV} is shorter than 16 characters: not a secret")
    return text.encode() or None


def room_is_demo(ws_url: str, timeout: float = 10.0) -> bool:
    """Whether the room at ``ws_url`` says, on its ``/health`` page, that it runs in demo mode."""
    parts = urlsplit(ws_url)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme)
    if scheme is None:
        raise ValueError(f"{ws_url!r} is not a ws:// or wss:// address")
    try:
        with urlopen(urlunsplit((scheme, parts.netloc, "/health", "", "")), timeout=timeout) as answer:  # noqa: S310
            body = answer.read()
    except HTTPError as refused:            # 503 while it drains for a deploy: the page still says what it is
        body = refused.read()
    return json.loads(body or b"{}").get("demo") is True
