"""The room's NATS locked: a login and TLS, on the test's own nats-server (docs/operations.md, "Several processes").

Anyone who can publish on the room's subjects speaks for one of its processes -- a forged ``wallet.deposit``
request is answered as the cashier's -- so the room logs in to its NATS, and its secret never shows: not in a log,
an error, a repr, or the command line (``POKERROOM_BUS_PASSWORD``).
"""

from __future__ import annotations

import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from pokerroom.bus import NoResponder, make_bus
from pokerroom.bus.nats_bus import NatsBus
from pokerroom.bus.nats_options import PASSWORD_ENV, BusRefused, BusTls, bus_address, shown
from tests.support.nats_buses import NATS, reactor, require_nats, settle
from tests.support.private_nats import certificates, private_nats

ROOT = Path(__file__).resolve().parents[2]
EAST_PASSWORD = "east-Pw-5ecret"            # the room's; what no output may show
WEST_PASSWORD = "west-Pw-5ecret"
# Two rooms on one NATS, each in an account of its own: nothing crosses accounts, _INBOX answers neither
ACCOUNTS = f"""
accounts {{
  EAST: {{ users: [ {{ user: east, password: "{EAST_PASSWORD}" }} ] }}
  WEST: {{ users: [ {{ user: west, password: "{WEST_PASSWORD}" }} ] }}
}}
"""


@pytest.fixture(scope="module")
def locked(tmp_path_factory):
    """The port of a nats-server that takes only the users of its two rooms' accounts."""
    with private_nats(tmp_path_factory.mktemp("locked-nats"), ACCOUNTS) as port:
        yield port


@pytest.fixture(scope="module")
def encrypted(tmp_path_factory):
    """(port, files) of a nats-server that speaks only TLS, asks for a client certificate and a login."""
    where = tmp_path_factory.mktemp("tls-nats")
    files = certificates(where)
    config = (f'tls {{ cert_file: "{files["server"]}", key_file: "{files["server_key"]}", '
              f'ca_file: "{files["ca"]}", verify: true, timeout: 2 }}\n'
              f'authorization {{ users: [ {{ user: east, password: "{EAST_PASSWORD}" }} ] }}\n')
    with private_nats(where, config) as port:
        yield port, files


@pytest.fixture
def buses():
    made: list[NatsBus] = []
    yield made
    for bus in made:
        settle(bus.close())


def connected(buses: list[NatsBus], url: str, tls: BusTls | None = None) -> NatsBus:
    bus = make_bus(reactor(), url, tls)
    assert isinstance(bus, NatsBus)
    buses.append(bus)
    settle(bus.connect())
    return bus


def refusal(buses: list[NatsBus], url: str, tls: BusTls | None = None) -> str:
    with pytest.raises(BusRefused) as refused:
        connected(buses, url, tls)
    return str(refused.value)


def round_trip(gateway: NatsBus, host: NatsBus) -> None:
    host.respond("table.t1.command", lambda command: {"seat": command["seat"]})
    settle(host.flushed())
    assert settle(gateway.request("table.t1.command", {"seat": 3})) == {"seat": 3}


def test_a_bus_url_gives_its_login_to_nats_py_and_shows_it_nowhere(monkeypatch):
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    address = bus_address("nats://east:p%40ss@10.0.0.5:4222,nats://10.0.0.6:4222/east", {})
    assert (address.servers, address.room) == ("nats://10.0.0.5:4222,nats://10.0.0.6:4222", "east")
    assert address.login.options() == {"user": "east", "password": "p@ss"}
    assert "p@ss" not in repr(address.login) and "p%40ss" not in repr(address)
    assert bus_address("nats://s3cr3t@h:4222/r", {}).login.options() == {"token": "s3cr3t"}
    # the secret kept off the command line: the URL's user's password, or with no user the token
    assert bus_address("nats://east@h:4222/r", {PASSWORD_ENV: "pw"}).login.options() == {"user": "east",
                                                                                          "password": "pw"}
    assert bus_address("nats://h:4222/r", {PASSWORD_ENV: "tok"}).login.options() == {"token": "tok"}
    assert bus_address("nats://h:4222/r", {}).login.options() == {}
    assert shown("nats://east:pw@h:1/r,tls://tok@g:2") == "nats://east:***@h:1/r,tls://***@g:2"
    for bad, said in (("nats://east:pw@h:1/r", "give it once"), ("nats://a:pw@h:1,nats://b:pw@g:1", "one login"),
                      ("nats://:pw@h:1", "needs its user"), ("nats://a:pw@h:1,tls://a:pw@g:1", "half encrypted"),
                      ("redis://a:pw@h:1", "nats://HOST:PORT"), ("nats://a:pw@h:1/r.x", "room's name")):
        with pytest.raises(ValueError, match=said) as refused:
            bus_address(bad, {PASSWORD_ENV: "pw2"} if said == "give it once" else {})
        assert "pw" not in str(refused.value).replace("pw2", "")
    with pytest.raises(ValueError, match="tls://"):
        bus_address("nats://h:1/r", {}, BusTls(ca="ca.pem"))
    with pytest.raises(ValueError, match="go together"):
        bus_address("tls://h:1/r", {}, BusTls(cert="c.pem"))


def test_nats_refuses_a_room_without_credentials_or_with_a_wrong_password(locked, buses, monkeypatch):
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    said = refusal(buses, f"nats://127.0.0.1:{locked}/east")
    assert said.startswith(f"the NATS server at nats://127.0.0.1:{locked} refused the room's login (no credentials)")
    said = refusal(buses, f"nats://east:not-{EAST_PASSWORD}@127.0.0.1:{locked}/east")
    assert "refused the room's login (user 'east'): check the bus URL's user and its password" in said
    assert EAST_PASSWORD not in said
    monkeypatch.setenv(PASSWORD_ENV, WEST_PASSWORD)               # another room's password is no better
    assert "refused the room's login (user 'east')" in refusal(buses, f"nats://east@127.0.0.1:{locked}/east")
    # a tls:// bus whose server goes on in clear (nats-py lets the server's greeting decide) is sent no password
    said = refusal(buses, f"tls://east@127.0.0.1:{locked}/east")
    assert said == (f"the NATS server at tls://127.0.0.1:{locked} did not start TLS, so the room sent it nothing: "
                    "give that server its tls block (docs/operations.md), or use nats:// on loopback")


def test_a_tls_bus_without_a_login_does_not_go_on_in_clear(buses, monkeypatch):
    """A tls:// bus on a NATS without TLS (the machine's) is refused, login or none: the room's frames stay off it."""
    require_nats()
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    plain = NATS.split("://", 1)[1].split("/")[0]
    room = f"t{uuid.uuid4().hex[:12]}"
    assert "did not start TLS" in refusal(buses, f"tls://{plain}/{room}")
    round_trip(connected(buses, f"nats://{plain}/{room}"), connected(buses, f"nats://{plain}/{room}"))


def test_the_room_logs_in_with_its_password_from_the_url_or_the_environment(locked, buses, monkeypatch):
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    gateway = connected(buses, f"nats://east:{EAST_PASSWORD}@127.0.0.1:{locked}/east")
    monkeypatch.setenv(PASSWORD_ENV, EAST_PASSWORD)
    host = connected(buses, f"nats://east@127.0.0.1:{locked}/east")
    assert EAST_PASSWORD not in repr(host.login) + repr(host.servers)
    round_trip(gateway, host)


def test_a_forged_wallet_request_from_outside_the_rooms_account_reaches_no_responder(locked, buses, monkeypatch):
    """A client of another room on the same NATS, using this room's very subjects, is heard by no process of it."""
    monkeypatch.delenv(PASSWORD_ENV, raising=False)
    cashier = connected(buses, f"nats://east:{EAST_PASSWORD}@127.0.0.1:{locked}/east")
    credited: list = []
    cashier.respond("wallet.deposit", lambda record: credited.append(record) or {"credited": record["amount"]},
                    shared=True)
    settle(cashier.flushed())
    forger = connected(buses, f"nats://west:{WEST_PASSWORD}@127.0.0.1:{locked}/east")   # room "east"'s subjects
    heard: list = []
    cashier.subscribe("table.>", lambda subject, payload: heard.append(payload))
    settle(cashier.flushed())
    forger.publish("table.t1.seat.p1", "forged frame")
    with pytest.raises(NoResponder):
        settle(forger.request("wallet.deposit", {"player": "mallory", "amount": 1_000_000}))
    settle(forger.flushed())
    own = connected(buses, f"nats://east:{EAST_PASSWORD}@127.0.0.1:{locked}/east")     # the room's own gateway
    assert settle(own.request("wallet.deposit", {"player": "ana", "amount": 500})) == {"credited": 500}
    own.publish("table.t1.seat.p1", "frame")
    settle(own.flushed())
    settle(cashier.flushed())
    assert credited == [{"player": "ana", "amount": 500}] and heard == ["frame"]


def test_the_room_speaks_tls_to_its_nats_with_its_own_certificate(encrypted, buses, monkeypatch):
    port, files = encrypted
    monkeypatch.setenv(PASSWORD_ENV, EAST_PASSWORD)
    url = f"tls://east@127.0.0.1:{port}/east"
    ours = BusTls(str(files["ca"]), str(files["client"]), str(files["client_key"]))
    round_trip(connected(buses, url, ours), connected(buses, url, ours))
    # a server whose certificate the system's CAs did not sign is not trusted: the login is never sent
    said = refusal(buses, url, BusTls(cert=str(files["client"]), key=str(files["client_key"])))
    assert said.startswith(f"TLS with the NATS server at tls://127.0.0.1:{port} failed: CERTIFICATE_VERIFY_FAILED")
    assert EAST_PASSWORD not in said
    # nor is a room that shows no certificate of the room's CA, where the server asks for one
    said = refusal(buses, url, BusTls(ca=str(files["ca"])))
    assert said.startswith(f"TLS with the NATS server at tls://127.0.0.1:{port} failed: ") and "--bus-cert" in said


def test_serve_with_a_refused_login_says_so_and_exits_1_without_showing_the_password(locked, tmp_path):
    for url, env in ((f"nats://east:not-{EAST_PASSWORD}@127.0.0.1:{locked}/east", {}),
                     (f"nats://east@127.0.0.1:{locked}/east", {PASSWORD_ENV: f"not-{EAST_PASSWORD}"})):
        done = subprocess.run([sys.executable, "-m", "pokerroom.cli", "serve", "--port", "0", "--data-dir",
                               str(tmp_path / "data"), "--bus", url],
                              capture_output=True, text=True, timeout=60, cwd=ROOT,
                              env={**_environment(), **env})
        assert done.returncode == 1 and "serving on" not in done.stdout
        assert (f"the NATS server at nats://127.0.0.1:{locked} refused the room's login (user 'east'): check the "
                f"bus URL's user and its password ({PASSWORD_ENV}): the room does not open") in done.stderr
        assert EAST_PASSWORD not in done.stdout + done.stderr and "Traceback" not in done.stderr


def _environment() -> dict[str, str]:
    import os

    return {key: value for key, value in os.environ.items() if key != PASSWORD_ENV}
