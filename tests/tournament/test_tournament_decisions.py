"""A tournament table's actions are bound to their decision as a cash table's are (protocol 1.1): an action naming a
decision that is not the player's current one is refused ``stale_decision`` and changes nothing (BET-1)."""

from __future__ import annotations

import pytest

from pokerroom.errors import RuleViolation
from tests.tournament.director_drivers import observable, started
from tournament import commands as tc
from tournament import director as td


def test_BET_1_a_duplicated_tournament_act_is_refused_as_stale_and_the_next_decision_is_untouched():
    room = started(["a", "b", "c", "d"], table_size=6)
    d = room.director
    table_id = d.ready_tables()[0]
    room.deal(table_id)
    table = d.tables[table_id]
    player, legal = table.to_act()
    action = "check" if legal.can_check else "call"
    room.apply(d.apply(tc.Act(player, action, None, legal.decision)))
    after = table.to_act()
    assert after is not None and after[1].decision != legal.decision
    events, state = len(table.hand.events), observable(d)
    for who in (player, after[0]):            # the first player's double click, and the next player's old id
        with pytest.raises(RuleViolation) as refused:
            d.apply(tc.Act(who, action, None, legal.decision))
        assert (refused.value.code, refused.value.rule_id) == ("stale_decision", "BET-1")
    assert (len(table.hand.events), observable(d)) == (events, state)
    assert table.to_act()[0] == after[0] and table.to_act()[1].decision == after[1].decision
    nxt = after[1]                            # the next decision, acted on with its own id, is taken
    played = room.apply(d.apply(tc.Act(after[0], "check" if nxt.can_check else "call", None, nxt.decision)))
    assert any(isinstance(e, td.HandPlayed) and e.table == table_id and e.events for e in played)
