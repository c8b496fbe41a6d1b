"""The suite's own shape: what several tests share lives once, in ``tests/support`` (or a non-test module next to
the tests), so a fix to a helper reaches every test that uses it.

No module imports from a test module (nor from a ``conftest``: pytest hands out its fixtures); the
wall-clock wait and the refusal check are defined once each; and nothing but the wait sleeps, so a new polling
loop cannot slip in beside it.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).parent
ONE_HOME = {"wait_until": "support/waiting.py", "refused": "support/refusals.py"}
SLEEPS_ALLOWED = "support/waiting.py"


def _test_module(dotted: str) -> bool:
    """``tests.net.test_crash``, ``.test_crash`` or ``conftest``: a module no test may import from."""
    last = dotted.rsplit(".", 1)[-1]
    return last.startswith("test_") or last == "conftest"


def _imports_of(tree: ast.AST) -> list[tuple[int, str]]:
    """Lines importing a test module or a conftest, with the module's name as written."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names if _test_module(alias.name)]
        elif isinstance(node, ast.ImportFrom):
            base = "." * node.level + (node.module or "")
            if node.module and _test_module(node.module):
                found.append((node.lineno, base))
            else:                                           # from tests.net import test_crash; from . import test_x
                joined = [base + ("." if node.module else "") + alias.name for alias in node.names]
                found += [(node.lineno, name) for name in joined if _test_module(name)]
    return found


def _sleeps(tree: ast.AST) -> list[int]:
    """Lines calling ``sleep`` (``time.sleep``, or ``sleep`` imported from ``time``)."""
    return [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
            and ((isinstance(node.func, ast.Attribute) and node.func.attr == "sleep"
                  and isinstance(node.func.value, ast.Name) and node.func.value.id == "time")
                 or (isinstance(node.func, ast.Name) and node.func.id == "sleep"))]


def misshapen(root: Path) -> list[str]:
    """Every breach of the suite's shape under ``root``, as ``path:line: what``."""
    problems = []
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        problems += [f"{where}:{line}: imports from the test module {name}" for line, name in _imports_of(tree)]
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in ONE_HOME \
                    and where != ONE_HOME[node.name]:
                problems.append(f"{where}:{node.lineno}: a second {node.name}() (its one home: {ONE_HOME[node.name]})")
        if where != SLEEPS_ALLOWED:
            problems += [f"{where}:{line}: sleeps (wait with wait_until, or drive a Clock)" for line in _sleeps(tree)]
    return problems


def test_no_test_module_imports_another_and_the_shared_helpers_have_one_home_each():
    assert misshapen(TESTS) == []


def test_the_shape_check_finds_each_kind_of_breach(tmp_path):
    (tmp_path / "support").mkdir()
    (tmp_path / "support" / "waiting.py").write_text("import time\n\ndef wait_until(c, t):\n    time.sleep(t)\n")
    (tmp_path / "support" / "refusals.py").write_text("def refused(answer):\n    pass\n")
    (tmp_path / "net").mkdir()
    (tmp_path / "net" / "test_a.py").write_text(
        "from tests.net.test_b import sign_up\n"
        "from .test_c import play\n"
        "from . import test_d\n"
        "import tests.net.test_e\n"
        "from tests.web.conftest import grant\n"
        "from tests.support.refusals import refused\n"
        "from tests.net.server_process import Player\n")
    (tmp_path / "net" / "test_b.py").write_text(
        "import time\nfrom time import sleep\n\n"
        "def refused(answer, code):\n    pass\n\n"
        "class Gambler:\n    def wait_until(self):\n        time.sleep(1)\n        sleep(1)\n")
    (tmp_path / "net" / "bot_run.py").write_text("from tests.net.test_b import sign_up\n")   # support is held too
    assert misshapen(tmp_path) == [
        "net/bot_run.py:1: imports from the test module tests.net.test_b",
        "net/test_a.py:1: imports from the test module tests.net.test_b",
        "net/test_a.py:2: imports from the test module .test_c",
        "net/test_a.py:3: imports from the test module .test_d",
        "net/test_a.py:4: imports from the test module tests.net.test_e",
        "net/test_a.py:5: imports from the test module tests.web.conftest",
        "net/test_b.py:4: a second refused() (its one home: support/refusals.py)",
        "net/test_b.py:8: a second wait_until() (its one home: support/waiting.py)",
        "net/test_b.py:9: sleeps (wait with wait_until, or drive a Clock)",
        "net/test_b.py:10: sleeps (wait with wait_until, or drive a Clock)",
    ]
