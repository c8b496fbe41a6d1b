"""A real room with the five casino games in a subprocess, its casino clock moved by the test.

``CasinoRoom(tmp, *tables)`` runs ``python -m tests.net.casino_run`` on a room of the given casino tables
(short betting and decision times, USD); ``advance(seconds)`` moves the casino's clock and returns once every
write it caused has landed. The socket tests (``tests/net/test_casino_sockets.py``) and the browser tests
(``tests/web/test_casino_browser.py``) play against it.
"""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from pathlib import Path

PASSWORD = "secret-pass-1"
WELCOME = 100_000                       # the demo rules' welcome balance
BETTING, DECISION, PAUSE = 5, 10, 1     # seconds on every test table
ROOT = Path(__file__).resolve().parents[2]

BAC, BOB, BJ, IB, RO = "baccarat-orion", "bob-lyra", "blackjack-vega", "infinite-sirius", "roulette-altair"
TIMES = f"betting_seconds = {BETTING}\ndecision_seconds = {DECISION}\npause_seconds = {PAUSE}\ncurrency = \"USD\"\n"
TABLES = {
    BAC: 'name = "Orion Baccarat"\ngame = "baccarat"\nmin_bet = 100\nmax_bet = 500000\n'
         "limits = { tie = [100, 50000] }\n",
    BOB: 'name = "Lyra Bet on Baccarat"\ngame = "bet_on_baccarat"\nmin_bet = 100\nmax_bet = 200000\n'
         "margin_percent = 5\n",
    BJ: 'name = "Vega Blackjack"\ngame = "blackjack"\nmin_bet = 500\nmax_bet = 250000\nseats = 7\n',
    IB: 'name = "Sirius Infinite Blackjack"\ngame = "infinite_blackjack"\nmin_bet = 100\nmax_bet = 100000\n'
        "limits = { pairs = [100, 10000], bust_bonus = [100, 10000], lucky_trio = [100, 10000], "
        "poker_trio = [100, 10000] }\n",
    RO: 'name = "Altair Roulette"\ngame = "roulette"\nmin_bet = 100\nmax_bet = 100000\n'
        "limits = { straight = [100, 10000] }\n",
}
GAMES = {BAC: "baccarat", BOB: "bet_on_baccarat", BJ: "blackjack", IB: "infinite_blackjack", RO: "roulette"}
RED = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})


def room_toml(*tables: str) -> str:
    """A room with no poker tables and the given casino tables, fast."""
    return "".join(f'[[casino]]\nid = "{t}"\n{TABLES[t]}{TIMES}\n' for t in tables)


# ---------------------------------------------------------------------- the room process


class CasinoRoom:
    """``python -m tests.net.casino_run DIR``: the URL on its first line, then one answer line per command."""

    def __init__(self, tmp: Path, *tables: str) -> None:
        self.tmp = tmp
        tmp.mkdir(parents=True, exist_ok=True)
        (tmp / "room.toml").write_text(room_toml(*tables))
        self.log_path = tmp / "room.log"
        self.lines: queue.Queue[str] = queue.Queue()
        self.process = subprocess.Popen([sys.executable, "-m", "tests.net.casino_run", str(tmp)], cwd=ROOT,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=open(self.log_path, "wb"), text=True)
        threading.Thread(target=self._read, daemon=True).start()
        self.url = self._line(60)
        if not self.url.startswith("ws://"):
            raise RuntimeError(f"the room did not start: {self.url!r}; log: {self.log()}")
        self.now = 0.0
        self.advance(0)                         # every table opens its first round

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.strip())
        self.lines.put("")                      # the process ended

    def _line(self, timeout: float = 30) -> str:
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"the room did not answer in {timeout}s; log: {self.log()}") from None

    def command(self, text: str) -> str:
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()
        answer = self._line()
        assert answer.startswith("ok"), f"{text!r} -> {answer!r}; log: {self.log()}"
        return answer

    def advance(self, seconds: float) -> float:
        """Casino time moves on; every write it caused has landed when this returns."""
        self.now = float(self.command(f"advance {seconds}").split()[1])
        return self.now

    def gone(self, player: str) -> None:
        """Returns once the room has seen ``player``'s connection close."""
        self.command(f"gone {player}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def assert_clean(self) -> None:
        log = self.log()
        assert "Traceback" not in log and "Unhandled" not in log, log[-4000:]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()          # end of input stops the reactor
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
