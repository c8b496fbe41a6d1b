"""The ``pokerroom`` command as a person at a terminal uses it."""

import subprocess
import sys

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
