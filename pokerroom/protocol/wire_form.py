"""A cash table's event as it travels to its viewers: what no client needs is left out (issue 36).

A table event goes to every viewer of the table on every action, so each
byte of it is paid once per viewer. Two things in the event as the store
keeps it carry nothing a client can use:

* a ``false`` among the flags an action or post rarely sets -- ``all_in``
  and ``timed_out`` of ``action_taken``, ``all_in`` of ``posted``: a flag
  left out is false (docs/protocol.md, "Table events");
* a whole number of seconds written as a float (``20.0``): msgpack writes a
  float in nine bytes, a small int in one; the protocol's ``float`` fields
  take an int.

:func:`lean` makes the wire form (the same dict when nothing is left out)
and :func:`whole` puts the flags back for the table's own use: the log of
packed events a resume reads holds the wire form.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from pokerroom.table.events import TABLE_EVENT_TYPES

LEFT_OUT_WHEN_FALSE: dict[str, tuple[str, ...]] = {"action_taken": ("all_in", "timed_out"), "posted": ("all_in",)}
TIMED: dict[str, tuple[str, ...]] = {      # table event -> its float fields (seconds, instants)
    name: fields for name, fields in (
        (name, tuple(f.name for f in dataclasses.fields(cls) if f.type in ("float", float)))
        for name, cls in TABLE_EVENT_TYPES.items()) if fields}


def lean(event: dict[str, Any]) -> dict[str, Any]:
    """The table event ``event`` (as ``table_event_to_dict`` writes it) as its viewers get it."""
    if event["type"] == "hand_event":
        inner = event["event"]
        flags = LEFT_OUT_WHEN_FALSE.get(inner["type"])
        if flags is None:
            return event
        kept = {key: value for key, value in inner.items() if value is not False or key not in flags}
        return event if len(kept) == len(inner) else {**event, "event": kept}
    timed = TIMED.get(event["type"])
    if timed is None:
        return event
    out = None
    for key in timed:
        value = event[key]
        if type(value) is float and value.is_integer():
            if out is None:
                out = dict(event)
            out[key] = int(value)
    return event if out is None else out


def whole(event: dict[str, Any]) -> dict[str, Any]:
    """A table event in its wire form (:func:`lean`) with the flags left out put back, for ``table_event_from_dict``."""
    if event.get("type") == "hand_event":
        inner = event["event"]
        flags = LEFT_OUT_WHEN_FALSE.get(inner.get("type"))
        if flags is not None and any(flag not in inner for flag in flags):
            return {**event, "event": {**inner, **{flag: False for flag in flags if flag not in inner}}}
    return event
