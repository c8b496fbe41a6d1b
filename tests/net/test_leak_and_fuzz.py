"""One 500-hand bot run on a real port, with fuzzers throwing garbage at it, checked two ways.

* Leak (HR-RNG-2, SEC-2): every frame the server sent to every client is
  recorded; against the stored truth of each hand, no frame carries another
  player's hole cards before they are shown, nor any deck order.
* Fuzz: thousands of malformed and hostile frames from several connections get
  error answers (or a close with a reason), the bots keep playing, and the
  ledger -- in memory and in the database -- still balances.
"""

from __future__ import annotations

import fcntl
import json
import subprocess
import sys

import pytest

from pokerroom.store.db import make_engine, sqlite_url
from pokerroom.store.room_store import RoomStore
from tests.net.ledger_check import assert_ledger_sound
from tests.support.leaks import cards_in
from tests.support.wire_schema import LEAK, server_problem

HANDS = 500


@pytest.fixture(scope="module")
def run(tmp_path_factory, worker_id):
    """One bot run for the whole session: xdist workers that get tests of this module share it (the first makes it
    under a lock in the session's temporary root, the others read it) rather than each playing its own."""
    root = tmp_path_factory.getbasetemp() if worker_id == "master" else tmp_path_factory.getbasetemp().parent
    out = root / "leak_and_fuzz_bot_run"
    with open(root / "leak_and_fuzz_bot_run.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "summary.json").exists():
            subprocess.run([sys.executable, "-m", "tests.net.bot_run", str(out), "--hands", str(HANDS),
                            "--fuzzers", "4", "--fuzz-frames", "2000"],
                           check=True, timeout=300, capture_output=True)
    return out


def test_HR_RNG_2_SEC_2_no_frame_shows_anyone_elses_hole_cards_or_the_deck(run):
    store = RoomStore(make_engine(sqlite_url(run)))
    truth = {}                                      # hand id -> (player -> seat, seat -> hole cards)
    for player in json.loads((run / "summary.json").read_text())["players"]:
        for hand in store.hands.hands_of(player, 10_000):
            if hand.events is None:
                continue                            # still running when the run stopped: no truth to check against
            seats = {e["player"]: e["seat"] for e in hand.events if e["type"] == "seat_dealt_in"}
            holes = {e["seat"]: set(e["cards"]) for e in hand.events if e["type"] == "hole_cards_dealt"}
            truth[hand.hand_id] = (seats, holes)
    assert len(truth) >= HANDS
    allowed: dict[tuple[str, str], set[int]] = {}   # (player, hand) -> cards they may see
    checked = 0
    for line in (run / "frames.jsonl").read_text().splitlines():
        record = json.loads(line)
        player, message = record["to"], record["message"]
        assert "deck" not in json.dumps(message), f"a deck order reached {player}"
        if message.get("type") != "table_events" or player is None:
            continue
        for table_event in message["events"]:
            if table_event["type"] != "hand_event" or table_event["hand_id"] not in truth:
                continue
            hand_id, event = table_event["hand_id"], table_event["event"]
            seats, holes = truth[hand_id]
            key = (player, hand_id)
            if key not in allowed:
                allowed[key] = set(holes.get(seats.get(player), ()))
            if event["type"] in ("hand_shown", "cards_exposed", "board_dealt"):
                allowed[key] |= set(cards_in(event, []))        # shown, exposed or on the board: public now
            leaked = set(cards_in(event, [])) - allowed[key]
            assert not leaked, f"{player} saw {sorted(leaked)} in {event['type']} of {hand_id}"
            checked += 1
    assert checked > HANDS * 20


def test_hostile_frames_get_errors_while_bots_keep_playing_and_the_ledger_balances(run):
    summary = json.loads((run / "summary.json").read_text())
    fuzz = summary["fuzz"]
    assert summary["hands"] >= HANDS and summary["bot_actions"] > HANDS
    assert fuzz["sent"] >= 1_000 and fuzz["errors"] >= fuzz["sent"] // 2
    assert fuzz["ok"] == 0
    assert set(reason.split()[0] for reason in fuzz.get("reasons", {})) <= {"1009", "4008"}
    assert summary["ledger_ok"]
    store = RoomStore(make_engine(sqlite_url(run)))
    assert store.ledger.ledger_check() and store.ledger.load_ledger().check()
    assert_ledger_sound(run)                                            # STAFF-1: `pokerroom ledger check`


def test_every_frame_the_bots_and_fuzzers_received_is_allowed_by_the_published_schema(run):
    """Every message of the run, to bots and fuzzers alike, against docs/protocol.schema.json; and no refusal of a
    fuzzed frame names Python or a library. A push sent alike to every player at a table is one message to check:
    the schema's verdict depends on the message alone."""
    problems, refusals, seen, checked = [], 0, set(), set()
    for line in (run / "frames.jsonl").read_text().splitlines():
        message = json.loads(line)["message"]
        seen.add(message.get("type"))
        text = json.dumps(message, sort_keys=True)
        problem = None if text in checked else server_problem(message)
        checked.add(text)
        if problem is not None and len(problems) < 5:
            problems.append(problem)
        if message.get("ok") is False:
            refusals += 1
            assert not LEAK.search(message["error"]["message"]), message
    assert problems == []
    assert refusals >= 1_000 and {"table_events", "act", "login"} <= seen
