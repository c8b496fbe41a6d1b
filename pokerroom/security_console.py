"""The security team at a terminal: ``pokerroom audit …`` on the database, ``pokerroom review …`` on the room.

``pokerroom audit verify`` reads the database directly (the room may be
running or not) and says where the chain or a stored hand or chat line no
longer matches (SEC-5); ``pokerroom audit anchor`` writes the chain's head to a
file kept elsewhere, which later verifications check, so that cutting records
off the end shows too.

``pokerroom review REQUEST name=value …`` speaks the protocol to a running room
as a security account, like the browser pages do: every ``security_*``
request is there (``review hands player=alice``, ``review hand hand_id=t1-7``,
``review void player=bob hands=t1-7,t1-9 reason="…"``), each field checked
and converted by the protocol's own schema. A replayed hand prints as
PokerStars text with every card.
"""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from pokerroom.protocol.schema import REQUESTS, Field
from pokerroom.security.audit import Anchor

PREFIX = "security_"


def _store(args: argparse.Namespace) -> Any:
    from pokerroom.store.db import make_engine, migrate, sqlite_url
    from pokerroom.store.room_store import RoomStore

    engine = make_engine(args.database or os.environ.get("POKERROOM_DATABASE") or sqlite_url(args.data_dir))
    migrate(engine)
    return RoomStore(engine)


def _anchors(path: str) -> list[Anchor]:
    if not path or not Path(path).exists():
        return []
    return [Anchor.parse(line) for line in Path(path).read_text().splitlines() if line.strip()]


def verify(args: argparse.Namespace) -> int:
    verdict = _store(args).audit_log.verify_audit(_anchors(args.anchors))
    if verdict.intact:
        print(f"audit log intact: {verdict.count} records, head {verdict.head}; every stored hand and chat line "
              f"matches its record")
        return 0
    print(f"audit log NOT intact ({verdict.count} records, head {verdict.head}):")
    for problem in verdict.problems:
        print(f"  - {problem}")
    return 1


def anchor(args: argparse.Namespace) -> int:
    verdict = _store(args).audit_log.verify_audit(_anchors(args.anchors))
    if not verdict.intact:
        print("the chain does not verify: no anchor written (run `pokerroom audit verify`)", file=sys.stderr)
        return 1
    with open(args.anchors, "a") as out:
        noted = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        out.write(f"{Anchor(verdict.count, verdict.head).line()} {noted}\n")
    print(f"anchored record {verdict.count} ({verdict.head}) in {args.anchors}; keep a copy off this machine")
    return 0


def _value(kind: str, name: str, rule: Field, text: str) -> Any:
    if rule.kind == "int":
        return int(text)
    if rule.kind == "bool":
        if text not in ("true", "false"):
            raise ValueError(f"{kind} {name} is true or false")
        return text == "true"
    if rule.kind == "list":
        return [part for part in text.split(",") if part]
    if text == "null" and rule.nullable:
        return None
    return text


def parse_fields(kind: str, pairs: list[str]) -> dict[str, Any]:
    """``name=value`` words as the request's fields, converted by the schema (which checks them again)."""
    spec = REQUESTS[kind]
    fields = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        if not sep or name not in spec:
            raise ValueError(f"{kind[len(PREFIX):]} takes {', '.join(f'{n}=…' for n in spec)}; not {pair!r}")
        fields[name] = _value(kind, name, spec[name], text)
    return fields


def _print_answer(kind: str, answer: dict, out: Any) -> None:
    from pokerroom.poker import events as he
    from pokerroom.poker.history.pokerstars import to_pokerstars

    if kind == "security_hand":
        hand = answer["hand"]
        out.write(to_pokerstars(he.events_from_stored(hand["events"])))
        for line in hand["chat"]:
            out.write(f"chat {time.strftime('%H:%M:%S', time.gmtime(line['at']))} {line['player']}: "
                      f"{line['text']}{' [blocked]' if line['blocked'] else ''}\n")
    elif kind == "security_hands":
        for h in answer["hands"]:
            ended = time.strftime("%Y-%m-%d %H:%M", time.gmtime(h["ended_at"]))
            out.write(f"{h['hand_id']:<24} {h['table']:<16} {ended}  {', '.join(h['players'])}\n")
    elif kind == "security_pairs":
        for n, pair in enumerate(answer["pairs"], 1):
            out.write(f"{n:>3}. {' & '.join(pair['players'])}  score {pair['score']:.2f}\n")
            top = sorted(pair["signals"].items(), key=lambda s: -s[1]["score"])[:3]
            for name, signal in top:
                if signal["score"] > 0:
                    out.write(f"       {name}: {signal['why']}\n")
        for ring in answer["rings"]:
            out.write(f"ring: {', '.join(ring['players'])}  score {ring['score']:.2f}\n")
    elif kind == "security_export":
        Path(answer["filename"]).write_text(answer["text"])
        out.write(f"{answer['hands']} hands written to {answer['filename']}\n")
    else:
        body = {k: v for k, v in answer.items() if k not in ("type", "rid", "ok")}
        out.write(json.dumps(body, indent=2, sort_keys=True) + "\n")


def review(args: argparse.Namespace) -> int:
    from websockets.sync.client import connect

    kind = args.request if args.request.startswith(PREFIX) else PREFIX + args.request.replace("-", "_")
    if kind not in REQUESTS:
        names = sorted(k[len(PREFIX):] for k in REQUESTS if k.startswith(PREFIX))
        raise ValueError(f"no request {args.request!r}; there are {', '.join(names)}")
    fields = parse_fields(kind, args.fields)
    if not args.nickname:
        raise ValueError("name the security account: --nickname NAME (or POKERROOM_NICKNAME)")
    password = os.environ.get("POKERROOM_PASSWORD") or getpass.getpass(f"password for {args.nickname}: ")
    with connect(args.url, subprotocols=["pokerroom.v1.json"], max_size=2**26, open_timeout=10) as ws:
        rid = 0

        def ask(request_type: str, **data: Any) -> dict:
            nonlocal rid
            rid += 1
            ws.send(json.dumps({"type": request_type, "rid": rid, **data}))
            while True:
                message = json.loads(ws.recv(timeout=120))
                if message.get("rid") == rid and "ok" in message:
                    return message

        login = ask("login", nickname=args.nickname, password=password, client="desktop")
        answer = ask(kind, **fields) if login["ok"] else login
        if not answer["ok"]:
            e = answer["error"]
            print(f"refused: {e['message']} ({e['code']}{', ' + e['rule'] if e.get('rule') else ''})",
                  file=sys.stderr)
            return 1
        _print_answer(kind, answer, sys.stdout)
    return 0


def add_commands(commands: Any) -> None:
    audit = commands.add_parser("audit", help="check the tamper-evident audit log (SEC-5)")
    steps = audit.add_subparsers(dest="step", required=True)
    for name, run, text in (("verify", verify, "say whether any record, hand or chat line was edited, removed or "
                                                "reordered, and where"),
                            ("anchor", anchor, "write the chain's head to the anchors file (keep it elsewhere)")):
        step = steps.add_parser(name, help=text)
        step.add_argument("--database", default="", help="SQLAlchemy URL (default: SQLite in --data-dir)")
        step.add_argument("--data-dir", default="data")
        step.add_argument("--anchors", default="" if name == "verify" else "audit-anchors.txt",
                          help="a file of heads written by `audit anchor`")
        step.set_defaults(run=run)
    names = ", ".join(sorted(k[len(PREFIX):] for k in REQUESTS if k.startswith(PREFIX)))
    rev = commands.add_parser("review", help="the security team's review and actions on a running room",
                              description=f"requests: {names}. Fields as name=value (lists comma-separated). "
                                          "The password comes from POKERROOM_PASSWORD or a prompt.")
    rev.add_argument("request")
    rev.add_argument("fields", nargs="*", help="name=value")
    rev.add_argument("--url", default=os.environ.get("POKERROOM_URL", "ws://127.0.0.1:8765/ws"))
    rev.add_argument("--nickname", default=os.environ.get("POKERROOM_NICKNAME", ""))
    rev.set_defaults(run=review)
