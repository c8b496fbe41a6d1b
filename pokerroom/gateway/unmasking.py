"""Unmasking the frames clients send, for Autobahn, with one integer XOR per read.

Every frame a client sends is masked (RFC 6455, 5.3) and a room's frames are
small: an action is some sixty bytes. Autobahn's native masker is built for
large payloads -- each frame builds a CFFI object, allocates a C buffer and
copies through it -- and at a few thousand actions a second that setup cost
more than the rest of reading a frame. :class:`FrameUnmasker` keeps the same
interface (``process``, ``pointer``, ``reset``) and unmasks a read as one XOR
of two Python integers, which stays linear up to the 16 KiB frame cap.
"""

from __future__ import annotations

from autobahn.websocket import protocol as _autobahn_protocol


class FrameUnmasker:
    """XOR with a 4-byte mask, continuing where the previous read of the same frame stopped."""

    __slots__ = ("_mask", "_pointer")

    def __init__(self, mask: bytes, length: int | None = None) -> None:     # noqa: ARG002 - Autobahn's signature
        if len(mask) != 4:
            raise ValueError("a WebSocket mask is 4 bytes")
        self._mask = bytes(mask)
        self._pointer = 0

    def pointer(self) -> int:
        return self._pointer

    def reset(self) -> None:
        self._pointer = 0

    def process(self, data: bytes) -> bytes:
        shift = self._pointer & 3
        self._pointer += len(data)
        return unmask(self._mask[shift:] + self._mask[:shift] if shift else self._mask, data)


def unmask(mask: bytes, data: bytes) -> bytes:
    """``data`` XOR the 4-byte ``mask`` repeated: a whole frame's payload, unmasked (or masked) in one step."""
    size = len(data)
    key = (mask * (size // 4 + 1))[:size]
    return (int.from_bytes(data, "little") ^ int.from_bytes(key, "little")).to_bytes(size, "little")


def install() -> bool:
    """Make Autobahn's frame reader use :class:`FrameUnmasker`; False (and nothing changed) if it reads differently."""
    if not callable(getattr(_autobahn_protocol, "create_xor_masker", None)):
        return False
    _autobahn_protocol.create_xor_masker = FrameUnmasker
    return True
