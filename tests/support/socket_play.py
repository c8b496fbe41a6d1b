"""Players over real sockets: sign up, staff made by the operator's command, check-or-call play, a closed socket.

Each speaks the documented protocol through :class:`tests.net.server_process.Player` (not our own client).
"""

from __future__ import annotations

import time

import pytest
from websockets.exceptions import ConnectionClosed

from tests.net.server_process import Player, Server

PASSWORD = "secret-pass-1"


def sign_up(url: str, name: str, subprotocol: str = "pokerroom.v1.msgpack") -> tuple[Player, str]:
    """A new adult account in NL with the welcome balance, logged in: its connection and session token."""
    p = Player(url, subprotocol)
    assert p.request("register", nickname=name, password=PASSWORD, birth_date="1990-01-01", country="NL")["ok"]
    login = p.request("login", nickname=name, password=PASSWORD)
    assert login["ok"] and login["balance"] == 100_000
    return p, login["token"]


def staff(server: Server, name: str, role: str) -> Player:
    """A new account given ``role`` by the operator's command, logged in afresh."""
    sign_up(server.url, name)[0].close()
    server.grant(name, role)
    member = Player(server.url)
    assert member.request("login", nickname=name, password=PASSWORD)["ok"]
    return member


def event_type(push: dict) -> str:
    """A table event's type, or else the push's own."""
    return push.get("event", {}).get("type", "") if push.get("type") == "table_event" else push.get("type", "")


def play(players: dict[str, Player], hands: int, *, stop=None, timeout: float = 60) -> dict[str, list[dict]]:
    """Everyone checks or calls when the server says it is their turn, until ``hands`` more hands end."""
    seen: dict[str, list[dict]] = {name: [] for name in players}
    ended = 0
    deadline = time.monotonic() + timeout
    while ended < hands and time.monotonic() < deadline:
        for name, p in players.items():
            try:
                push = p.receive(timeout=0.05)
            except TimeoutError:
                continue
            seen[name].append(push)
            if stop is not None and stop(name, push):
                return seen
            if "legal" in push:
                legal = push["legal"]
                p.request("act", table="t1", action="check" if legal["can_check"] else "call",
                          decision=legal["decision"])
            if name == next(iter(players)) and event_type(push) == "hand_event" \
                    and push["event"]["event"]["type"] == "hand_ended":
                ended += 1
    assert ended >= hands, "the hands did not finish"
    return seen


def director(server: Server) -> Player:
    """The tournament director ``tdir``, logged in."""
    return staff(server, "tdir", "director")


def closed_with(player: Player) -> ConnectionClosed:
    """How the server closed ``player``'s socket, reading (and dropping) what came before the close."""
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(200):
            player.receive(timeout=5)
    return closed.value


def next_push(player: Player, timeout: float) -> dict:
    """The next push, counting those that arrived while the player waited for an answer."""
    return player.pushes.pop(0) if player.pushes else player.receive(timeout=timeout)
