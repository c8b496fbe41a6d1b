"""docs/protocol.md against the protocol module: its generated reference is current, its prose covers each message."""

from __future__ import annotations

from pokerroom.protocol import reference
from pokerroom.protocol.errors import ERRORS
from pokerroom.protocol.pushes import EVENTS, PUSHES
from pokerroom.protocol.schema import REQUESTS


def _doc() -> str:
    return reference.DOC.read_text(encoding="utf-8")


def test_the_generated_reference_in_the_doc_is_up_to_date():
    doc = _doc()
    assert doc.count(reference.BEGIN) == 1 and doc.count(reference.END) == 1
    assert reference.rewritten(doc) == doc, "run python -m pokerroom.protocol.reference"
    assert reference.main(["--check"]) == 0


def test_the_reference_lists_every_request_push_event_and_error_code():
    generated = reference.render()
    rows = {line.split("|")[1].strip().strip("`") for line in generated.splitlines() if line.startswith("| `")}
    assert set(REQUESTS) | set(PUSHES) | set(ERRORS) <= rows
    assert all(kind in rows for family in EVENTS.values() for kind in family)


def test_rewriting_keeps_the_hand_written_page_and_replaces_only_the_generated_part():
    page = "# Title\n\nprose\n\n" + reference.BEGIN + "\nleft-over text\n" + reference.END + "\n\nmore prose\n"
    new = reference.rewritten(page)
    assert new.startswith("# Title\n\nprose\n\n") and new.endswith("\n\nmore prose\n")
    assert "left-over text" not in new and "| `join` |" in new
    assert reference.rewritten("# Fresh\n").startswith("# Fresh\n\n" + reference.BEGIN)


def test_the_hand_written_part_explains_every_request_and_push():
    prose = _doc().split(reference.BEGIN)[0]
    assert [kind for kind in REQUESTS if f"`{kind}`" not in prose] == []
    assert [kind for kind in PUSHES if f"`{kind}`" not in prose] == []
