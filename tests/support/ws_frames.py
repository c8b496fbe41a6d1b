"""Reading the room's WebSocket frames back from raw bytes (RFC 6455, 5.2): a server's frames are not masked."""

from __future__ import annotations


def split_frame(buffer: bytes) -> tuple[int, bytes, bytes] | None:
    """The first whole frame in ``buffer`` as ``(opcode, payload, what follows it)``; None while it is not all there."""
    if len(buffer) < 2:
        return None
    size, start = buffer[1] & 0x7F, 2
    if size == 126:
        size, start = int.from_bytes(buffer[2:4], "big"), 4
    elif size == 127:
        size, start = int.from_bytes(buffer[2:10], "big"), 10
    if len(buffer) < start + size:
        return None
    return buffer[0] & 0x0F, buffer[start:start + size], buffer[start + size:]
