"""One check that a client's request or a command was refused: the code, the rule, a sentence, nothing changed.

A refusal reaches a test in two shapes: the core raises :class:`RuleViolation`, the room answers
``{"ok": False, "error": {"code", "message", "rule"}}``. Both carry the same three things, so one
check covers both, and every test asks as much of a refusal as the strictest one did.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import pytest

from pokerroom.errors import RuleViolation


def refused(attempt: Mapping[str, Any] | Callable[..., object], /, *args: object, code: str | None = None,
            rule: str | None = None, keeps: Callable[[], object] | None = None,
            **kwargs: object) -> RuleViolation | Mapping[str, Any]:
    """The refusal of ``attempt``: a room's answer, or a command called with ``args`` and ``kwargs`` that must raise.

    It must give ``code`` and ``rule`` where they are named (``rule=""``: a refusal no rule stands behind, such as
    a malformed request) and a sentence for the player; ``keeps`` (a snapshot of the state the command was sent to)
    must read the same after the refusal as before. Returns the :class:`RuleViolation`, or the answer.
    """
    if isinstance(attempt, Mapping):
        assert not args and not kwargs and keeps is None, "an answer is already given: nothing to call"
        assert attempt.get("ok") is False and isinstance(attempt.get("error"), Mapping), attempt
        error = attempt["error"]
        found = (error.get("code"), error.get("rule"), error.get("message"))
        refusal: RuleViolation | Mapping[str, Any] = attempt
    else:
        before = keeps() if keeps is not None else None
        with pytest.raises(RuleViolation) as caught:
            attempt(*args, **kwargs)
        if keeps is not None:
            assert keeps() == before, f"the refused command changed the state: {caught.value!r}"
        found = (caught.value.code, caught.value.rule_id, caught.value.message)
        refusal = caught.value
    assert code is None or found[0] == code, (code, refusal)
    assert rule is None or found[1] == rule, (rule, refusal)
    assert isinstance(found[2], str) and found[2].strip(), f"a refusal without a sentence: {refusal!r}"
    return refusal
