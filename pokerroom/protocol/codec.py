"""The two encodings of one protocol: msgpack in binary frames, JSON in text frames (DESIGN.md idea 4).

The WebSocket subprotocol picks the codec. Both decode with hard limits so a
hostile frame costs little: a size cap before any parsing, msgpack unpacker
limits on every string, array and map, no NaN or infinities in JSON, and a
nesting-depth cap. A frame that breaks any of them is a :class:`ProtocolError`.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import msgpack

from pokerroom.protocol.schema import ProtocolError

VERSION = "1.1"                 # the protocol's version, in the login and resume answers (docs/protocol.md)
MSGPACK = "pokerroom.v1.msgpack"    # the subprotocols name the major version only
JSON = "pokerroom.v1.json"
SUBPROTOCOLS = (MSGPACK, JSON)
MAX_FRAME = 16 * 1024
MAX_DEPTH = 4


_packers = threading.local()


def packer() -> msgpack.Packer:
    """This thread's packer: its ``pack(value)`` is ``msgpack.packb(value)``, byte for byte.

    ``packb`` builds a new packer and its buffer on every call: half the cost
    of packing a table event. A packer resets itself after each value (and
    after an error), so one per thread can be reused; a loop packing many
    values takes it once.
    """
    kept = getattr(_packers, "packer", None)
    if kept is None:
        kept = _packers.packer = msgpack.Packer()
    return kept


def pack(value: Any) -> bytes:
    """``msgpack.packb(value)``, byte for byte, from this thread's :func:`packer`."""
    kept = getattr(_packers, "packer", None)
    if kept is None:
        kept = _packers.packer = msgpack.Packer()
    return kept.pack(value)


def pack_with_packed_list(head: dict[str, Any], key: str, packed: list[bytes]) -> bytes:
    """``pack({**head, key: items})`` from the items packed already, byte for byte.

    A table packs each event once, for its log; the frame everyone watching
    gets is then those bytes behind a small header instead of a second pack.
    """
    size = len(head)
    if size >= 15 or key in head:
        raise ValueError("the head must be a small map without the list's key")
    count = len(packed)
    if count < 16:
        array = _FIXARRAY[count]
    elif count < 1 << 16:
        array = b"\xdc" + count.to_bytes(2, "big")
    else:
        array = b"\xdd" + count.to_bytes(4, "big")
    packing = packer().pack
    return b"".join((_FIXMAP[size + 1], packing(head)[1:], packing(key), array, *packed))


_FIXMAP = [bytes((0x80 + n,)) for n in range(16)]       # a map's and an array's header, up to 15 items
_FIXARRAY = [bytes((0x90 + n,)) for n in range(16)]


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list | tuple):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


def _no_constants(name: str) -> float:
    raise ValueError(f"{name} is not a number this protocol accepts")


class Codec:
    """Encode and decode for one subprotocol."""

    def __init__(self, subprotocol: str) -> None:
        if subprotocol not in SUBPROTOCOLS:
            raise ValueError(f"unknown subprotocol {subprotocol!r}")
        self.subprotocol = subprotocol
        self.binary = subprotocol == MSGPACK

    def decode(self, payload: bytes, is_binary: bool) -> Any:
        if len(payload) > MAX_FRAME:
            raise ProtocolError("frame_too_large", f"a frame may carry at most {MAX_FRAME} bytes")
        if is_binary != self.binary:
            kind = "binary" if self.binary else "text"
            raise ProtocolError("wrong_frame", f"{self.subprotocol} uses {kind} frames")
        try:
            if self.binary:
                value = msgpack.unpackb(payload, raw=False, strict_map_key=True,
                                        max_str_len=MAX_FRAME, max_bin_len=0, max_array_len=256,
                                        max_map_len=256, max_ext_len=0)
            else:
                value = json.loads(payload.decode("utf-8"), parse_constant=_no_constants)
        except (ValueError, TypeError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError,
                UnicodeDecodeError, RecursionError) as e:
            raise ProtocolError("bad_frame", self._unreadable(e)) from None
        if isinstance(value, dict) and not any(isinstance(v, dict | list) for v in value.values()):
            return value                                # a flat map, as nearly every request is: depth 1
        if _depth(value) > MAX_DEPTH:
            raise ProtocolError("bad_frame", f"messages nest at most {MAX_DEPTH} levels deep", data=value)
        return value

    def _unreadable(self, e: BaseException) -> str:
        """Why a frame could not be read, as a sentence about the frame: no library's or Python's names."""
        name = "msgpack" if self.binary else "JSON"
        text = str(e)
        if isinstance(e, UnicodeDecodeError):
            return "text must be UTF-8"
        if isinstance(e, msgpack.ExtraData):
            return "a frame carries one msgpack value, and this one has more bytes after it"
        if isinstance(e, msgpack.StackError | RecursionError):
            return f"messages nest at most {MAX_DEPTH} levels deep"
        if self.binary and "max_bin_len" in text:
            return "strings must be msgpack str, not bin"
        if self.binary and "max_ext_len" in text:
            return "msgpack ext types are not used"
        if self.binary and "map key" in text:
            return "map keys must be strings"
        if self.binary and "exceeds max_" in text:
            return "a map or array may hold at most 256 items"
        if not self.binary and "is not a number this protocol accepts" in text:
            return "NaN and Infinity are not numbers this protocol accepts"
        return f"the frame is not valid {name}"

    def decode_from_server(self, payload: bytes) -> Any:
        """What a client reads: the server's own messages, which nest deeper and run longer than requests."""
        if self.binary:
            return msgpack.unpackb(payload, raw=False, strict_map_key=False)
        return json.loads(payload.decode("utf-8"))

    def encode(self, message: dict[str, Any]) -> bytes:
        if self.binary:
            return pack(message)
        return json.dumps(message, separators=(",", ":"), allow_nan=False).encode("utf-8")

    def extend(self, encoded: bytes, extra: dict[str, Any]) -> bytes:
        """``encoded`` (a map this codec encoded) with ``extra``'s keys added, without encoding the rest again.

        A table's frame goes to every watcher alike but for the one whose
        decision it starts, who also gets their ``legal`` actions: that frame
        is the shared bytes and a few more. ``extra``'s keys must not be in
        ``encoded`` already.
        """
        if not extra:
            return encoded
        if self.binary:
            size = encoded[0] - 0x80 if 0x80 <= encoded[0] <= 0x8F else None     # a fixmap: up to 15 keys
            if size is None or size + len(extra) > 15:
                return pack({**msgpack.unpackb(encoded, raw=False, strict_map_key=False), **extra})
            return bytes((0x80 + size + len(extra),)) + encoded[1:] + b"".join(
                pack(key) + pack(value) for key, value in extra.items())
        more = json.dumps(extra, separators=(",", ":"), allow_nan=False).encode("utf-8")
        return more if encoded == b"{}" else encoded[:-1] + b"," + more[1:]
