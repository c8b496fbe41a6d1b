"""``pokerroom demo``: bots play a configured table and the house rules show in the narration."""

from __future__ import annotations

from pokerroom.cli import main
from pokerroom.demo import money, run_demo
from pokerroom.table.config import load_tables


def test_the_demo_plays_the_scripted_house_rules_and_loses_no_chips():
    lines: list[str] = []
    rules = load_tables()[0]
    table = run_demo(rules, 14, 3, lines.append)
    text = "\n".join(lines)
    assert table.hand_number == 14
    assert "posts a dead small blind (missed blinds)" in text           # HR-MB-2
    assert "posts a live blind to be dealt in" in text                  # HR-POST-1
    assert "hit-and-run refusal #1" in text                             # HR-HNR-1
    assert "time bank running" in text                                  # HR-TIME-2
    assert sum(table.stacks().values()) + table.chips_out + table.rake == table.chips_in


def test_the_demo_command_prints_hands_and_a_chip_count(capsys):
    assert main(["demo", "--hands", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("*** Hand ") == 3 and "hands at nl-aldebaran" in out
    assert main(["demo", "--table", "nope"]) == 2


def test_money_reads_minor_units():
    assert money(1250, "USD") == "$12.50" and money(5, "USD") == "$0.05" and money(7, "") == "7"


def test_a_missing_or_broken_config_is_a_clear_error(tmp_path, capsys):
    assert main(["demo", "--config", str(tmp_path / "none.toml")]) == 2
    assert "no room config at" in capsys.readouterr().err
    broken = tmp_path / "room.toml"
    broken.write_text("[[tables]\n")
    assert main(["demo", "--config", str(broken)]) == 2
    assert "not valid TOML" in capsys.readouterr().err
