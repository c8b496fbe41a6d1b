"""Tournaments over real sockets (issue #6): a 30-player knockout with late registration, a rebuy, bounties,
a break and a deal runs to completion with bots; a director cancels another mid-way and every refund is
checked by hand against TR-REFUND; and a SIGKILL during a tournament is refunded on restart."""

from __future__ import annotations

import threading
from fractions import Fraction

import pytest

from pokerroom.money.ledger import cash
from pokerroom.store.db import make_engine, sqlite_url
from pokerroom.store.room_store import RoomStore
from tests.net.server_process import FAST_TOURNAMENTS, Server, serving
from tests.net.tournament_bots import TournamentBot
from tests.support.socket_play import director, sign_up
from tests.support.waiting import wait_until
from tournament import saved_state
from tournament.director import bounty_account, pool_account


@pytest.fixture
def server(tmp_path):
    with serving(tmp_path, FAST_TOURNAMENTS, "--max-rate", "500") as s:     # bots act at once, hand after hand
        yield s


def entered(server: Server, tournament: str, prefix: str, count: int) -> tuple[list[str], list[TournamentBot]]:
    """``count`` new players registered for ``tournament``, each played by a bot."""
    names = [f"{prefix}{i:02d}" for i in range(count)]
    bots = []
    for i, name in enumerate(names):
        p = sign_up(server.url, name)[0]
        assert p.request("tournament_register", tournament=tournament)["ok"]
        bots.append(TournamentBot(p, name, tournament, seed=i))
    for bot in bots:
        bot.start()
    return names, bots


def events_of(bots, kind: str) -> list[dict]:
    seen, out = set(), []
    for bot in bots:
        for e in bot.events:
            key = repr(sorted(e.items()))
            if e["type"] == kind and key not in seen:
                seen.add(key)
                out.append(e)
    return out


def test_TR_REG_4_TR_PLAY_6_TR_DEAL_1_a_30_player_knockout_runs_to_the_end_over_sockets(server, tmp_path):
    td = director(server)
    # short levels (0.12 s at this clock scale): the break comes long before fast all-in play reaches the money;
    # the break is long (2.4 s) so that a loaded machine's bots still see it between hands for the rebuy
    settings = {"starting_stack": 800, "late_registration_levels": 2, "rebuy_levels": 2, "deals": 1,
                "break_after_level": 1, "break_seconds": 3000, "level_seconds": 150,
                "table_size": 6}
    created = td.request("director_create", template="knockout", id="pko", name="PKO test", start_in=None,
                         settings=settings)
    assert created["ok"], created
    eliminated: set[str] = set()
    proposed: list[str] = []                # every proposal made; the last one open until refused or failed
    failures: list[str] = []                # proposals refused or deals failed
    failed_seen: dict[str, int] = {}
    in_money = threading.Event()
    lock = threading.Lock()

    def react(bot: TournamentBot, event: dict) -> None:
        kind = event["type"]
        if kind == "bubble_burst":          # from here bots only check or fold, so busts do not race the deal
            in_money.set()
            for b in bots:
                b.passive = True
        with lock:                          # the first live bot to see an event in the money proposes a deal;
            if kind == "eliminated":        # when a proposal is refused or the deal fails, the next one does
                eliminated.update(event["players"])
            if kind == "deal_failed":
                failed_seen[bot.name_] = failed_seen.get(bot.name_, 0) + 1
                if failed_seen[bot.name_] > len(failures):
                    failures.append(event["reason"])
            propose = in_money.is_set() and len(proposed) == len(failures) and bot.name_ not in eliminated
            if propose:
                proposed.append(bot.name_)
        if kind == "break_started":
            on_break.set()
        if kind == "break_ended":
            on_break.clear()
        if kind in ("started", "break_started") or (kind == "table_hand_ended" and on_break.is_set()):
            rebuy(bot)
        if propose:
            answer = bot.ask("deal_propose", tournament="pko", kind="icm")
            if not answer["ok"]:
                with lock:
                    failures.append(answer["error"]["code"])

    rebought: list[str] = []
    on_break = threading.Event()

    def rebuy(bot: TournamentBot) -> None:
        """Players also try to rebuy at the start and at the break (TR-REG-6: at or below the starting stack,
        between hands, while rebuys are open): at the break's start a table's last hand may still run
        (TR-PLAY-2), so its players try again when that hand ends. On a loaded machine the break can pass
        before a bot sees it: the late registrant's rebuy while play is paused is the sure one."""
        if not rebought and bot.name_ not in eliminated:
            if bot.ask("tournament_rebuy", tournament="pko")["ok"]:
                rebought.append(bot.name_)

    names = [f"p{i:02d}" for i in range(30)]
    bots = []
    for i, name in enumerate(names[:27]):
        p = sign_up(server.url, name)[0]
        assert p.request("tournament_register", tournament="pko")["ok"]
        assert p.request("tournament_subscribe", tournament="pko", on=True)["ok"]
        bots.append(TournamentBot(p, name, "pko", seed=i, on_event=react))
    late = [sign_up(server.url, name)[0] for name in names[27:]]
    for bot in bots:
        bot.start()
    assert td.request("director_start", tournament="pko")["ok"]
    # paused at once, the level clock stops (rebuys stay open) and no hand is dealt after those in play
    assert td.request("director_pause", tournament="pko", reason="late seats and a rebuy")["ok"]
    for p in late:                                  # late registration (TR-REG-4, -PLAY-7)
        answer = p.request("tournament_register", tournament="pko")
        assert answer["ok"], answer
        assert p.request("tournament_subscribe", tournament="pko", on=True)["ok"]

    def late_rebuy() -> bool:
        """A late registrant holds the starting stack: a rebuy is theirs once their table's hand is over
        (TR-REG-6: chips come between hands); bots finish the hands in play meanwhile."""
        answer = late[0].request("tournament_rebuy", tournament="pko")
        if not answer["ok"]:
            assert answer["error"]["code"] == "hand_running", answer
            return False
        rebought.append(names[27])
        return True

    assert wait_until(late_rebuy, timeout=60), "a late registrant could not rebuy while play was paused"
    assert td.request("director_resume", tournament="pko")["ok"]
    for (i, name), p in zip(enumerate(names[27:], 27), late, strict=True):
        bot = TournamentBot(p, name, "pko", seed=i, on_event=react)
        bots.append(bot)
        bot.start()
    try:
        assert wait_until(lambda: all(b.finished.is_set() for b in bots),
                          timeout=240), "timed out waiting for the tournament to finish"
    except AssertionError:
        details = td.request("tournament_details", tournament="pko")
        raise AssertionError(f"{details['tournament']}, {details['tables']}, "
                             f"{[(b.name_, b.is_alive(), b.errors[-2:], repr(b.failure)) for b in bots]}") from None
    for bot in bots:
        bot.stop.set()
    details = td.request("tournament_details", tournament="pko")
    assert details["tournament"]["state"] == "finished"
    # every place awarded once; players tied across tables in hand-for-hand share one award (TR-PLAY-3)
    places = sorted(p for e in events_of(bots, "eliminated") for p in e["places"])
    assert places == list(range(1, details["tournament"]["entries"] + 1))
    assert sorted(f["player"] for f in details["finished"]) == sorted(names)
    assert details["tournament"]["entries"] == 30
    assert rebought
    assert any(e["kind"] == "rebuy" for e in events_of(bots, "chips_added"))
    assert [e for e in events_of(bots, "seated") if e["reason"] == "late"]
    assert events_of(bots, "bounty_won") and events_of(bots, "break_started")
    assert events_of(bots, "deal_made") and proposed, (proposed, failures)
    store = RoomStore(make_engine(sqlite_url(tmp_path / "data")))
    wait_until(lambda: store.tournaments.tournament("pko").state == "finished", timeout=10)
    ledger = store.ledger.load_ledger()
    assert ledger.check() and store.ledger.ledger_check()
    assert ledger.balance(pool_account("pko")) == 0 and ledger.balance(bounty_account("pko")) == 0


def test_TR_REFUND_3_a_director_cancels_mid_way_and_every_refund_matches_the_rule(server, tmp_path):
    td = director(server)
    created = td.request("director_create", template="daily", id="daily", name="Daily test", start_in=None,
                         settings={"guarantee": 0, "late_registration_levels": 10, "table_size": 4})
    assert created["ok"], created
    # twelve entries on three tables: far from the money at the first bust, even when one hand busts several
    names, bots = entered(server, "daily", "c", 12)
    plain = sign_up(server.url, "plain")[0]
    forbidden = plain.request("director_pause", tournament="daily", reason="no")
    assert not forbidden["ok"] and forbidden["error"]["code"] == "forbidden"
    assert td.request("director_start", tournament="daily")["ok"]
    assert wait_until(lambda: any(e["type"] == "busted" for b in bots for e in b.events),
                      timeout=120), "timed out waiting for a bust"
    assert td.request("director_pause", tournament="daily", reason="checking the refunds")["ok"]

    def idle() -> dict:
        d = td.request("tournament_details", tournament="daily")
        return d if not any(t["in_hand"] for t in d["tables"].values()) else {}

    assert wait_until(lambda: bool(idle()), timeout=30), "timed out waiting for the hands in play to finish"
    details = idle()
    preview = td.request("director_cancel", tournament="daily", reason="server maintenance", confirm=False)
    assert preview["ok"] and preview["case"] == "TR-REFUND-3"
    # By hand (TR-REFUND-3): 12 entries x 1,000 = 12,000 in the pool; half evenly among the k left, half by
    # chips; plus each one's fee of 100; each rounded down once.
    stacks = {s["player"]: s["chips"] for s in details["standings"]}
    k, chips = len(stacks), sum(stacks.values())
    expected = {p: int(Fraction(6000, k) + Fraction(6000) * c / chips + 100) for p, c in stacks.items()}
    assert preview["refunds"] == expected
    done = td.request("director_cancel", tournament="daily", reason="server maintenance", confirm=True)
    assert done["ok"] and done["refunds"] == expected
    assert wait_until(lambda: all(b.finished.is_set() for b in bots),
                      timeout=20), "timed out waiting for the cancellation to reach everyone"
    for bot in bots:
        bot.stop.set()
    store = RoomStore(make_engine(sqlite_url(tmp_path / "data")))
    wait_until(lambda: store.tournaments.tournament("daily").state == "cancelled", timeout=10)
    ledger = store.ledger.load_ledger()
    for name in names:
        assert ledger.balance(cash(name)) == 100_000 - 1100 + expected.get(name, 0)
    assert ledger.balance(pool_account("daily")) == 0 and ledger.check() and store.ledger.ledger_check()
    audit = [r.data["command"] for r in store.audit_log.audit_records("director_command")]
    assert {"create", "start now", "pause", "cancel"} <= set(audit)


def test_TR_REFUND_3_a_killed_server_refunds_the_running_tournament_on_restart(tmp_path):
    (tmp_path / "room.toml").write_text(FAST_TOURNAMENTS)
    server = Server(tmp_path, "--max-rate", "500").start()
    td = director(server)
    assert td.request("director_create", template="daily", id="crash", name="Crash test", start_in=None,
                      settings={"guarantee": 0, "table_size": 4})["ok"]
    names, bots = entered(server, "crash", "k", 6)
    assert td.request("director_start", tournament="crash")["ok"]
    assert wait_until(lambda: sum(1 for b in bots for e in b.events if e["type"] == "level_started") >= 6,
                      timeout=60), "timed out waiting for play to begin"
    store = RoomStore(make_engine(sqlite_url(tmp_path / "data")))
    assert wait_until(lambda: store.tournaments.tournament("crash") is not None
                      and store.tournaments.tournament("crash").state == "running",
                      timeout=10), "timed out waiting for the running tournament to be stored"
    server.kill()                                                  # SIGKILL mid-tournament
    for bot in bots:
        bot.stop.set()
    # what refunds follow
    stored = saved_state.restore(saved_state.from_rows(store.tournaments.saved_tournament("crash")))
    stacks = stored.stacks()
    left = [p for p, e in stored.entries.items() if e.table]
    server = Server(tmp_path, "--max-rate", "500").start()         # recovery runs before listening
    try:
        record = store.tournaments.tournament("crash")
        assert record.state == "cancelled"
        ledger = store.ledger.load_ledger()
        assert ledger.check() and store.ledger.ledger_check()
        pool = stored.collected
        chips = sum(stacks[p] for p in left)
        for name in names:
            refund = (int(Fraction(pool, 2) / len(left) + Fraction(pool, 2) * stacks[name] / chips + 100)
                      if name in left else 0)
            assert ledger.balance(cash(name)) == 100_000 - 1100 + refund
        assert ledger.balance(pool_account("crash")) == 0
    finally:
        server.stop()
