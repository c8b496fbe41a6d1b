"""A test's own ``nats-server`` (Debian's ``nats-server``), locked as docs/operations.md says a room's NATS is.

:func:`private_nats` runs one with the test's configuration on a free loopback port and kills it at the end,
whatever the test did. :func:`certificates` makes a throw-away CA, a server certificate for 127.0.0.1 and a
client certificate with the ``openssl`` command line. Without ``nats-server`` or ``openssl`` the tests that need
them skip, except under ``CI=true``, where they fail (as the HAProxy test treats ``haproxy``).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.haproxy import free_port
from tests.support.waiting import wait_until

NATS_SERVER = os.environ.get("POKERROOM_NATS_SERVER") or shutil.which("nats-server") or (
    "/usr/sbin/nats-server" if Path("/usr/sbin/nats-server").exists() else None)
STARTS_WITHIN = 10.0                        # seconds: a nats-server on loopback listens in well under one


def _required(tool: str | None, name: str) -> str:
    if tool is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{name} is not installed: run the README's test set-up")
        pytest.skip(f"{name} is not installed (the README's test set-up installs it)")
    return tool


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
        return True
    except OSError:
        return False


@contextmanager
def private_nats(where: Path, config: str) -> Iterator[int]:
    """A nats-server with ``config`` (its ``listen`` line added) on a free loopback port: the port."""
    binary = _required(NATS_SERVER, "nats-server")
    port = free_port()
    conf = where / f"nats-{port}.conf"
    conf.write_text(f"listen: 127.0.0.1:{port}\n{config}")
    log = where / f"nats-{port}.log"
    with log.open("w") as out:
        process = subprocess.Popen([binary, "-c", str(conf)], stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_until(lambda: process.poll() is not None or _listening(port), STARTS_WITHIN)
        if process.poll() is not None or not _listening(port):
            raise AssertionError(f"nats-server did not start: {log.read_text()}")
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def certificates(where: Path) -> dict[str, Path]:
    """A CA (``ca``) and what it signed: ``server``/``server_key`` for 127.0.0.1, ``client``/``client_key``."""
    openssl = _required(shutil.which("openssl"), "openssl")

    def run(*args: str) -> None:
        subprocess.run([openssl, *args], check=True, capture_output=True, cwd=where, timeout=60)

    key = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    run("req", "-x509", *key, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=pokerroom test CA",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    for name, extensions in (("server", "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n"),
                             ("client", "extendedKeyUsage=clientAuth\n")):
        (where / f"{name}.ext").write_text("basicConstraints=CA:FALSE\n" + extensions)
        run("req", *key, "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", f"/CN=pokerroom test {name}")
        run("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", f"{name}.pem", "-days", "2", "-extfile", f"{name}.ext")
    return {"ca": where / "ca.pem", "server": where / "server.pem", "server_key": where / "server.key",
            "client": where / "client.pem", "client_key": where / "client.key"}
