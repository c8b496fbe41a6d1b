"""How a bus record crosses a process line: declared by :func:`record`, packed as a msgpack extension.

:func:`record` declares a frozen dataclass a bus record under a short wire name; :func:`packb` and :func:`unpackb`
carry records as a msgpack extension (``RECORD_EXT``): the name, then the field values in declaration order. The
records themselves are declared in :mod:`pokerroom.bus.records`, the one file of the process line.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

import msgpack

RECORD_EXT = 1                              # the msgpack extension type of a record
RECORDS: dict[str, type] = {}               # wire name -> record class
_NAMES: dict[type, str] = {}

R = TypeVar("R", bound=type)


def record(name: str):
    """Declare a frozen dataclass as a bus record under ``name`` (unique, short: it goes in every message)."""

    def declare(cls: R) -> R:
        if not (dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen):   # type: ignore[attr-defined]
            raise TypeError(f"{cls.__name__}: a bus record is a frozen dataclass")
        if name in RECORDS:
            raise ValueError(f"two bus records are called {name!r}")
        RECORDS[name], _NAMES[cls] = cls, name
        return cls

    return declare


class NotPlainData(TypeError):
    """A payload another process could not receive: an object that is not a record, a set."""


def _default(value: Any) -> Any:
    name = _NAMES.get(type(value))
    if name is None:
        raise TypeError(f"{type(value).__name__} is not plain data or a bus record")
    fields = [getattr(value, f.name) for f in dataclasses.fields(value)]
    return msgpack.ExtType(RECORD_EXT, msgpack.packb([name, *fields], default=_default, use_bin_type=True))


def _ext(code: int, data: bytes) -> Any:
    if code != RECORD_EXT:
        return msgpack.ExtType(code, data)
    name, *fields = msgpack.unpackb(data, raw=False, use_list=False, ext_hook=_ext, strict_map_key=False)
    cls = RECORDS.get(name)
    if cls is None:
        raise NotPlainData(f"no bus record is called {name!r}")
    return cls(*fields)


def packb(payload: Any) -> bytes:
    """The payload as a message's bytes; :class:`NotPlainData` for anything another process could not read."""
    try:
        return msgpack.packb(payload, default=_default, use_bin_type=True)
    except (TypeError, ValueError, OverflowError) as e:
        raise NotPlainData(str(e)) from None


def unpackb(data: bytes) -> Any:
    """A message's bytes as the payload again: records as their classes, sequences inside records as tuples."""
    return msgpack.unpackb(data, raw=False, ext_hook=_ext, strict_map_key=False)
