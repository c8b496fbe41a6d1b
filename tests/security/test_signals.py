"""Collusion signals per pair: each one moves the planted pair and no other (SEC-3, HR-CHAT-4, TR-PLAY-5, TR-PLAY-6).

A small synthetic room: 16 players, each hand six of them at random; two or
three see the flop and bet or raise 35% of their decisions there; the hand's
winner takes chips from the others who saw the flop; now and then a dump, a
squeeze, a check-down, a timeout or chat happens to anyone. A test plants one
behaviour on one pair (q00, q01) and compares with the same room unplanted.
"""

from __future__ import annotations

import json
import random

import pytest

from pokerroom.security.facts import HandFacts, flows_between
from pokerroom.security.signals import FLAG_THRESHOLD, SIGNALS, WEIGHTS, PairEntry, PairSignals

NAMES = [f"q{i:02d}" for i in range(16)]
CROWD = [f"q{i:02d}" for i in range(60)]       # a pool large enough for sitting together to stand out
PAIR = ("q00", "q01")
NOISE = 0.5          # what a random pair may reach on one signal by chance; a planted one must pass it


def deal(rng: random.Random, n: int, lineup: list[str], *, tournament: str | None = None, bounty: bool = False,
         soft: tuple[str, str] | None = None, flow: tuple[str, str] | None = None,
         dump: tuple[str, str] | None = None, squeeze: tuple[str, str] | None = None,
         check_down: tuple[str, str] | None = None, sit_out: tuple[str, str] | None = None,
         chat: tuple[str, str] | None = None) -> HandFacts:
    """One hand's facts for ``lineup``, honest unless a planted pair is given."""
    players = tuple(sorted(lineup))
    ix = {p: i for i, p in enumerate(players)}
    flop = rng.sample(lineup, rng.choice((2, 2, 3)))
    postflop = [[0, 0, 0, 0] for _ in players]
    soft_counts: dict[tuple[int, int], list[int]] = {}
    for a in flop:
        opponents = [b for b in flop if b != a]
        column = 0 if len(opponents) == 1 else 2
        for _ in range(rng.randint(1, 3)):
            aggressive = rng.random() < 0.35
            if soft and a in soft and (set(soft) - {a}) & set(opponents):
                aggressive = False
            postflop[ix[a]][column] += 1
            postflop[ix[a]][column + 1] += aggressive
            for b in opponents:
                counts = soft_counts.setdefault((ix[a], ix[b]), [0, 0, 0, 0])
                counts[column] += 1
                counts[column + 1] += aggressive
    winner = rng.choice(flop)
    if flow and set(flow) <= set(flop):
        winner = flow[1]
    net = [0] * len(players)
    for p in flop:
        if p != winner:
            loss = rng.randint(2, 40)
            net[ix[p]] -= loss
            net[ix[winner]] += loss
    together = lambda pair: pair is not None and set(pair) <= set(lineup)  # noqa: E731
    dumps = []
    if rng.random() < 0.03:
        a, b = rng.sample(lineup, 2)
        dumps.append((ix[a], ix[b], 24))
    if together(dump) and rng.random() < 0.15:
        dumps.append((ix[dump[0]], ix[dump[1]], 24))
    squeezes = []
    if rng.random() < 0.01:
        squeezes.append(tuple(sorted(ix[p] for p in rng.sample(lineup, 2))))
    if together(squeeze) and rng.random() < 0.15:
        squeezes.append(tuple(sorted(ix[p] for p in squeeze)))
    downs = []
    if bounty and rng.random() < 0.01:
        a, b, c = rng.sample(lineup, 3)
        downs.append((*sorted((ix[a], ix[b])), ix[c]))
    if bounty and together(check_down) and rng.random() < 0.15:
        c = next(p for p in lineup if p not in check_down)
        downs.append((*sorted(ix[p] for p in check_down), ix[c]))
    timed: set[int] = set()
    if tournament:
        timed = {ix[p] for p in lineup if rng.random() < 0.03}
        if together(sit_out) and rng.random() < 0.3:
            timed |= {ix[p] for p in sit_out}
    chatted = [rng.choice(lineup)] if rng.random() < 0.05 else []
    if chat and chat[1] in lineup and rng.random() < 0.5:
        chatted.append(chat[0])
    return HandFacts(f"h{n}", f"t{n % 5}", "NLHE 1/2", tournament, bounty, float(n), players, 2, 0, 0, False,
                     tuple(net), flows_between(net), tuple(tuple(c) for c in postflop),
                     tuple(sorted((a, b, *c) for (a, b), c in soft_counts.items())), tuple(sorted(dumps)), (),
                     tuple(sorted(set(squeezes))), tuple(downs), tuple(sorted(timed)), tuple(sorted(set(chatted))))


def room(seed: int = 7, hands: int = 3000, *, names: list[str] = NAMES, together: tuple[str, str] | None = None,
         **plant) -> PairSignals:
    rng = random.Random(seed)
    signals = PairSignals()
    for n in range(hands):
        lineup = rng.sample(names, 6)
        if together and (together[0] in lineup) != (together[1] in lineup):
            missing = together[1] if together[0] in lineup else together[0]
            lineup[next(i for i, p in enumerate(lineup) if p not in together)] = missing
        signals.add(deal(rng, n, lineup, **plant))
    return signals


def assert_moves_only_the_pair(signal: str, *, base: dict | None = None, **plant) -> None:
    base = base or {}
    baseline, planted = room(**base), room(**base, **plant)
    before, after = baseline.entry(*PAIR), planted.entry(*PAIR)
    assert before.signals[signal].score < NOISE, before.signals[signal].why
    assert after.signals[signal].score >= NOISE, after.signals[signal].why
    assert after.signals[signal].hands, "the reviewer gets the hands behind the signal"
    assert any(ch.isdigit() for ch in after.signals[signal].why)
    others = [e for e in planted.rank(limit=None) if e.players != PAIR]
    assert others and max(e.signals[signal].score for e in others) < NOISE
    assert after.score - before.score >= WEIGHTS[signal] * (NOISE - 0.2)
    assert after.leading(1) == [signal] or after.signals[signal].score == 1.0


# ----------------------------------------------------------------------------- each signal


def test_SEC_3_soft_play_moves_only_the_pair_that_never_bets_into_each_other():
    assert_moves_only_the_pair("soft_play", soft=PAIR)
    why = room(soft=PAIR).entry(*PAIR).signals["soft_play"].why
    assert "bet or raised 0 of" in why and "in the pot" in why and "against others" in why


def test_SEC_3_chip_flow_moves_only_the_pair_where_one_always_pays_the_other():
    assert_moves_only_the_pair("chip_flow", flow=PAIR)
    assert "q00 lost a net" in room(flow=PAIR).entry(*PAIR).signals["chip_flow"].why


def test_SEC_3_chip_dumping_moves_only_the_pair_with_repeated_dumps():
    assert_moves_only_the_pair("chip_dumping", dump=PAIR)
    assert "q00 folded to q01's bet or raise" in room(dump=PAIR).entry(*PAIR).signals["chip_dumping"].why


def test_SEC_3_co_seating_moves_only_the_pair_that_always_sits_together():
    assert_moves_only_the_pair("co_seating", base={"names": CROWD, "hands": 6000}, together=PAIR)
    signal = room(names=CROWD, hands=6000, together=PAIR).entry(*PAIR).signals["co_seating"]
    assert signal.value > 4 and "100% of" in signal.why


def test_SEC_3_squeeze_moves_only_the_pair_that_whipsaws_callers():
    assert_moves_only_the_pair("squeeze", squeeze=PAIR)


def test_TR_PLAY_6_bounty_targeting_moves_only_the_pair_that_checks_down_on_all_ins():
    assert_moves_only_the_pair("bounty_targeting", base={"tournament": "T1", "bounty": True}, check_down=PAIR)


def test_TR_PLAY_5_synchronised_sit_outs_move_only_the_pair_timed_out_together():
    assert_moves_only_the_pair("synchronised_sit_outs", base={"tournament": "T1"}, sit_out=PAIR)


def test_HR_CHAT_4_chat_during_hands_of_one_player_moves_that_author_and_player():
    planted = room(chat=("rail", "q05"))
    entry = planted.entry("q05", "rail")
    assert entry.signals["chat_in_hand"].score >= NOISE, entry.signals["chat_in_hand"].why
    assert entry.signals["chat_in_hand"].why.startswith("rail chatted during")
    others = [e for e in planted.rank(limit=None) if e.players != ("q05", "rail")]
    assert max(e.signals["chat_in_hand"].score for e in others) < NOISE


def test_HR_CHAT_4_chat_pairs_the_author_with_every_player_dealt_in_but_themselves():
    signals = PairSignals()
    signals.add(HandFacts("h1", "t", "NLHE 1/2", None, False, 0.0, ("a", "b", "c"), 2, 0, 0, False, (0, 0, 0), (),
                          ((0, 0, 0, 0),) * 3, (), (), (), (), (), (), ("b", "rail")))
    chat = {pair: signals.entry(*pair).signals["chat_in_hand"].value
            for pair in (("a", "b"), ("b", "c"), ("a", "c"), ("a", "rail"), ("b", "rail"), ("c", "rail"))}
    assert chat == {("a", "b"): 1, ("b", "c"): 1, ("a", "c"): 0, ("a", "rail"): 1, ("b", "rail"): 1,
                    ("c", "rail"): 1}


# ----------------------------------------------------------------------------- identities


def test_SEC_3_a_shared_address_is_weak_evidence_and_never_lifts_an_honest_pair_over_a_soft_pair():
    signals = room(soft=("q02", "q03"))
    signals.add_identities("q00", ["10.0.0.7", "dev-a"])
    signals.add_identities("q01", ["10.0.0.7", "dev-b"])
    household = signals.entry(*PAIR)
    shared = household.signals["shared_identity"]
    assert shared.score > 0 and "10.0.0.7" in shared.why and "hands at one table" in shared.why
    assert household.score < FLAG_THRESHOLD
    soft = signals.entry("q02", "q03")
    assert soft.score > household.score
    ranked = [e.players for e in signals.rank()]
    assert ranked.index(("q02", "q03")) < ranked.index(PAIR)


def test_SEC_3_an_address_shared_by_many_players_is_ignored():
    signals = room(hands=300)
    for name in NAMES[:11]:
        signals.add_identities(name, ["100.64.0.1"])           # a carrier's address
    signals.add_identities("q20", ["192.0.2.9"])
    signals.add_identities("q21", ["192.0.2.9"])
    carried = signals.entry(*PAIR).signals["shared_identity"]
    assert carried.value == 0 and carried.score == 0
    # what it says agrees with the identities a report shows as shared (issue 22: it said "no IP in common")
    assert signals.shared_identities(*PAIR) == {"100.64.0.1": 11}
    assert "no IP address" not in carried.why
    assert "100.64.0.1 (11 players)" in carried.why and "proves nothing" in carried.why
    assert "192.0.2.9" in signals.entry("q20", "q21").signals["shared_identity"].why
    assert signals.shared_identities("q20", "q21") == {"192.0.2.9": 2}
    assert signals.shared_identities("q00", "q20") == {}
    assert "no IP address" in signals.entry("q00", "q20").signals["shared_identity"].why


def test_SEC_3_players_sharing_an_address_who_never_met_score_nothing():
    signals = PairSignals()
    signals.add_identities("x", ["10.1.1.1"])
    signals.add_identities("y", ["10.1.1.1"])
    entry = signals.entry("x", "y")
    assert entry.score == 0 and "never played a hand at one table" in entry.signals["shared_identity"].why


# ----------------------------------------------------------------------------- minimum samples


def test_SEC_3_a_few_hands_prove_nothing():
    few = room(hands=150, soft=PAIR, flow=PAIR, dump=PAIR, together=PAIR)
    entry = few.entry(*PAIR)
    assert entry.signals["soft_play"].score == 0 and "prove nothing" in entry.signals["soft_play"].why
    assert entry.signals["chip_flow"].score == 0 and "prove nothing" in entry.signals["chip_flow"].why
    many = room(hands=3000, soft=PAIR, flow=PAIR, dump=PAIR, together=PAIR).entry(*PAIR)
    assert many.signals["soft_play"].score > 0 and many.signals["chip_flow"].score > 0


def test_SEC_3_two_dumps_are_below_the_minimum_whatever_the_odds():
    signals = PairSignals()
    for n in range(2):
        signals.add(HandFacts(f"d{n}", "t", "NLHE 1/2", None, False, 0.0, ("a", "b"), 2, 0, 0, False, (-24, 24),
                              ((0, 1, 24),), ((0, 0, 0, 0),) * 2, (), ((0, 1, 24),), (), (), (), (), ()))
    entry = signals.entry("a", "b")
    assert entry.signals["chip_dumping"].value == 2 and entry.signals["chip_dumping"].score == 0
    assert "fewer than 3 prove nothing" in entry.signals["chip_dumping"].why


# ----------------------------------------------------------------------------- ranking and rings


def test_SEC_3_ranking_is_by_combined_score_and_the_score_is_the_weighted_sum():
    signals = room(soft=PAIR, dump=PAIR)
    ranked = signals.rank(limit=10)
    assert len(ranked) == 10 and ranked[0].players == PAIR
    assert [e.score for e in ranked] == sorted((e.score for e in ranked), reverse=True)
    for e in ranked:
        assert e.score == pytest.approx(sum(WEIGHTS[name] * s.score for name, s in e.signals.items()))
        assert list(e.signals) == sorted(SIGNALS, key=lambda n: (-WEIGHTS[n] * e.signals[n].score, SIGNALS.index(n)))
    assert sum(WEIGHTS.values()) == pytest.approx(1.0) and set(WEIGHTS) == set(SIGNALS)
    assert len(signals.rank(limit=None)) == len(signals.scores())
    wire = json.loads(json.dumps([e.to_wire() for e in ranked]))
    assert wire[0]["players"] == list(PAIR) and set(wire[0]["signals"]) == set(SIGNALS)


def test_SEC_3_scores_follow_hands_added_after_a_ranking():
    signals = room(hands=1500)
    before = signals.entry(*PAIR).score
    rng = random.Random(3)
    for n in range(1500, 4500):
        lineup = rng.sample(NAMES, 6)
        signals.add(deal(rng, n, lineup, soft=PAIR, dump=PAIR))
    assert signals.entry(*PAIR).score > before + 0.2
    assert signals.rank(limit=1)[0].players == PAIR


def three_colluders() -> PairSignals:
    rng = random.Random(11)
    signals = PairSignals()
    ring = ["q00", "q01", "q02"]
    for n in range(4000):
        lineup = rng.sample(NAMES, 6)
        inside = [p for p in ring if p in lineup]
        pair = tuple(inside[:2]) if len(inside) >= 2 else None
        if len(inside) == 3 and n % 2:
            pair = (inside[1], inside[2])
        signals.add(deal(rng, n, lineup, soft=pair, dump=pair, flow=pair))
    return signals


def test_SEC_3_three_colluders_form_a_ring_and_a_bystander_does_not_join_it():
    signals = three_colluders()
    flagged = [e for e in signals.rank(limit=None) if e.score >= FLAG_THRESHOLD]
    assert {e.players for e in flagged} >= {("q00", "q01"), ("q00", "q02"), ("q01", "q02")}
    rings = signals.rings()
    assert len(rings) == 1 and rings[0].players == ("q00", "q01", "q02")
    assert rings[0].score >= FLAG_THRESHOLD and len(rings[0].pairs) == 3
    assert rings[0].to_wire()["players"] == ["q00", "q01", "q02"]
    # one flagged pair hanging off the ring (q00 with a stranger) does not pull the stranger in
    entries = signals.rank(limit=None)
    stranger = PairEntry(("q00", "zz"), 0.9, entries[0].signals)
    assert signals.rings(entries + [stranger])[0].players == ("q00", "q01", "q02")


def test_SEC_3_no_ring_from_one_guilty_pair():
    assert room(soft=PAIR, dump=PAIR, flow=PAIR).rings() == []
