"""The shape of the code, measured: what DESIGN.md and docs/architecture.md promise about it.

* no import cycles between packages (``pokerroom.<package>``, a top-level
  module of ``pokerroom`` counting as its own, ``tournament``, ``lobby``);
* no module reaches another object's private attributes: ``x._name`` only on
  ``self``, ``cls``, ``super()``, a class of the same module, or inside the
  class that defines ``_name`` (another instance of the same class); Autobahn's and Twisted's internals are
  the exception, each with a comment naming them on the line or just above;
* no class over 55 methods, counted with those it inherits from its bases in
  the scanned packages (a mix-in's methods are the class's), and no module
  over 800 lines;
* the pure packages import no Twisted, SQLAlchemy or msgpack, and nothing of
  the shell;
* no service writes another's attributes: in the shell and the gateway an
  assignment's target is an attribute of ``self`` (or an item of one), not of
  another object -- ``room.x = y``, ``self.accounts.desk = d``,
  ``self.room.checks[k] = f`` -- but for :data:`WRITES_THROUGH`, each with its
  reason (an entry that no longer occurs fails too, so the list cannot go stale);
* no class of the shell or the gateway receives a collaborator typed ``Any``
  (a constructor parameter, or a dataclass field, annotated ``Any``, an alias
  of it, or a union with it), so what a service uses of another is written
  down and the checks above can see it; :data:`ANY_TYPED` lists those still
  to do (and fails on an entry that no longer occurs).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("pokerroom", "tournament", "lobby")
PURE = ("pokerroom.poker", "pokerroom.table", "pokerroom.casino", "pokerroom.money", "tournament")
NOT_IN_PURE = ("twisted", "sqlalchemy", "msgpack", "autobahn", "pokerroom.shell", "pokerroom.gateway",
               "pokerroom.store", "pokerroom.bus", "pokerroom.app")
MAX_METHODS, MAX_LINES = 55, 800
SERVICES = ("pokerroom.shell", "pokerroom.gateway")
# Writes through another object the shell and the gateway still make, by module and the object written through
# (what the target's attribute hangs on), each with why it is allowed. Shrink it; do not grow it.
WRITES_THROUGH = {
    # a library object the module builds or configures: not a service of ours
    ("pokerroom.gateway.pings", "protocol"): "Autobahn's auto-ping call, which the ping schedule replaces",
    ("pokerroom.gateway.server", "autobahn_protocol"): "Autobahn's protocol class, configured once at import",
    ("pokerroom.gateway.server", "self.trafficStats"): "Autobahn's traffic counters of this very connection",
    ("pokerroom.gateway.server", "site"): "the Twisted site build_site makes and hands back",
    ("pokerroom.gateway.server", "channel"): "the Twisted HTTP channel the site's factory just built",
    ("pokerroom.gateway.unmasking", "_autobahn_protocol"): "Autobahn's masker hook, replaced once at import",
    ("pokerroom.shell.collector", "self._loop"): "the LoopingCall the pacer owns, run on the given clock",
    # a record being built, or a record of the service's own
    ("pokerroom.shell.outcome_hold", "held"): "a part the hold keeps in its own queue, marked landed",
    ("pokerroom.shell.recorder", "hand"): "the recorder's own record of a hand in play, built event by event",
    ("pokerroom.shell.table_host", "runner"): "the host's own record of one of its tables (TableRunner)",
    ("pokerroom.shell.table_host", "runner.table"): "the hand number of a table the host owns, restored at start",
    ("pokerroom.shell.tournaments.feed", "audiences"): "the Audiences being built for one batch",
    ("pokerroom.shell.tournaments.hand_host", "hand"): "the host's own record of a hand it plays (its clock, its call)",
    ("pokerroom.shell.tournaments.hands_away", "sent"): "the hall's own record of a hand away (who took it)",
    ("pokerroom.shell.casino_floor", "table"): "a casino table the floor owns, numbered on from the store at start",
    # Session is still a mutable bag of a connection's identity and standing (issue #35 makes it identity only,
    # each service keeping its own state by player): until then the services that own those fields write them
    ("pokerroom.gateway.routes", "session"): "Session: the gateway binds a connection's identity and subjects",
    ("pokerroom.gateway.routes", "old"): "Session: the identity moved off a replaced session",
    ("pokerroom.shell.accounts", "session"): "Session: identity and standing set at login and resume",
    ("pokerroom.shell.responsible_gaming", "session"): "Session: limits and reminders kept on the session",
    ("pokerroom.shell.session_watch", "session"): "Session: a role changed in the store reaches the session",
}
# Constructor parameters of the shell and the gateway still typed Any, as "module.Class(parameter)": shrink it.
ANY_TYPED = {
    "pokerroom.gateway.server.FormattedIfLogged(value)",        # a value to log, any object: data, no collaborator
    "pokerroom.shell.outcome_hold._Held(mark)",                 # the caller's opaque mark (a seq): data
}


def modules() -> dict[str, tuple[Path, ast.Module, list[str]]]:
    out = {}
    for top in SCANNED:
        for path in sorted((ROOT / top).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            source = path.read_text()
            out[".".join(parts)] = (path, ast.parse(source), source.splitlines())
    return out


def package_of(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "pokerroom" and len(parts) > 1 else parts[0]


def imports(tree: ast.Module) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def package_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    cycles, seen = [], set()

    def walk(node: str, path: list[str]) -> None:
        for nxt in sorted(graph.get(node, ())):
            if nxt in path:
                cycle = path[path.index(nxt):] + [nxt]
                key = frozenset(cycle)
                if key not in seen:
                    seen.add(key)
                    cycles.append(cycle)
            elif len(path) < len(graph) + 1:
                walk(nxt, path + [nxt])

    for start in sorted(graph):
        walk(start, [start])
    return cycles


def private_reaches(path: Path, tree: ast.Module, lines: list[str]) -> list[str]:
    found = []

    def defined_by(cls: ast.ClassDef) -> set[str]:
        names = set()
        for node in ast.walk(cls):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
                names.add(node.attr)
            elif isinstance(node, ast.Name):
                names.add(node.id)
        return names

    classes_here = {node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef)}

    def visit(node: ast.AST, own: set[str]) -> None:
        if isinstance(node, ast.ClassDef):
            own = own | defined_by(node)
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            target = node.value
            mine = isinstance(target, ast.Name) and target.id in ("self", "cls", *classes_here)
            inherited = isinstance(target, ast.Call) and isinstance(target.func, ast.Name) and \
                target.func.id == "super"
            excused = any(word in " ".join(lines[max(0, node.lineno - 3):node.lineno]) for word in
                          ("Autobahn internals", "Twisted internals", "nats-py internals"))
            if not (mine or inherited or node.attr in own or excused):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
        for child in ast.iter_child_nodes(node):
            visit(child, own)

    visit(tree, set())
    return found


def test_packages_import_each_other_without_cycles():
    graph: dict[str, set[str]] = {}
    for module, (_, tree, _) in modules().items():
        for _, name in imports(tree):
            if name.split(".")[0] in SCANNED and package_of(name) != package_of(module):
                graph.setdefault(package_of(module), set()).add(package_of(name))
    assert package_cycles(graph) == []


def test_no_module_reaches_into_another_objects_private_attributes():
    reaches = [r for path, tree, lines in modules().values() for r in private_reaches(path, tree, lines)]
    assert reaches == []


def classes(found: dict[str, tuple[Path, ast.Module, list[str]]]) -> dict[str, tuple[str, ast.ClassDef]]:
    """Every top-level class of the scanned modules by its dotted name, with the module it is defined in."""
    return {f"{module}.{node.name}": (module, node) for module, (_, tree, _) in found.items()
            for node in tree.body if isinstance(node, ast.ClassDef)}


def base_names(module: str, tree: ast.Module, node: ast.ClassDef) -> list[str]:
    """The dotted names of ``node``'s bases, as far as the module's imports say where they come from."""
    imported = {}
    for statement in tree.body:
        if isinstance(statement, ast.ImportFrom) and statement.level == 0 and statement.module:
            imported.update({alias.asname or alias.name: f"{statement.module}.{alias.name}"
                             for alias in statement.names})
    out = []
    for base in node.bases:
        name = ast.unparse(base)
        head, _, rest = name.partition(".")
        out.append(f"{imported[head]}.{rest}".rstrip(".") if head in imported else f"{module}.{name}")
    return out


def method_counts(found: dict[str, tuple[Path, ast.Module, list[str]]]) -> dict[str, int]:
    """Each class's methods with those of every base defined in the scanned modules (mix-ins, each base once):
    what a reader of the class reads, so a method a base defines and the class overrides counts twice."""
    known = classes(found)

    def lineage(qualified: str, seen: set[str]) -> set[str]:
        seen.add(qualified)
        module, node = known[qualified]
        for base in base_names(module, found[module][1], node):
            if base in known and base not in seen:
                lineage(base, seen)
        return seen

    def own(qualified: str) -> int:
        return sum(isinstance(b, ast.FunctionDef | ast.AsyncFunctionDef) for b in known[qualified][1].body)

    return {qualified: sum(own(c) for c in lineage(qualified, set())) for qualified in known}


def too_big(found: dict[str, tuple[Path, ast.Module, list[str]]], allowed: dict[str, int]) -> list[str]:
    out = []
    for path, _, lines in found.values():
        if len(lines) > MAX_LINES:
            out.append(f"{path.relative_to(ROOT)}: {len(lines)} lines")
    for qualified, count in method_counts(found).items():
        if count > allowed.get(qualified, MAX_METHODS):
            out.append(f"{qualified} has {count} methods, its bases' included")
    return out


def test_no_class_over_55_methods_and_no_module_over_800_lines():
    assert too_big(modules(), {}) == []


def test_the_pure_packages_import_no_io_library_and_nothing_of_the_shell():
    impure = [f"{path.relative_to(ROOT)}:{line}: {name}"
              for module, (path, tree, _) in modules().items() if package_of(module) in PURE
              for line, name in imports(tree) if name.split(".")[0] in NOT_IN_PURE or
              any(name == n or name.startswith(n + ".") for n in NOT_IN_PURE)]
    assert impure == []


def writes_through(module: str, tree: ast.Module) -> list[tuple[str, str, int]]:
    """Assignments whose target hangs on another object than ``self``: (what it hangs on, the target, line).

    ``x.a = v``, ``x.a += v`` and ``x.a[k] = v`` write through ``x`` (``self.x.a = v`` through ``self.x``);
    ``self.a = v``, ``self.a[k] = v`` and a local's item ``d[k] = v`` do not.
    """
    found = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AugAssign | ast.AnnAssign) else []
        flat = [t for target in targets for t in (target.elts if isinstance(target, ast.Tuple | ast.List)
                                                  else [target])]
        for target in flat:
            target = target.value if isinstance(target, ast.Starred) else target
            attribute = target.value if isinstance(target, ast.Subscript) else target    # x.a[k]: through x
            if not isinstance(attribute, ast.Attribute):
                continue
            owner = attribute.value
            if isinstance(owner, ast.Name) and owner.id == "self":
                continue
            found.append((ast.unparse(owner), ast.unparse(target), node.lineno))
    return found


def any_aliases(found: dict[str, tuple[Path, ast.Module, list[str]]]) -> set[str]:
    """The dotted names of the module-level aliases of ``Any`` (``RoomLike = Any``)."""
    out = set()
    for module, (_, tree, _) in found.items():
        for statement in tree.body:
            if isinstance(statement, ast.Assign) and ast.unparse(statement.value) in ("Any", "typing.Any"):
                out |= {f"{module}.{t.id}" for t in statement.targets if isinstance(t, ast.Name)}
            elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and \
                    statement.value is not None and ast.unparse(statement.value) in ("Any", "typing.Any"):
                out.add(f"{module}.{statement.target.id}")
    return out


def any_typed(found: dict[str, tuple[Path, ast.Module, list[str]]], packages: tuple[str, ...]) -> list[str]:
    """The constructor parameters (``__init__``'s, a dataclass's fields) of the classes in ``packages`` annotated
    ``Any``, an alias of it, or a union with it, as ``module.Class(parameter)``."""
    aliases = any_aliases(found)
    out = []
    for module, (_, tree, _) in found.items():
        if not module.startswith(packages):
            continue
        imported = {alias.asname or alias.name: f"{statement.module}.{alias.name}" for statement in tree.body
                    if isinstance(statement, ast.ImportFrom) and statement.module for alias in statement.names}
        loose = {"Any", "typing.Any"} | {name for name, dotted in imported.items() if dotted in aliases} | \
            {alias.rpartition(".")[2] for alias in aliases if alias.rpartition(".")[0] == module}

        for cls in (n for n in tree.body if isinstance(n, ast.ClassDef)):
            dataclass = any("dataclass" in ast.unparse(d) for d in cls.decorator_list)
            params = [(s.target.id, s.annotation) for s in cls.body if dataclass and
                      isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)]
            for init in (s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"):
                arguments = init.args
                params += [(a.arg, a.annotation) for a in arguments.posonlyargs + arguments.args[1:] +
                           arguments.kwonlyargs]
            out += [f"{module}.{cls.name}({name})" for name, annotation in params if is_any(annotation, loose)]
    return out


def is_any(node: ast.AST | None, loose: set[str]) -> bool:
    """Whether an annotation is one of the ``loose`` names (``Any`` and its aliases), or a union with one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return is_any(ast.parse(node.value, mode="eval").body, loose)
    if isinstance(node, ast.BinOp):
        return is_any(node.left, loose) or is_any(node.right, loose)
    if isinstance(node, ast.Subscript) and ast.unparse(node.value).endswith(("Optional", "Union")):
        inner = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return any(is_any(n, loose) for n in inner)
    return isinstance(node, ast.Name | ast.Attribute) and ast.unparse(node) in loose


def test_no_service_writes_another_objects_attributes():
    found = modules()
    made = [(module, owner, target, line) for module, (_, tree, _) in found.items() if module.startswith(SERVICES)
            for owner, target, line in writes_through(module, tree)]
    writes = [f"{found[module][0].relative_to(ROOT)}:{line}: {target}"
              for module, owner, target, line in made if (module, owner) not in WRITES_THROUGH]
    assert writes == []
    assert sorted(set(WRITES_THROUGH) - {(module, owner) for module, owner, _, _ in made}) == []   # none stale


def test_no_class_of_the_shell_or_the_gateway_receives_a_collaborator_typed_any():
    typed = set(any_typed(modules(), SERVICES))
    assert sorted(typed - ANY_TYPED) == []
    assert sorted(ANY_TYPED - typed) == []                      # an entry that no longer occurs goes: none stale


def test_the_checks_themselves_catch_what_they_look_for():
    assert package_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    source = ("class Desk:\n    def look(self, room):\n        room._write(1)\n        self._own = 2\n"
              "        other = Desk()\n        other._own\n        super()._base()\n")
    tree = ast.parse(source)
    assert [r.split(": ")[1] for r in private_reaches(ROOT / "x.py", tree, source.splitlines())] == ["room._write"]
    # 30 methods in a mix-in of another module and 30 in the class: 60, over the limit only counted together
    mixin = "class Desk:\n" + "".join(f"    def d{i}(self): ...\n" for i in range(30))
    room = ("from pkg.desk import Desk\n\nclass Room(Desk):\n" +
            "".join(f"    def r{i}(self): ...\n" for i in range(30)))
    found = {name: (ROOT / "pkg" / f"{name}.py", ast.parse(text), text.splitlines())
             for name, text in (("pkg.desk", mixin), ("pkg.room", room))}
    assert method_counts(found) == {"pkg.desk.Desk": 30, "pkg.room.Room": 60}
    assert too_big(found, {}) == ["pkg.room.Room has 60 methods, its bases' included"]
    assert too_big(found, {"pkg.room.Room": 60}) == []
    writing = ("class Desk:\n    def install(self, room, records):\n        self.room = room\n"
               "        self.seen[1] = 2\n        room.desk = self\n        self.room.checks['x'] = 1\n"
               "        self.accounts.desk += 1\n        a, room.b = 1, 2\n        records[0] = 1\n")
    assert [(owner, target) for owner, target, _ in writes_through("pkg.desk", ast.parse(writing))] == [
        ("room", "room.desk"), ("self.room", "self.room.checks['x']"),
        ("self.accounts", "self.accounts.desk"), ("room", "room.b")]
    typed = ("from typing import Any, Optional\nfrom dataclasses import dataclass\nfrom pkg.hub import Hub\n"
             "Loose = Any\n\nclass Desk:\n    def __init__(self, room: Any, hub: Hub, other: Loose, "
             "x: int | Any = 0, *, y: Optional[Any] = None, z: 'Any' = None, data: dict[str, Any] = None):\n"
             "        pass\n\n@dataclass\nclass Seen:\n    what: Any\n    n: int\n")
    hub = "from typing import Any\nHub = Any\n"
    found = {name: (ROOT / "pkg" / f"{name}.py", ast.parse(text), text.splitlines())
             for name, text in (("pkg.desk", typed), ("pkg.hub", hub))}
    assert any_typed(found, ("pkg",)) == ["pkg.desk.Desk(room)", "pkg.desk.Desk(hub)", "pkg.desk.Desk(other)",
                                          "pkg.desk.Desk(x)", "pkg.desk.Desk(y)", "pkg.desk.Desk(z)",
                                          "pkg.desk.Seen(what)"]
