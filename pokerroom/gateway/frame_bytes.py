"""A frame's bytes, made once per subprotocol for all the connections it goes to, and kept by the gateway.

A table's frame reaches every watcher at once (the in-process bus calls them
one after another inside the publisher's call), so the gateway encodes its
``message`` once per subprotocol and writes the same WebSocket frame to each
(a server's frames are not masked). Those bytes live here, not in the frame:
a :class:`~pokerroom.bus.records.Frame` is a bus record and nobody writes
into one. They are kept by the message's identity, with the message itself
(so no other message can take its id while it is here), for a few hundred
messages: far more than one turn's fan-out needs, and little memory.
"""

from __future__ import annotations

from typing import Any

from pokerroom.bus.records import Frame
from pokerroom.protocol.codec import Codec

KEPT = 256                      # messages whose bytes are kept; past that the memory starts again


def data_frame(payload: bytes, binary: bool) -> bytes:
    """One unfragmented, unmasked WebSocket frame (RFC 6455, 5.2) carrying ``payload``.

    What Autobahn's ``prepareMessage`` builds for a server without compression
    (the room accepts none), without the object around it: a table event's frame
    is made once and written to every watcher.
    """
    size = len(payload)
    opcode = 0x82 if binary else 0x81                       # FIN and binary (2) or text (1)
    if size < 126:
        return bytes((opcode, size)) + payload
    if size < 1 << 16:
        return bytes((opcode, 126)) + size.to_bytes(2, "big") + payload
    return bytes((opcode, 127)) + size.to_bytes(8, "big") + payload


class PreparedFrames:
    """The encoded payload and the whole WebSocket frame of recent frames' messages, per subprotocol."""

    __slots__ = ("kept",)

    def __init__(self) -> None:
        self.kept: dict[tuple[int, str], tuple[Any, bytes, bytes]] = {}   # (id(message), subprotocol) -> bytes

    def prepared(self, frame: Frame, codec: Codec) -> tuple[bytes, bytes]:
        """``frame.message`` as ``codec`` encodes it, and as a whole frame: made the first time it is asked for."""
        message = frame.message
        key = (id(message), codec.subprotocol)
        kept = self.kept.get(key)
        if kept is not None:
            return kept[1], kept[2]
        payload = frame.packed if codec.binary and frame.packed is not None else codec.encode(message)
        whole = data_frame(payload, codec.binary)
        if len(self.kept) >= KEPT:
            self.kept.clear()
        self.kept[key] = (message, payload, whole)
        return payload, whole

    def encoded(self, frame: Frame, codec: Codec) -> bytes:
        """The whole WebSocket frame of ``frame`` for one connection of ``codec``: ``extra``'s keys added to the
        shared encoding when it has some."""
        payload, whole = self.prepared(frame, codec)
        extra = frame.extra
        return data_frame(codec.extend(payload, extra), codec.binary) if extra else whole
