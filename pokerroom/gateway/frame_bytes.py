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

    __slots__ = ("by_subprotocol",)

    def __init__(self) -> None:
        self.by_subprotocol: dict[str, CodecFrames] = {}

    def of(self, codec: Codec) -> CodecFrames:
        """The bytes kept for ``codec``'s subprotocol: a connection asks once, when its subprotocol is chosen."""
        kept = self.by_subprotocol.get(codec.subprotocol)
        if kept is None:
            kept = self.by_subprotocol[codec.subprotocol] = CodecFrames(codec)
        return kept

    def prepared(self, frame: Frame, codec: Codec) -> tuple[bytes, bytes]:
        """``frame.message`` as ``codec`` encodes it, and as a whole frame: made the first time it is asked for."""
        return self.of(codec).prepared(frame)

    def encoded(self, frame: Frame, codec: Codec) -> bytes:
        """The whole WebSocket frame of ``frame`` for one connection of ``codec``."""
        return self.of(codec).encoded(frame)


class CodecFrames:
    """One subprotocol's bytes of recent frames' messages, by the message's identity: a table's frame goes to
    every seated player and observer one after another, so all but the first find theirs here with one lookup."""

    __slots__ = ("codec", "binary", "kept")

    def __init__(self, codec: Codec) -> None:
        self.codec = codec
        self.binary = codec.binary
        self.kept: dict[int, tuple[Any, bytes, bytes]] = {}     # id(message) -> (message, payload, whole frame)

    def prepared(self, frame: Frame) -> tuple[bytes, bytes]:
        """``frame.message`` encoded, and as a whole frame: made the first time it is asked for."""
        kept = self.kept.get(id(frame.message))
        if kept is None:
            kept = self._prepare(frame)
        return kept[1], kept[2]

    def encoded(self, frame: Frame) -> bytes:
        """The whole WebSocket frame of ``frame`` for one connection: ``extra``'s keys added to the shared encoding
        when it has some."""
        kept = self.kept.get(id(frame.message))
        if kept is None:
            kept = self._prepare(frame)
        extra = frame.extra
        return data_frame(self.codec.extend(kept[1], extra), self.binary) if extra else kept[2]

    def _prepare(self, frame: Frame) -> tuple[Any, bytes, bytes]:
        message = frame.message
        binary = self.binary
        payload = frame.packed if binary and frame.packed is not None else self.codec.encode(message)
        kept = (message, payload, data_frame(payload, binary))  # the message kept: no other can take its id
        if len(self.kept) >= KEPT:
            self.kept.clear()
        self.kept[id(message)] = kept
        return kept
