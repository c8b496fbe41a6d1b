"""Reading the room's WebSocket frames back from raw bytes (RFC 6455, 5.2): a server's frames are not masked."""

from __future__ import annotations

import os
import socket
import struct


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


def bound(ip: str, url: str) -> socket.socket:
    """A TCP socket to the room from ``ip`` (any 127.0.0.0/8 address is this machine on Linux)."""
    host, port = url.split("/")[2].rsplit(":", 1)
    sock = socket.socket()
    sock.bind((ip, 0))
    sock.connect((host, int(port)))
    return sock


class RawClient:
    """A WebSocket client written out byte by byte, so each test decides exactly how frames meet the socket
    (and whether it reads, or answers pings: it does neither unless told)."""

    def __init__(self, url: str, subprotocol: str = "pokerroom.v1.msgpack", *, source: str | None = None,
                 receive_buffer: int | None = None) -> None:
        host, port = url.split("/")[2].rsplit(":", 1)
        self.sock = socket.socket()
        if receive_buffer is not None:                      # before connecting: the window it offers stays small
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        if source is not None:                              # any 127.0.0.0/8 address is this machine on Linux
            self.sock.bind((source, 0))
        self.sock.settimeout(10)
        self.sock.connect((host, int(port)))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.sendall(f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                          "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                          f"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: {subprotocol}\r\n\r\n".encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("the room closed the socket during the handshake")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        self.status = int(head.split(b" ", 2)[1])
        if self.status != 101:
            raise ConnectionRefusedError(head.split(b"\r\n", 1)[0].decode())

    @staticmethod
    def frame(payload: bytes, opcode: int, fin: bool = True) -> bytes:
        mask = os.urandom(4)
        size = len(payload)
        length = bytes((0x80 | size,)) if size < 126 else bytes((0x80 | 126,)) + struct.pack("!H", size)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        return bytes(((0x80 if fin else 0) | opcode,)) + length + mask + masked

    def read_frame(self) -> tuple[int, bytes]:
        """The room's next frame but its pings: the room's timer sends those at a random moment of its own."""
        while True:
            while (whole := split_frame(self.buffer)) is None:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise ConnectionError("the room closed the socket")
                self.buffer += chunk
            opcode, payload, self.buffer = whole
            if opcode != 9:
                return opcode, payload

    def close_code(self) -> int:
        """The code of the close frame the room sends next (RFC 6455, 5.5.1)."""
        opcode, payload = self.read_frame()
        assert opcode == 8, (opcode, payload)
        return struct.unpack("!H", payload[:2])[0]

    def frames_until_closed(self) -> list[tuple[int, bytes]]:
        """Every frame the room sends until it drops the socket (or the socket resets)."""
        frames = []
        while True:
            try:
                frames.append(self.read_frame())
            except (ConnectionError, TimeoutError):
                return frames

    def close(self) -> None:
        self.sock.close()
