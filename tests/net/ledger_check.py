"""``pokerroom ledger check`` run as the operator runs it, against a test server's database (STAFF-1)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def ledger_check(data_dir: Path) -> subprocess.CompletedProcess:
    """The command's result: returncode 0 when sound, 1 with one line per problem on stdout."""
    return subprocess.run([sys.executable, "-m", "pokerroom.cli", "ledger", "check", "--data-dir", str(data_dir)],
                          capture_output=True, text=True, timeout=120)


def assert_ledger_sound(data_dir: Path) -> None:
    checked = ledger_check(data_dir)
    assert checked.returncode == 0, checked.stdout + checked.stderr
