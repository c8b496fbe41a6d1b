"""What each frame carries per viewer per action: bytes by frame type, event type and field.

    PYTHONPATH=. .venv/bin/python bench/frame_bytes.py [--tables T] [--actions N] [--codec msgpack|json]

Plays ``bench/action_path.py``'s room (six bots a table, the load test's choices, in process, the writer
inline) and counts every byte each seated player's connection is sent: the whole frames (WebSocket header
included) per action, and within them what each push type, event type and field costs. A field's cost is its
key and its value as the codec writes them inside its map (an event nested in a ``hand_event`` is counted
under ``hand_event.<its type>``); the rest of a frame (map and array headers, the WebSocket header) is
``overhead``. Answers (the ``act`` answers) are counted apart. Deterministic.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import action_path  # noqa: E402
from action_path import Bench  # noqa: E402

from pokerroom.bus.records import Frame  # noqa: E402
from pokerroom.gateway.frame_bytes import data_frame  # noqa: E402
from pokerroom.protocol.codec import JSON, MSGPACK, Codec  # noqa: E402


class Tally:
    """Bytes by push type, by event type and by field, over every connection."""

    def __init__(self, codec: Codec) -> None:
        self.codec = codec
        self.frames: Counter = Counter()            # push type -> bytes on the wire
        self.count: Counter = Counter()             # push type -> frames
        self.events: Counter = Counter()            # event type -> bytes (its map, in its wrapper)
        self.fields: Counter = Counter()            # "<where>.<field>" -> bytes of key and value
        self.answers = 0

    def size(self, value: Any) -> int:
        return len(self.codec.encode(value)) if isinstance(value, dict) else len(self.codec.encode({"": value})) - (
            len(self.codec.encode({"": 0})) - 1)

    def pair(self, key: str, value: Any) -> int:
        """What ``key: value`` adds to a map."""
        return len(self.codec.encode({key: value})) - len(self.codec.encode({}))

    def fields_of(self, where: str, message: dict) -> None:
        for key, value in message.items():
            self.fields[f"{where}.{key}"] += self.pair(key, value)

    def frame(self, message: dict, wire: int) -> None:
        kind = message.get("type", "?")
        self.frames[kind] += wire
        self.count[kind] += 1
        self.fields_of(kind, message)
        for key in ("events",):
            for event in message.get(key, ()):
                name = event.get("type", "?")
                inner = event.get("event")
                if isinstance(inner, dict):
                    name = f"{name}.{inner.get('type', '?')}"
                    self.fields_of(name, {k: v for k, v in inner.items()})
                    self.fields_of(f"{name}(wrapper)", {k: v for k, v in event.items() if k != "event"})
                else:
                    self.fields_of(name, event)
                self.events[name] += self.size(event)
        if "legal" in message:
            self.fields_of("legal", message["legal"])


def counting_connection(tally: Tally) -> type:
    base = action_path.Connection

    class Counting(base):
        def send(self, message: dict) -> None:
            tally.answers += len(data_frame(tally.codec.encode(message), tally.codec.binary))
            super().send(message)

        def send_frame(self, frame: Frame) -> None:
            message = dict(frame.message, **frame.extra) if frame.extra else frame.message
            tally.frame(message, len(data_frame(tally.codec.encode(message), tally.codec.binary)))
            super().send_frame(frame)

    return Counting


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--actions", type=int, default=5_000)
    parser.add_argument("--warmup", type=int, default=500)
    parser.add_argument("--codec", choices=("msgpack", "json"), default="msgpack")
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args()
    tally = Tally(Codec(MSGPACK if args.codec == "msgpack" else JSON))
    action_path.Connection = counting_connection(tally)
    with tempfile.TemporaryDirectory() as directory:
        bench = Bench(args.tables, "inline", directory)
        bench.play(args.warmup)
        bench.flush()
        warm = Tally(tally.codec)
        for name in ("frames", "count", "events", "fields"):
            setattr(warm, name, Counter(getattr(tally, name)))
        answers = tally.answers
        bench.play(args.actions)
        bench.flush()
        bench.close()
    per = 1 / args.actions
    for name in ("frames", "count", "events", "fields"):
        getattr(tally, name).subtract(getattr(warm, name))
    total = sum(tally.frames.values())
    viewers = 6
    print(f"{args.codec}: {total * per:.0f} bytes of pushes per action to the table's {viewers} seated players "
          f"({total * per / viewers:.0f} per viewer), {sum(tally.count.values()) * per:.2f} frames; "
          f"answers {(tally.answers - answers) * per:.0f} bytes per action")
    print("\nby push type (bytes per action, frames per action):")
    for kind, size in tally.frames.most_common():
        print(f"  {kind:32} {size * per:8.1f}  {tally.count[kind] * per:6.2f}")
    print("\nby event (bytes per action, all viewers):")
    for kind, size in tally.events.most_common(args.top):
        print(f"  {kind:40} {size * per:8.1f}")
    print(f"\nby field (key and value, bytes per action, all viewers; top {args.top}):")
    for kind, size in tally.fields.most_common(args.top):
        print(f"  {kind:48} {size * per:8.1f}")


if __name__ == "__main__":
    main()
