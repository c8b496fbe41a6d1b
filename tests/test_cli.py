"""The ``pokerroom`` command as a person at a terminal uses it."""

import subprocess
import sys

import pytest

from pokerroom.cli import main


def test_equity_prints_each_hand(capsys):
    assert main(["equity", "AhKh", "2c2d"]) == 0
    out = capsys.readouterr().out
    assert "1,712,304 boards" in out
    assert "AhKh" in out and "equity 50.084%" in out
    assert "2c2d" in out and "equity 49.916%" in out


def test_equity_with_board_and_omaha(capsys):
    assert main(["equity", "AhKhQcJc", "9s9d8s7d", "--board", "Th6s5c2h"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Omaha, board [Th 6s 5c 2h], 40 boards")


def test_hand_names_the_hand(capsys):
    assert main(["hand", "KcKdKh4s4c2d"]) == 0
    assert "Full House, Kings full of Fours" in capsys.readouterr().out
    assert main(["hand", "KcKd3c4c", "--board", "AhAsAdAc2d"]) == 0
    assert "Full House, Aces full of Kings" in capsys.readouterr().out


def test_bad_cards_get_a_sentence_not_a_traceback(capsys):
    assert main(["equity", "AhKh", "AhQd"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "pokerroom: duplicate card Ah"


def test_console_script_runs_as_a_module():
    done = subprocess.run([sys.executable, "-m", "pokerroom.cli", "hand", "AsKsQsJsTs"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert "Royal Flush" in done.stdout


def test_serve_refuses_bad_node_bus_role_or_bots_with_a_sentence_before_touching_the_data(tmp_path):
    for flags, said in ((["--node", "east one"], "a node's name is 1 to 64 letters"),
                        (["--bus", "redis://127.0.0.1:6379"], "give a nats:// URL"),
                        (["--proxy-protocol", "--bots", "2"], "--bots 2 would connect straight to the port"),
                        (["--role", "gateway"], "reach each other over a broker; give --bus nats://"),
                        (["--bots", "2", "--role", "tables", "--bus", "nats://127.0.0.1:4222/x"],
                         "the demo's bots need both sides in one process")):
        done = subprocess.run([sys.executable, "-m", "pokerroom.cli", "serve", "--port", "0", "--data-dir",
                               str(tmp_path / "data"), *flags], capture_output=True, text=True, timeout=60)
        assert done.returncode == 2
        assert f"pokerroom: {flags[0]} " in done.stderr and said in done.stderr and "Traceback" not in done.stderr
        assert not (tmp_path / "data").exists()


def test_node_names_and_bus_urls():
    from pokerroom.app import node_name, room_bus

    assert node_name("east-1") == "east-1" and node_name("db1.example:8801") == "db1.example:8801"
    for bad in ("", "-east", "east/1", "x" * 65):
        with pytest.raises(ValueError, match="node"):
            node_name(bad)
    assert room_bus(None, "") is None                       # the room makes its in-process bus
    with pytest.raises(ValueError, match=r"nats://"):
        room_bus(None, "amqp://broker")


def test_serve_plays_hands_on_the_nats_bus(tmp_path):
    """``--bus nats://…/room``: the room connects to NATS before it opens and plays through it (issue #21)."""
    import uuid

    from tests.net.server_process import Server
    from tests.support.haproxy import health_of
    from tests.support.nats_buses import NATS, require_nats
    from tests.support.socket_play import play, sign_up

    require_nats()
    server = Server(tmp_path, "--bus", f"{NATS}/cli-{uuid.uuid4().hex[:10]}", "--node", "n-1", bus="").start()
    try:
        code, answer = health_of(int(server.url.rsplit(":", 1)[1].split("/")[0]))
        assert (code, answer["node"]) == (200, "n-1")
        ana, _ = sign_up(server.url, "ana")
        bob, _ = sign_up(server.url, "bob")
        assert ana.request("join", table="t1", buy_in=1_000, seat=1)["ok"]
        assert bob.request("join", table="t1", buy_in=1_000, seat=2)["ok"]
        seen = play({"ana": ana, "bob": bob}, 2)
        assert seen["ana"] and seen["bob"]
        for player in (ana, bob):
            player.close()
    finally:
        server.stop()
    assert "Traceback" not in (tmp_path / "server.log").read_text()


def test_serve_does_not_open_without_its_bus(tmp_path):
    """A NATS that does not answer: the room says so and does not open (no room on a bus nobody hears)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]              # nothing listens there once the socket closes
    done = subprocess.run([sys.executable, "-m", "pokerroom.cli", "serve", "--port", "0", "--data-dir",
                           str(tmp_path / "data"), "--bus", f"nats://127.0.0.1:{port}"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "serving on" not in done.stdout
    assert "could not be reached" in done.stderr


def test_serve_runs_on_a_postgresql_url_under_its_node_name(tmp_path):
    from tests.net.server_process import Server
    from tests.support.databases import postgres_database
    from tests.support.haproxy import health_of
    from tests.support.socket_play import sign_up

    with postgres_database() as url:
        server = Server(tmp_path, "--database", url.replace("postgresql+psycopg://", "postgresql://", 1),
                        "--node", "pg-1").start()
        try:
            code, answer = health_of(int(server.url.rsplit(":", 1)[1].split("/")[0]))
            assert (code, answer["status"], answer["node"]) == (200, "ok", "pg-1")
            player, _ = sign_up(server.url, "ana")
            assert player.request("lobby_list")["ok"]
            player.close()
        finally:
            server.stop()
        assert not (tmp_path / "data" / "room.db").exists()         # the room was in PostgreSQL, not SQLite
