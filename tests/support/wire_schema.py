"""The published schema (docs/protocol.schema.json) as the test clients' check of every frame, with ``jsonschema``.

The socket tests' client (tests/net/server_process.py ``Player``) validates every request it sends and every
message it receives against the file a client developer would use, not against the Python declarations it was
generated from. Validators are built once per process; a frame is checked against the definition its ``type``
names, so a check costs one small schema, not a search through every message.
"""

from __future__ import annotations

import builtins
import json
import re
from functools import cache
from typing import Any

import msgpack
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from pokerroom.protocol.json_schema import DOCS, SCHEMA_FILE

# what a request the schema refuses is answered with: refused while parsing, before any service sees it
PARSE_CODES = frozenset({"bad_message", "unknown_type", "bad_rid", "unknown_field", "missing_field", "bad_field",
                         "bad_nickname", "bad_token", "bad_frame"})

# what no refusal's sentence may say: Python's exception names, the msgpack library's, a repr, a traceback
PYTHON_NAMES = sorted({name for name, value in vars(builtins).items()
                       if isinstance(value, type) and issubclass(value, BaseException)}
                      | {name for name in vars(msgpack) if name[:1].isupper()}
                      | {"Traceback", "None", "True", "False", "b'", "object at 0x", "__"})
LEAK = re.compile("|".join(re.escape(name) for name in PYTHON_NAMES))


@cache
def _schema() -> dict[str, Any]:
    return json.loads((DOCS / SCHEMA_FILE).read_text(encoding="utf-8"))


@cache
def validator(definition: str) -> Draft202012Validator:
    """A compiled validator of one ``$defs`` entry (``request.join``, ``push.table_events``, ``answer``...)."""
    schema = _schema()
    registry = Registry().with_resource(schema["$id"], Resource.from_contents(schema))
    return Draft202012Validator({"$ref": f"{schema['$id']}#/$defs/{definition}"}, registry=registry)


def definitions() -> frozenset[str]:
    return frozenset(_schema()["$defs"])


def _problem(definition: str, message: object) -> str | None:
    if definition not in definitions():
        return f"the schema has no {definition}"
    error = next(iter(validator(definition).iter_errors(message)), None)
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "(the message)"
    return f"{definition}: at {where}: {error.message}"[:600]


def request_problem(message: object) -> str | None:
    """None when ``message`` is a request the schema allows, else what is wrong."""
    kind = message.get("type") if isinstance(message, dict) else None
    return _problem(f"request.{kind}" if isinstance(kind, str) else "request", message)


def server_problem(message: object) -> str | None:
    """None when ``message`` is an answer, refusal or push the schema allows, else what is wrong."""
    if isinstance(message, dict) and "ok" in message:
        return _problem("answer" if message["ok"] is True else "refusal", message)
    kind = message.get("type") if isinstance(message, dict) else None
    return _problem(f"push.{kind}" if isinstance(kind, str) else "push", message)


def check_received(message: object) -> None:
    problem = server_problem(message)
    assert problem is None, f"the room sent a message the published schema does not allow: {problem}"


def check_answer_to(sent: dict, problem: str | None, answer: dict) -> None:
    """A request the schema refused must be refused by the room too, while parsing (the two agree)."""
    if problem is not None:
        assert answer.get("ok") is False and answer["error"]["code"] in PARSE_CODES, (
            f"the room took a request the published schema refuses ({problem}): {answer}")
