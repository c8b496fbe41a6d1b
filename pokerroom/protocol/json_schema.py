"""The protocol as JSON Schema (draft 2020-12) and AsyncAPI 3.0, written from the protocol's own declarations.

``python -m pokerroom.protocol.json_schema`` writes ``docs/protocol.schema.json``
(every request from :data:`~pokerroom.protocol.schema.REQUESTS`, every answer,
every push, event and record from :mod:`~pokerroom.protocol.pushes`, every
error code from :mod:`~pokerroom.protocol.errors`) and ``docs/asyncapi.json``
(the WebSocket endpoint, one channel per subprotocol, its messages pointing
into the schema); ``--check`` only says whether both are up to date (a test
runs that). A client generator, a validator in any language, or the test
clients (tests/support/wire_schema.py) read the files; nobody edits them.

Definitions are named ``request.<type>``, ``answer``, ``refusal``, ``error``,
``push.<type>``, ``record.<name>``, ``event.<family>.<type>`` and
``events.<family>`` (any event of a family); the top-level ``request``,
``server_message`` (an answer or a push) and ``message`` choose among them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pokerroom.protocol.codec import JSON, MAX_DEPTH, MAX_FRAME, MSGPACK
from pokerroom.protocol.errors import ERRORS
from pokerroom.protocol.pushes import ERROR, EVENTS, PUSHES, RECORDS, Wire
from pokerroom.protocol.schema import MAX_RID, REQUESTS, Field

DOCS = Path(__file__).resolve().parents[2] / "docs"
SCHEMA_FILE = "protocol.schema.json"
ASYNCAPI_FILE = "asyncapi.json"
SCHEMA_ID = "https://pokerroom.invalid/protocol/v1/protocol.schema.json"   # a name, not an address to fetch
DRAFT = "https://json-schema.org/draft/2020-12/schema"
_KIND = {"int": "integer", "str": "string", "bool": "boolean", "float": "number", "list": "array", "map": "object"}
FAMILIES = {"hand": "a hand's engine event", "table": "a cash table's event", "tournament": "a tournament's event",
            "casino": "a casino table's event"}


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def _nullable(schema: dict[str, Any], nullable: bool) -> dict[str, Any]:
    if not nullable:
        return schema
    if "$ref" in schema:
        return {"anyOf": [schema, {"type": "null"}]}
    if "enum" in schema:
        return {**schema, "enum": [*schema["enum"], None]}
    return {**schema, "type": [schema["type"], "null"]}


# ---------------------------------------------------------------------- requests


def request_field(rule: Field) -> dict[str, Any]:
    """One request field's rule as a schema."""
    if rule.kind == "int":
        schema: dict[str, Any] = {"type": "integer", "minimum": rule.low, "maximum": rule.high}
    elif rule.kind == "str":
        schema = {"type": "string", "minLength": rule.low, "maxLength": rule.high}
        if rule.pattern:
            schema["pattern"] = f"^(?:{rule.pattern})$"
    elif rule.kind == "bool":
        schema = {"type": "boolean"}
    elif rule.kind == "choice":
        schema = {"enum": list(rule.choices)}
    elif rule.kind == "list":
        schema = {"type": "array", "minItems": 1, "maxItems": rule.max_items,
                  "items": {"type": "string", "minLength": rule.low, "maxLength": rule.high}}
    elif rule.kind == "map":
        schema = {"type": "object", "maxProperties": rule.max_items, "propertyNames": {"minLength": 1, "maxLength": 64},
                  "additionalProperties": {"type": "integer", "minimum": rule.low, "maximum": rule.high}}
    else:                                       # pragma: no cover - schema.py declares no other kind
        raise ValueError(f"no schema for a {rule.kind} field")
    if rule.code != "bad_field":
        schema["description"] = f"refused with {rule.code}: {rule.says}"
    return _nullable(schema, rule.nullable)


def request(kind: str, spec: dict[str, Field]) -> dict[str, Any]:
    properties = {"type": {"const": kind}, "rid": ref("rid"),
                  **{name: request_field(rule) for name, rule in spec.items()}}
    return {"type": "object", "properties": properties,
            "required": ["type", "rid", *(name for name, rule in spec.items() if not rule.optional)],
            "additionalProperties": False}


# ---------------------------------------------------------------------- what the server sends


def wire(rule: Wire) -> dict[str, Any]:
    """One push (or event, or record) field's rule as a schema."""
    of = rule.of
    if rule.kind == "any":
        return {}
    schema: dict[str, Any] = {"type": _KIND[rule.kind]}
    if of:
        if of in EVENTS:
            inner: dict[str, Any] = ref(f"events.{of}")
        elif of in RECORDS:
            inner = ref(f"record.{of}")
        else:
            inner = {"type": _KIND[of]}
        if rule.kind == "list":
            schema["items"] = inner
        elif "$ref" in inner:
            schema = inner
        else:
            schema["additionalProperties"] = inner
    return _nullable(schema, rule.nullable)


def shape(spec: dict[str, Wire], *, kind: str | None = None) -> dict[str, Any]:
    properties = {name: wire(rule) for name, rule in spec.items() if name != "type"}
    required = [name for name, rule in spec.items() if not rule.optional and name != "type"]
    if kind is not None:
        properties = {"type": {"const": kind}, **properties}
        required = ["type", *required]
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def _one_of_by_type(kinds: list[str], prefix: str) -> dict[str, Any]:
    """A choice among maps by their ``type``: checked against the one its type names (cheap for validators)."""
    return {"type": "object", "required": ["type"], "properties": {"type": {"enum": kinds}},
            "allOf": [{"if": {"properties": {"type": {"const": k}}}, "then": ref(f"{prefix}{k}")} for k in kinds]}


def build_schema() -> dict[str, Any]:
    """The whole protocol as one JSON Schema document."""
    defs: dict[str, Any] = {
        "rid": {"type": "integer", "minimum": 0, "maximum": MAX_RID,
                "description": "the client's request number, echoed in the answer"},
        "request": {**_one_of_by_type(list(REQUESTS), "request."),
                    "description": "any request a client may send"},
    }
    defs.update({f"request.{kind}": request(kind, spec) for kind, spec in REQUESTS.items()})
    defs["answer"] = {
        "description": "the answer to a request that succeeded: its type and rid, ok true, and what it returns",
        "type": "object", "required": ["type", "rid", "ok"],
        "properties": {"type": {"enum": list(REQUESTS)}, "rid": ref("rid"), "ok": {"const": True}}}
    defs["refusal"] = {
        "description": "the answer to a request that failed (type \"error\" and rid null when the frame could not "
                       "be read as a map with them)",
        "type": "object", "required": ["type", "rid", "ok", "error"], "additionalProperties": False,
        "properties": {"type": {"type": "string"}, "rid": {"type": ["integer", "null"]}, "ok": {"const": False},
                       "error": ref("error")}}
    error = shape(ERROR)
    error["properties"]["code"] = {"enum": list(ERRORS)}
    error["dependentRequired"] = {"amounts": ["currency"], "currency": ["amounts"]}
    defs["error"] = error
    defs["push"] = {**_one_of_by_type(list(PUSHES), "push."), "description": "any push the server sends"}
    for kind, push in PUSHES.items():
        defs[f"push.{kind}"] = {**shape(push.fields, kind=kind), "description": push.about}
    defs.update({f"record.{name}": shape(spec) for name, spec in RECORDS.items()})
    for family, events in EVENTS.items():
        defs[f"events.{family}"] = {**_one_of_by_type(list(events), f"event.{family}."),
                                    "description": f"any {FAMILIES[family]}"}
        defs.update({f"event.{family}.{kind}": shape(spec, kind=kind) for kind, spec in events.items()})
    defs["server_message"] = {"description": "anything the server sends: an answer, a refusal or a push",
                              "if": {"required": ["ok"]},
                              "then": {"if": {"properties": {"ok": {"const": True}}}, "then": ref("answer"),
                                       "else": ref("refusal")},
                              "else": ref("push")}
    defs["message"] = {"anyOf": [ref("request"), ref("server_message")]}
    return {"$schema": DRAFT, "$id": SCHEMA_ID, "title": "The pokerroom protocol (v1)",
            "description": f"Generated by `python -m pokerroom.protocol.json_schema` from pokerroom/protocol/. "
                           f"Frames carry at most {MAX_FRAME} bytes and requests nest at most {MAX_DEPTH} levels; "
                           "text fields of requests are printable. See docs/protocol.md.",
            "$ref": "#/$defs/message", "$defs": defs}


# ---------------------------------------------------------------------- AsyncAPI


def build_asyncapi() -> dict[str, Any]:
    """The WebSocket endpoint as an AsyncAPI 3.0 document whose payloads are the schema's definitions."""
    def payload(name: str) -> dict[str, Any]:
        return {"schemaFormat": "application/schema+json;version=draft-2020-12",
                "schema": {"$ref": f"{SCHEMA_FILE}#/$defs/{name}"}}

    messages: dict[str, Any] = {}
    for kind in REQUESTS:
        messages[f"request.{kind}"] = {"name": kind, "title": f"{kind} (request)",
                                       "payload": payload(f"request.{kind}")}
    messages["answer"] = {"name": "answer", "title": "an answer (ok true)", "payload": payload("answer")}
    messages["refusal"] = {"name": "refusal", "title": "a refusal (ok false)", "payload": payload("refusal")}
    for kind, push in PUSHES.items():
        messages[f"push.{kind}"] = {"name": kind, "title": f"{kind} (push)", "summary": push.about,
                                    "payload": payload(f"push.{kind}")}
    channels, operations = {}, {}
    for name, subprotocol, encoding in (("json", JSON, "JSON objects in text frames"),
                                        ("msgpack", MSGPACK, "msgpack maps in binary frames")):
        channels[name] = {
            "address": "/ws", "title": f"the room, subprotocol {subprotocol}",
            "description": f"One WebSocket endpoint; the subprotocol chosen at the handshake ({subprotocol}) "
                           f"carries the messages as {encoding}. Same maps either way.",
            "messages": {key: {"$ref": f"#/components/messages/{key}"} for key in messages},
            "bindings": {"ws": {"method": "GET", "headers": {
                "type": "object", "required": ["Sec-WebSocket-Protocol"],
                "properties": {"Sec-WebSocket-Protocol": {"type": "string", "const": subprotocol}}}}}}
        for action, verb, keys in (("send", "send", [k for k in messages if k.startswith("request.")]),
                                   ("receive", "answers", ["answer", "refusal"]),
                                   ("receive", "pushes", [k for k in messages if k.startswith("push.")])):
            operations[f"{name}.{verb}"] = {
                "action": action, "channel": {"$ref": f"#/channels/{name}"},
                "messages": [{"$ref": f"#/channels/{name}/messages/{key}"} for key in keys]}
    return {"asyncapi": "3.0.0",
            "info": {"title": "pokerroom", "version": "1",
                     "description": "The poker room's WebSocket protocol; payloads are defined in "
                                    f"{SCHEMA_FILE}. Generated by `python -m pokerroom.protocol.json_schema`; "
                                    "see docs/protocol.md."},
            "defaultContentType": "application/json",
            "servers": {"room": {"host": "localhost:8765", "protocol": "ws", "pathname": "/ws",
                                 "description": "`pokerroom serve` prints its address"}},
            "channels": channels, "operations": operations, "components": {"messages": messages}}


# ---------------------------------------------------------------------- the files


def rendered() -> dict[str, str]:
    """File name in docs/ -> its text."""
    def text(document: dict[str, Any]) -> str:
        return json.dumps(document, indent=1, ensure_ascii=False) + "\n"
    return {SCHEMA_FILE: text(build_schema()), ASYNCAPI_FILE: text(build_asyncapi())}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    stale = [name for name, text in rendered().items()
             if not (DOCS / name).exists() or (DOCS / name).read_text(encoding="utf-8") != text]
    if "--check" in args:
        for name in stale:
            print(f"docs/{name} is out of date: run python -m pokerroom.protocol.json_schema", file=sys.stderr)
        return 1 if stale else 0
    for name, text in rendered().items():
        (DOCS / name).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
