"""The ``pokerroom`` command.

Until the room server lands, it shows a table of the room played by bots
(``pokerroom demo``) and offers the evaluator to a person at a terminal:
``pokerroom equity AhKh 2c2d`` and ``pokerroom hand AsKsQsJsTs``.
"""

from __future__ import annotations

import argparse
import sys
import time

from pokerroom import cards
from pokerroom.evaluator import describe, equity, evaluate, evaluate_omaha
from pokerroom.gateway.draining import DRAIN_SECONDS
from pokerroom.players import ROLES


def _equity(args: argparse.Namespace) -> int:
    holes = [cards.parse(h) for h in args.hands]
    board = cards.parse(args.board) if args.board else ()
    dead = cards.parse(args.dead) if args.dead else ()
    started = time.perf_counter()
    result = equity(holes, board, dead)
    elapsed = time.perf_counter() - started
    game = "Omaha" if len(holes[0]) >= 4 else "Hold'em"
    shown = f"board [{cards.format(board, ' ')}]" if board else "pre-flop"
    print(f"{game}, {shown}, {result[0].boards:,} boards dealt in {elapsed * 1000:.1f} ms")
    for hole, share in zip(holes, result, strict=True):
        print(f"  {cards.format(hole):<14} equity {share.equity:7.3%}"
              f"   win {share.win:7.3%}   tie {share.tie:7.3%}")
    return 0


def _hand(args: argparse.Namespace) -> int:
    hand = cards.parse(args.cards)
    if args.board:
        value = evaluate_omaha(hand, cards.parse(args.board))
    else:
        value = evaluate(hand)
    print(f"{cards.format(hand, ' ')}: {describe(value)} (value {value} of 7462)")
    return 0


def _demo(args: argparse.Namespace) -> int:
    from pokerroom.demo import run_demo
    from pokerroom.table.config import load_tables

    tables = {t.table_id: t for t in load_tables(args.config or None)}
    table_id = args.table or next(iter(tables))
    if table_id not in tables:
        raise ValueError(f"no table {table_id!r} in the config; there are {', '.join(tables)}")
    table = run_demo(tables[table_id], args.hands, args.seed, print)
    print(f"\n{table.hand_number} hands at {table_id}; rake {table.rake}, "
          f"chips in {table.chips_in}, out {table.chips_out}, on the table {sum(table.stacks().values())}")
    return 0


def _serve(args: argparse.Namespace) -> int:
    from pokerroom.app import serve
    from pokerroom.bus.nats_options import BusTls

    if args.role != "both" and args.bots:
        raise ValueError(f"--bots with --role {args.role}: the demo's bots need both sides in one process; "
                         "leave --role out, or start bots with `pokerroom bots` against the gateway")
    # a demo's own bots connect straight to the port, which --proxy-protocol keeps for HAProxy
    bots = args.bots if args.bots is not None else (
        6 if args.demo and args.role == "both" and not args.proxy_protocol else 0)
    return serve(args.host, args.port, args.config or None, args.database or None, args.data_dir, args.demo, bots,
                 args.max_rate, args.max_connections, node=args.node, bus=args.bus, drain_seconds=args.drain_seconds,
                 proxy_protocol=args.proxy_protocol, role=args.role,
                 bus_tls=BusTls(args.bus_ca, args.bus_cert, args.bus_key))


def _bots(args: argparse.Namespace) -> int:
    from twisted.internet import reactor

    from pokerroom.bot_credentials import SECRET_ENV
    from pokerroom.client import start_bots

    tables = [t for t in args.tables.split(",") if t]
    if not tables:
        raise ValueError("name at least one table, e.g. --tables nl-aldebaran")
    secret = _bot_secret(args)
    if secret is None:
        print(f"the room at {args.url} is not in demo mode: its bots need a secret of yours for their passwords, "
              f"in {SECRET_ENV} or a --secret-file (docs/operations.md)", file=sys.stderr)
        return 2
    start_bots(reactor, args.url, args.count, tables, think=(args.think / 2, args.think * 1.5),
               strategy=args.strategy, prefix=args.prefix, secret=secret)
    print(f"{args.count} {args.strategy} bots playing at {', '.join(tables)} on {args.url}; Ctrl-C stops them")
    reactor.run()
    return 0


def _bot_secret(args: argparse.Namespace) -> bytes | None:
    """The operator's secret; for a demo room, the one beside its data (if on this machine) or a new one."""
    import os
    from pathlib import Path

    from pokerroom.bot_credentials import DEMO_SECRET_FILE, new_secret, operator_secret, room_is_demo

    secret = operator_secret(args.secret_file or None, os.environ)
    if secret is not None or not room_is_demo(args.url):
        return secret
    kept = Path(args.data_dir) / DEMO_SECRET_FILE
    return kept.read_text().strip().encode() if kept.exists() else new_secret()


def _simulate_tournament(args: argparse.Namespace) -> int:
    from tournament.simulate import main as simulate

    return simulate(args.players, seed=args.seed, structure=args.structure)


def _simulate_casino(args: argparse.Namespace) -> int:
    from pokerroom.casino.simulate import main as simulate

    return simulate(args.game, args.rounds, players=args.players, seed=args.seed)


def _role(args: argparse.Namespace) -> int:
    import os

    from pokerroom.players import nickname_key
    from pokerroom.store.db import make_engine, migrate, sqlite_url
    from pokerroom.store.room_store import RoomStore

    engine = make_engine(args.database or os.environ.get("POKERROOM_DATABASE") or sqlite_url(args.data_dir))
    migrate(engine)
    store = RoomStore(engine)
    # running rooms apply it (STAFF-3)
    account = store.sessions.set_role(nickname_key(args.nickname), args.role, time.time())
    if account is None:
        raise ValueError(f"there is no account {args.nickname!r}")
    store.audit("role_granted", {"nickname": account.nickname, "role": args.role, "by": "operator"}, time.time())
    print(f"{account.nickname} is now {args.role}; it takes effect at once, on their live sessions too "
          "(a running room applies it within its session_check_seconds)")
    if args.role in ("security", "admin"):                     # SEC-2: staff do not play
        print("security and admin accounts do not play: if they are seated, the running room stands them up "
              "after the hand and takes them off waiting lists; they can make no new entry or bet")
    return 0


def _ledger_check(args: argparse.Namespace) -> int:
    """Exit 0 when the stored ledger is sound; 1 and one line per problem otherwise (STAFF-1)."""
    import os
    from pathlib import Path

    from sqlalchemy.exc import SQLAlchemyError

    from pokerroom.store.db import make_engine
    from pokerroom.store.room_store import RoomStore

    url = args.database or os.environ.get("POKERROOM_DATABASE") or ""
    if not url:
        path = Path(args.data_dir) / "room.db"
        if not path.exists():
            raise ValueError(f"there is no database at {path}")
        url = f"sqlite:///{path}"
    try:
        problems = RoomStore(make_engine(url)).ledger.ledger_problems()
    except SQLAlchemyError as e:
        raise ValueError(f"the ledger cannot be read: {e.__class__.__name__}") from None
    for problem in problems:
        print(problem)
    if not problems:
        print("the ledger is sound: every transfer balances, every balance matches its postings, "
              "world moved only for deposits and withdrawals, no wallet is negative")
    return 1 if problems else 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pokerroom", description="pokerroom: an online poker room server.")
    commands = parser.add_subparsers(dest="command", required=True)

    eq = commands.add_parser("equity", help="exact all-in equity of 2-9 hands over every board")
    eq.add_argument("hands", nargs="+", help="hole cards per player, e.g. AhKh 2c2d (Omaha: 4-6 cards)")
    eq.add_argument("--board", default="", help="known board cards, e.g. Qh7h2s")
    eq.add_argument("--dead", default="", help="cards out of the deck")
    eq.set_defaults(run=_equity)

    hand = commands.add_parser("hand", help="name the best hand in 5-7 cards")
    hand.add_argument("cards", help="e.g. AsKsQsJsTs9h; with --board, Omaha hole cards")
    hand.add_argument("--board", default="",
                      help="Omaha: the board (exactly two hole and three board cards play)")
    hand.set_defaults(run=_hand)

    demo = commands.add_parser("demo", help="watch bots play a table of the room, with its house rules")
    demo.add_argument("--table", default="", help="table id from the config (default: the first)")
    demo.add_argument("--hands", type=int, default=12, help="how many hands to play")
    demo.add_argument("--seed", type=int, default=None, help="repeat a demo exactly")
    demo.add_argument("--config", default="", help="room config file (default: config/room.toml)")
    demo.set_defaults(run=_demo)

    serve = commands.add_parser("serve", help="run the room: WebSocket on /ws, /health, /metrics")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8765, help="0 picks a free port")
    serve.add_argument("--config", default="", help="room config (default: config/room.toml)")
    serve.add_argument("--database", default="", help="SQLAlchemy URL, e.g. postgresql://user@host/pokerroom "
                                                       "(default: SQLite in --data-dir; or POKERROOM_DATABASE)")
    serve.add_argument("--node", default="main", help="this process's name in the room, unique among its processes "
                                                      "(shown by /health)")
    serve.add_argument("--bus", default="", help="the broker's URL, nats://HOST:PORT/ROOM (default: the in-process "
                                                 "bus, one process); its login nats://USER@HOST:PORT/ROOM with the "
                                                 "password in POKERROOM_BUS_PASSWORD (a URL's shows in ps); "
                                                 "tls://… for TLS")
    serve.add_argument("--bus-ca", default="", help="tls:// bus: the CA file that signed the NATS server's "
                                                    "certificate (default: the system's CAs)")
    serve.add_argument("--bus-cert", default="", help="tls:// bus: this process's certificate, where NATS asks")
    serve.add_argument("--bus-key", default="", help="tls:// bus: the key of --bus-cert (unencrypted)")
    serve.add_argument("--role", default="both", choices=["both", "gateway", "tables"],
                       help="which side of the process line this process runs: both (one process), gateway (the "
                            "clients' connections) or tables (the tables, wallet and hall; /health only); a role "
                            "needs --bus nats://… and the database the other side uses")
    serve.add_argument("--drain-seconds", type=float, default=DRAIN_SECONDS,
                       help="on SIGTERM, how long the process keeps serving its connections at most while /health "
                            "answers 503 (a second SIGTERM or Ctrl-C stops it at once)")
    serve.add_argument("--proxy-protocol", action="store_true",
                       help="behind HAProxy with send-proxy-v2: each connection starts with a PROXY header (v1 or "
                            "v2) naming the player's address, which the room then sees; one without it is closed")
    serve.add_argument("--data-dir", default="data", help="where the SQLite database lives")
    serve.add_argument("--demo", action="store_true", help="play money for everyone, and bots at the tables")
    serve.add_argument("--bots", type=int, default=None, help="bots to start (demo: 6)")
    serve.add_argument("--max-rate", type=float, default=20.0, help="messages a second per connection")
    serve.add_argument("--max-connections", type=int, default=10_000,
                       help="WebSocket connections at once; more are refused with 503 at the handshake")
    serve.set_defaults(run=_serve)

    from pokerroom.client import STRATEGIES

    bots = commands.add_parser("bots", help="bot players for a running room")
    bots.add_argument("--url", required=True, help="the room, e.g. ws://127.0.0.1:8765/ws")
    bots.add_argument("--count", type=int, default=3)
    bots.add_argument("--tables", default="nl-aldebaran", help="comma-separated table ids; three bots a table")
    bots.add_argument("--strategy", choices=sorted(STRATEGIES), default="loose")
    bots.add_argument("--think", type=float, default=1.0, help="average seconds before acting")
    bots.add_argument("--prefix", default="bot", help="bots are named PREFIX001, PREFIX002, ...")
    bots.add_argument("--secret-file", default="", help="the bots' secret (else POKERROOM_BOT_SECRET); a room "
                      "not in demo mode needs one")
    bots.add_argument("--data-dir", default="data", help="a demo room's data on this machine (its bots' secret)")
    bots.set_defaults(run=_bots)

    role = commands.add_parser("role", help="give an account a role: player, director (tournaments), "
                                            "security (review), admin")
    role.add_argument("nickname")
    role.add_argument("role", choices=list(ROLES))
    role.add_argument("--database", default="", help="SQLAlchemy URL (default: SQLite in --data-dir)")
    role.add_argument("--data-dir", default="data")
    role.set_defaults(run=_role)

    ledger = commands.add_parser("ledger", help="the stored ledger: `ledger check` (exit 0 sound, 1 problems)")
    ledger_commands = ledger.add_subparsers(dest="ledger_command", required=True)
    check = ledger_commands.add_parser("check", help="every transfer balances, balances match their postings, "
                                                     "world moves only for deposits/withdrawals, no wallet < 0")
    check.add_argument("--database", default="", help="SQLAlchemy URL (default: SQLite in --data-dir; "
                                                      "or POKERROOM_DATABASE)")
    check.add_argument("--data-dir", default="data")
    check.set_defaults(run=_ledger_check)

    sim = commands.add_parser("simulate-tournament",
                              help="a whole tournament with bots in one process, checked after every hand")
    sim.add_argument("--players", type=int, default=1000)
    sim.add_argument("--seed", type=int, default=1, help="the same seed plays the same tournament")
    sim.add_argument("--structure", default="", help="a config/structures name (default: daily, re-sized)")
    sim.set_defaults(run=_simulate_tournament)

    from pokerroom.casino.config import GAMES

    casino = commands.add_parser("simulate-casino",
                                 help="bots at a live casino table, every chip through a ledger checked each round; "
                                      "measured RTP against the exact")
    casino.add_argument("--game", required=True, choices=sorted(GAMES))
    casino.add_argument("--rounds", type=int, default=1000)
    casino.add_argument("--players", type=int, default=1, help="bots at the table (live blackjack: at most 7)")
    casino.add_argument("--seed", type=int, default=None,
                        help="a seeded shoe/wheel, simulation only, to repeat a run (default: the secure RNG)")
    casino.set_defaults(run=_simulate_casino)

    from pokerroom.security.simulate import add_arguments as collusion_arguments
    from pokerroom.security.simulate import run_cli as simulate_collusion

    collusion = commands.add_parser("simulate-collusion",
                                    help="bots at several cash tables, one pair colluding and one sharing an IP "
                                         "honestly; where the collusion signals rank them (SEC-3)")
    collusion_arguments(collusion)
    collusion.set_defaults(run=simulate_collusion)

    from pokerroom.security_console import add_commands

    add_commands(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except ValueError as exc:
        print(f"pokerroom: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
