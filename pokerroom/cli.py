"""The ``pokerroom`` command.

Until the room server lands, it offers the evaluator to a person at a terminal:
``pokerroom equity AhKh 2c2d`` and ``pokerroom hand AsKsQsJsTs``.
"""

from __future__ import annotations

import argparse
import sys
import time

from pokerroom import cards
from pokerroom.evaluator import describe, equity, evaluate, evaluate_omaha


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
