"""How the room's bus logs in to NATS: the credentials and TLS a bus URL names, never shown.

Anyone who can publish on the room's NATS subjects speaks for a process of the room (a ``wallet.*`` request is
answered as one), so a room's NATS is locked: a login, and TLS off loopback (docs/operations.md, "Several
processes").

* ``nats://user:password@host:4222/ROOM``: a user and its password; ``nats://token@host:4222/ROOM``: a token.
* :data:`PASSWORD_ENV` keeps the secret off the command line (``ps`` shows a command line to every local user):
  with ``nats://user@host/ROOM`` it is that user's password; with no user in the URL, the token.
* ``tls://host:4222/ROOM``: TLS, the server's certificate checked against :attr:`BusTls.ca` (else the system's
  CAs); :attr:`BusTls.cert` and :attr:`BusTls.key` are this process's own certificate where the server asks for one.

The secret is given to nats-py as options, never in a server URL, so what nats-py or the room logs names no secret;
:func:`shown` is a URL as the room prints it (``nats://alice:***@host:4222/ROOM``).
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

PASSWORD_ENV = "POKERROOM_BUS_PASSWORD"
SCHEMES = ("nats", "tls")
REFUSED_LOGIN = "Authorization Violation"          # what nats-server answers a CONNECT it does not accept


class BusRefused(ConnectionError):
    """The NATS server answered but would not take the room: its login refused, or TLS failed."""


class NoTls(ssl.SSLError):
    """A ``tls://`` bus's server went on without TLS: the login is not sent."""


@dataclass(frozen=True)
class BusTls:
    """The TLS files of ``serve --bus-ca/--bus-cert/--bus-key`` (paths; "" for none)."""

    ca: str = ""
    cert: str = ""
    key: str = ""


def shown(url: str) -> str:
    """``url`` as the room may print it: each server's password or token replaced by ``***``."""
    out = []
    for server in url.split(","):
        scheme, sep, rest = server.partition("://")
        userinfo, at, _ = rest.partition("/")[0].rpartition("@")
        if at:
            user, colon, _ = userinfo.partition(":")
            rest = (f"{user}:***" if colon else "***") + "@" + rest[len(userinfo) + 1:]
        out.append(scheme + sep + rest)
    return ",".join(out)


class NatsLogin:
    """What the room's NATS connection logs in with: a user and password, or a token, or neither; and TLS."""

    __slots__ = ("user", "_secret", "tls", "where")

    def __init__(self, user: str = "", secret: str = "", tls: TlsContext | None = None, where: str = "") -> None:
        self.user, self._secret, self.tls, self.where = user, secret, tls, where

    def __repr__(self) -> str:
        return f"NatsLogin({self.named()})"

    def named(self) -> str:
        """Who logs in, without the secret: for logs and refusals."""
        who = f"user {self.user!r}" if self.user else "a token" if self._secret else "no credentials"
        return who + (", TLS" if self.tls is not None else "")

    def options(self) -> dict[str, Any]:
        """nats-py's ``connect`` options for this login; on TLS the secret is a call nats-py makes as it logs in."""
        options: dict[str, Any] = {}
        secret: Any = self._secret if self.tls is None else self._sent
        if self.user:
            options.update(user=self.user, password=secret)
        elif self._secret or self.tls is not None:  # on TLS, an empty token without a login: the check still runs
            options["token"] = secret
        if self.tls is not None:
            options["tls"] = self.tls
        return options

    def _sent(self) -> str:
        """The secret, once this connection's TLS handshake was made. nats-py starts TLS only when the server's
        greeting asks for it, even for a ``tls://`` URL: a server without TLS, or someone on the path rewriting
        the greeting, would be sent the login, and then the room's traffic, in clear."""
        if not isinstance(self.tls, TlsContext) or not self.tls.handshaken():
            raise NoTls("the server did not start TLS")
        return self._secret

    async def connect(self, connect: Callable[..., Awaitable[Any]], **options: Any) -> Any:
        """``connect(**options)`` with this login; a refused login or a failed TLS handshake is :class:`BusRefused`
        with a sentence (nats-py would end with "no servers available", having told only its error callback)."""
        refused: list[BusRefused] = []             # the first refusal while connecting: later errors say less

        async def noted(error: BaseException) -> None:
            refusal = self.refusal(error)
            if refusal is not None and not refused and not attempt.done():
                refused.append(refusal)
            await told(error)
            if isinstance(error, ssl.SSLError) and not attempt.done():
                attempt.cancel()                    # nats-py would wait for ever on the socket its handshake failed

        told = options["error_cb"]
        attempt = asyncio.ensure_future(connect(**{**options, **self.options(), "error_cb": noted}))
        try:
            return await attempt
        except asyncio.CancelledError:
            if not refused:
                raise                               # cancelled from outside, not for a failed handshake
            raise refused[0] from None
        except Exception:
            if not refused:
                raise
            raise refused[0] from None

    def refusal(self, error: BaseException) -> BusRefused | None:
        """The sentence for ``error`` if the server refused this login or TLS failed; None for anything else."""
        if REFUSED_LOGIN in str(error) or type(error).__name__ == "AuthorizationError":
            hint = (f"check the bus URL's user and its password ({PASSWORD_ENV})" if self.user else
                    f"check the bus token ({PASSWORD_ENV})" if self._secret else
                    f"give a user in the bus URL, nats://USER@HOST:PORT/ROOM, and its password in {PASSWORD_ENV}")
            return BusRefused(f"the NATS server at {self.where} refused the room's login ({self.named()}): {hint}")
        if isinstance(error, NoTls):
            return BusRefused(f"the NATS server at {self.where} did not start TLS, so the room sent it nothing: give "
                              "that server its tls block (docs/operations.md), or use nats:// on loopback")
        if isinstance(error, ssl.SSLError):
            return BusRefused(f"TLS with the NATS server at {self.where} failed: "
                              f"{error.reason or type(error).__name__} (check --bus-ca, --bus-cert and --bus-key)")
        return None


NO_LOGIN = NatsLogin()


@dataclass(frozen=True)
class BusAddress:
    """A parsed bus URL: the servers (no credentials in them), the room's name and the login."""

    servers: str
    room: str
    login: NatsLogin


def bus_address(url: str, environ: Mapping[str, str], tls: BusTls | None = None, *,
                default_room: str = "pokerroom") -> BusAddress:
    """Parse ``url`` (several servers comma-separated; a path names the room); a ValueError that names no
    secret for anything wrong."""
    tls = tls or BusTls()
    where = shown(url)
    servers, schemes, logins, room = [], set(), set(), default_room
    for server in url.split(","):
        scheme, sep, rest = server.partition("://")
        if not sep or scheme not in SCHEMES:
            raise ValueError(f"{where!r}: a bus URL is nats://HOST:PORT/ROOM (or tls://…)")
        place, _, path = rest.partition("/")
        userinfo, at, address = place.rpartition("@")
        if not address:
            raise ValueError(f"{where!r}: a bus URL names a host, nats://HOST:PORT/ROOM")
        schemes.add(scheme)
        servers.append(f"{scheme}://{address}")
        if at:
            logins.add(userinfo)
        if path:
            room = path.strip("/")
    if not room or not all(c.isalnum() or c in "-_" for c in room):
        raise ValueError(f"{where!r}: a room's name in a bus URL is letters, digits, '-' and '_'")
    if len(schemes) > 1:
        raise ValueError(f"{where!r}: every server tls://, or none (a room's bus is not half encrypted)")
    if len(logins) > 1:
        raise ValueError(f"{where!r}: the servers of one bus take one login; give it once")
    context = _tls_context(tls, where) if "tls" in schemes else None
    if context is None and (tls.ca or tls.cert or tls.key):
        raise ValueError(f"{where!r}: --bus-ca, --bus-cert and --bus-key are for a tls:// bus URL")
    user, secret = _credentials(next(iter(logins), ""), environ.get(PASSWORD_ENV, ""), where)
    return BusAddress(",".join(servers), room, NatsLogin(user, secret, context, shown(",".join(servers))))


def _credentials(userinfo: str, from_env: str, where: str) -> tuple[str, str]:
    """(user, secret) of a URL's ``user:password``, ``token`` or ``user`` with :data:`PASSWORD_ENV`'s secret."""
    user, colon, password = userinfo.partition(":")
    user, password = unquote(user), unquote(password)
    if colon and from_env:
        raise ValueError(f"{where!r} has a password and {PASSWORD_ENV} another: give it once (the variable keeps "
                         "it off the command line)")
    if colon:
        if not user:
            raise ValueError(f"{where!r}: a password needs its user, nats://USER:PASSWORD@HOST:PORT/ROOM")
        return user, password
    if from_env:
        return user, from_env                       # a user's password, or with no user the token
    return "", user                                 # nats://token@host: the token (or no login at all)


class TlsContext(ssl.SSLContext):
    """A client's TLS context that notes each handshake it starts, so the login waits for one."""

    fresh = False

    def wrap_bio(self, *args: Any, **kwargs: Any) -> ssl.SSLObject:
        self.fresh = True
        return super().wrap_bio(*args, **kwargs)

    def handshaken(self) -> bool:
        """Whether a handshake was started since the last login: once each (a reconnection starts another)."""
        fresh, self.fresh = self.fresh, False
        return fresh


def _tls_context(tls: BusTls, where: str) -> TlsContext:
    """The TLS of a ``tls://`` bus: the server's certificate checked (against ``ca``, else the system's CAs)."""
    if bool(tls.cert) != bool(tls.key):
        raise ValueError("--bus-cert and --bus-key go together: this process's certificate and its key")
    try:
        context = TlsContext(ssl.PROTOCOL_TLS_CLIENT)       # as ssl.create_default_context: names and chains checked
        if tls.ca:
            context.load_verify_locations(cafile=tls.ca)
        else:
            context.load_default_certs(ssl.Purpose.SERVER_AUTH)
        if tls.cert:
            context.load_cert_chain(tls.cert, tls.key)
    except (OSError, ssl.SSLError) as e:
        raise ValueError(f"{where!r}: the bus's TLS files cannot be read: {e}") from None
    return context
