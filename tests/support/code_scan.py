"""What the code base says on the wire, read from its source: the error codes it raises and the pushes it builds.

The protocol's declarations (pokerroom/protocol/) are checked against these scans both ways, so a code or a push
added anywhere is caught the first time the suite runs, without anyone remembering to declare it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
CODE_SOURCES = ("pokerroom", "tournament")
PUSH_SOURCES = ("pokerroom/shell", "pokerroom/gateway")       # the tournament shell is pokerroom/shell/tournaments
RAISERS = ("RuleViolation", "ProtocolError", "Unanswered")    # code first; ``error(kind, rid, code, ...)`` third


@dataclass(frozen=True)
class Raised:
    code: str | None            # None: not a literal (``expression`` says what)
    rule: str | None            # the rule ID when it is a literal, "" when none is given
    where: str                  # path:line
    expression: str


def _modules(roots: tuple[str, ...]) -> Iterator[tuple[str, ast.Module]]:
    for top in roots:
        for path in sorted((ROOT / top).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path.relative_to(ROOT).as_posix(), ast.parse(path.read_text())


def _constants(tree: ast.Module) -> dict[str, str]:
    """The module's ``NAME = "text"`` assignments (``UNKNOWN_MARKET = "unknown_market"``)."""
    return {target.id: node.value.value for node in tree.body if isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
            for target in node.targets if isinstance(target, ast.Name)}


def _text(node: ast.expr | None, constants: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return constants.get(node.id)
    return None


def _called(node: ast.Call) -> str:
    if isinstance(node.func, ast.Name):
        return node.func.id
    return node.func.attr if isinstance(node.func, ast.Attribute) else ""


def raised_codes() -> list[Raised]:
    """Every ``RuleViolation(code, message, rule)``, ``ProtocolError(code, ...)`` and ``error(kind, rid, code, ...)``
    in the code base, and every ``(code, message, rule)`` a ``*_refusal`` function returns for one to raise."""
    found = []
    for path, tree in _modules(CODE_SOURCES):
        constants = _constants(tree)
        for node in ast.walk(tree):
            args: list[ast.expr] = []
            if isinstance(node, ast.Call) and _called(node) in RAISERS:
                args = node.args
            elif isinstance(node, ast.Call) and _called(node) == "error" and len(node.args) >= 3:
                args = node.args[2:]
            elif isinstance(node, ast.FunctionDef) and node.name.endswith("_refusal"):
                for ret in ast.walk(node):
                    if isinstance(ret, ast.Return) and isinstance(ret.value, ast.Tuple) and ret.value.elts:
                        found.append(_raised(ret.value.elts, constants, f"{path}:{ret.lineno}"))
                continue
            if args:
                found.append(_raised(args, constants, f"{path}:{node.lineno}"))
    return found


def _raised(args: list[ast.expr], constants: dict[str, str], where: str) -> Raised:
    rule = _text(args[2], constants) if len(args) > 2 else ""
    return Raised(_text(args[0], constants), rule, where, ast.unparse(args[0]))


def pushed_types() -> dict[str, list[str]]:
    """Every ``{"type": "<literal>", ...}`` the shell and the gateway build: type -> where."""
    found: dict[str, list[str]] = {}
    for path, tree in _modules(PUSH_SOURCES):
        for node in ast.walk(tree):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if (isinstance(key, ast.Constant) and key.value == "type" and isinstance(value, ast.Constant)
                            and isinstance(value.value, str)):
                        found.setdefault(value.value, []).append(f"{path}:{node.lineno}")
    return found


BROWSER = "lobby/static"
_LISTENS = re.compile(r"""\.on\(\s*["']([a-z_*]+)["']""")
_MATCHES = re.compile(r"""type\s*[!=]==?\s*["']([a-z_]+)["']|["']([a-z_]+)["']\s*[!=]==?\s*[\w.]*\btype\b|"""
                      r"""\bcase\s+["']([a-z_]+)["']""")


def browser_types() -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """What the browser clients listen for (``room.on("table_events", ...)``) and the ``type`` strings they match
    messages and events by (``e.type === "hand_started"``, ``case "posted":``): each -> where."""
    listens: dict[str, list[str]] = {}
    matches: dict[str, list[str]] = {}
    for path in sorted((ROOT / BROWSER).rglob("*.js")):
        where = path.relative_to(ROOT).as_posix()
        for number, line in enumerate(path.read_text().splitlines(), 1):
            for name in _LISTENS.findall(line):
                listens.setdefault(name, []).append(f"{where}:{number}")
            for groups in _MATCHES.findall(line):
                matches.setdefault(next(g for g in groups if g), []).append(f"{where}:{number}")
    return listens, matches
