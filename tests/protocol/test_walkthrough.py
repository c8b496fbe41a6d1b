"""The example frames of docs/protocol.md, "Writing a client" first, against the published schema."""

from __future__ import annotations

import json
import re

from pokerroom.protocol import reference
from pokerroom.protocol.schema import REQUESTS
from tests.support.wire_schema import request_problem, server_problem

BLOCK = re.compile(r"```json\n(.*?)```", re.S)


def frames(markdown: str) -> list[dict]:
    """Every JSON value in the page's ```json blocks, in order (one a line, or one spread over lines)."""
    decoder, found = json.JSONDecoder(), []
    for block in BLOCK.findall(markdown):
        at = 0
        while (at := len(block) - len(block[at:].lstrip())) < len(block):
            value, at = decoder.raw_decode(block, at)
            found.append(value)
            block, at = block[at:], 0
    return found


def problem(message: dict) -> str | None:
    """A request has a rid and no ok; an answer or refusal has ok; a push has neither."""
    if "ok" in message:
        return server_problem(message)
    if "rid" in message:
        return request_problem(message)
    return server_problem(message)


def _section(title: str) -> str:
    doc = reference.DOC.read_text(encoding="utf-8")
    return doc.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_the_walkthrough_shows_each_step_and_every_frame_in_it_conforms():
    walk = frames(_section("Writing a client"))
    kinds = {(m["type"], "ok" in m, "rid" in m) for m in walk}
    for step in ("register", "login", "lobby_list", "join", "act", "resume"):
        assert (step, False, True) in kinds and (step, True, True) in kinds, step        # sent, and answered
    assert {("table_events", False, False), ("table_snapshot", False, False)} <= kinds
    assert any("legal" in m for m in walk) and any("amounts" in m.get("error", {}) for m in walk)
    assert {m["type"] for m in walk if "rid" in m} <= set(REQUESTS)
    assert [(m["type"], problem(m)) for m in walk if problem(m) is not None] == []


def test_every_example_frame_on_the_page_conforms():
    found = frames(reference.DOC.read_text(encoding="utf-8"))
    assert len(found) > 30
    assert [(m.get("type"), problem(m)) for m in found if problem(m) is not None] == []


def test_the_extraction_reads_one_a_line_and_spread_values():
    page = 'x\n```json\n{"a": 1}\n{"b":\n  [2]}\n```\n```python\n{"c": 3}\n```\n'
    assert frames(page) == [{"a": 1}, {"b": [2]}]
