"""The published schema (docs/protocol.schema.json) as the test clients' check of every frame, with ``jsonschema``.

The socket tests' client (tests/net/server_process.py ``Player``) validates every request it sends and every
message it receives against the file a client developer would use, not against the Python declarations it was
generated from. Validators are built once per process; a frame is checked against the definition its ``type``
names, so a check costs one small schema, not a search through every message.

The schema picks an event's definition by its ``type`` with an ``allOf`` of ``if {type: const k} then ...``
branches (one per kind, ~20 per list). Stock ``jsonschema`` evaluates every branch's ``if`` for every event, which
made a 24,000-frame run take 80 s to check; ``_all_of`` skips the branches whose ``if`` cannot hold (the instance
is an object whose ``type`` is another constant, and the branch has no ``else``) -- exactly the branches that
yield no error -- and hands every other branch to ``jsonschema`` unchanged, so the errors found are the same.
"""

from __future__ import annotations

import builtins
import json
import re
from functools import cache
from typing import Any

import msgpack
from jsonschema import Draft202012Validator, validators
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


_NO_TYPE = object()


def _dispatch_const(branch: object) -> object:
    """``k`` when ``branch`` is exactly ``{"if": {"properties": {"type": {"const": k}}}, "then": ...}`` with ``k`` a
    string (which JSON Schema's ``const`` compares with ``==``)."""
    if not isinstance(branch, dict) or branch.keys() != {"if", "then"}:
        return _NO_TYPE
    condition = branch["if"]
    if not isinstance(condition, dict) or condition.keys() != {"properties"}:
        return _NO_TYPE
    properties = condition["properties"]
    if not isinstance(properties, dict) or properties.keys() != {"type"}:
        return _NO_TYPE
    test = properties["type"]
    if not isinstance(test, dict) or test.keys() != {"const"}:
        return _NO_TYPE
    return test["const"] if isinstance(test["const"], str) else _NO_TYPE


_DISPATCH: dict[int, tuple[list, list]] = {}       # id of an allOf list -> (the list, kept alive; its consts)


def _all_of(validator, all_of, instance, schema):
    """``allOf`` as jsonschema does it, less the type-dispatch branches whose ``if`` fails (they yield nothing)."""
    kind = instance["type"] if validator.is_type(instance, "object") and "type" in instance else _NO_TYPE
    if kind is _NO_TYPE:
        consts = [_NO_TYPE] * len(all_of)
    else:
        kept = _DISPATCH.get(id(all_of))
        if kept is None or kept[0] is not all_of:
            kept = _DISPATCH[id(all_of)] = (all_of, [_dispatch_const(branch) for branch in all_of])
        consts = kept[1]
    for index, branch in enumerate(all_of):
        const = consts[index]
        if const is not _NO_TYPE and kind != const:
            continue                                # its `if` fails and it has no `else`: jsonschema finds nothing
        yield from validator.descend(instance, branch, schema_path=index)


_Validator = validators.extend(Draft202012Validator, {"allOf": _all_of})


@cache
def validator(definition: str) -> Draft202012Validator:
    """A compiled validator of one ``$defs`` entry (``request.join``, ``push.table_events``, ``answer``...)."""
    schema = _schema()
    registry = Registry().with_resource(schema["$id"], Resource.from_contents(schema))
    return _Validator({"$ref": f"{schema['$id']}#/$defs/{definition}"}, registry=registry)


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
