"""A cash table's event on the wire leaves out what no client needs (issue 36), and the table gets it back whole."""

from __future__ import annotations

from pokerroom.protocol.pushes import verify_push
from pokerroom.protocol.wire_form import lean, whole


def action(**flags: bool) -> dict:
    inner = {"type": "action_taken", "seq": 19, "seat": 2, "street": "preflop", "action": "call", "added": 20,
             "to": 30, "facing": 30, "all_in": False, "timed_out": False, "pot": 45, "behind": 970, **flags}
    return {"type": "hand_event", "seq": 4189, "hand_id": "t1-57", "event": inner}


def test_false_flags_are_left_out_true_ones_kept_and_the_table_gets_every_flag_back():
    quiet = lean(action())
    assert "all_in" not in quiet["event"] and "timed_out" not in quiet["event"]
    assert whole(quiet) == action()
    loud = action(all_in=True)
    assert lean(loud)["event"]["all_in"] is True and "timed_out" not in lean(loud)["event"]
    assert whole(lean(loud)) == loud
    board = {"type": "hand_event", "seq": 4190, "hand_id": "t1-57",
             "event": {"type": "board_dealt", "seq": 20, "street": "flop", "cards": [1, 2, 3], "board": [1, 2, 3],
                       "run": 1}}
    assert lean(board) is board                                   # nothing to leave out: the same dict


def test_whole_seconds_travel_as_ints_and_a_fraction_stays_a_float():
    started = {"type": "decision_started", "seq": 4190, "seat": 3, "seconds": 15.0, "time_bank": 30.0,
               "deadline": 1796542215.5}
    assert lean(started) == {**started, "seconds": 15, "time_bank": 30}
    assert type(lean(started)["seconds"]) is int and started["seconds"] == 15.0      # the table's own dict is kept


def test_the_wire_form_is_a_valid_push():
    verify_push({"type": "table_events", "table": "t1", "seq": 4190,
                 "events": [lean(action()), lean({"type": "decision_started", "seq": 4190, "seat": 3,
                                                  "seconds": 15.0, "time_bank": 30.0, "deadline": 1796542215.5})]})
