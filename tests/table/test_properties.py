"""Properties of a cash table under any sequence of commands, hostile ones included (a Hypothesis machine).

* Chips are conserved: stacks + chips taken away + rake = chips brought.
* A refused command raises RuleViolation with a code and a sentence, and changes nothing.
* No command, however odd its arguments, raises anything but RuleViolation.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

from tests.table.table_machine import TableMachine

TableMachine.TestCase.settings = settings(max_examples=150, stateful_step_count=60, deadline=None,
                                          suppress_health_check=[HealthCheck.too_slow])
test_random_commands_never_lose_chips_or_change_state_when_refused = TableMachine.TestCase
