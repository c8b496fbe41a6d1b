"""Card layout, parsing, masks and the secure shuffle (HR-RNG-1, HR-RNG-2)."""

import itertools
import secrets

import pytest

from pokerroom import cards


def test_layout_is_rank_times_four_plus_suit():
    assert cards.parse_card("2c") == 0
    assert cards.parse_card("2s") == 3
    assert cards.parse_card("As") == 51
    assert cards.parse_card("Td") == 8 * 4 + 1
    for c in range(52):
        assert cards.rank_of(c) * 4 + cards.suit_of(c) == c


def test_parse_and_format_round_trip_every_card():
    text = "".join(cards.format_card(c) for c in range(52))
    assert cards.parse(text) == tuple(range(52))
    assert cards.format(cards.parse("AsKd")) == "AsKd"
    assert cards.parse("as kd") == cards.parse("As,Kd") == cards.parse("AsKd")
    assert cards.parse("10h") == cards.parse("Th")


@pytest.mark.parametrize(
    ("text", "count", "message"),
    [
        ("AsXx", None, "unknown card 'Xx'"),
        ("AsAs", None, "duplicate card As"),
        ("AsK", None, "each card is a rank and a suit"),
        ("AsKd", 5, "wrong number of cards: got 2, need 5"),
        ("1s", None, "unknown card '1s'"),
    ],
)
def test_bad_card_text_names_the_problem(text, count, message):
    with pytest.raises(ValueError, match=message):
        cards.parse(text, count)


def test_validate_rejects_non_cards():
    for bad in ([52], [-1], [True], [1.0], ["As"]):
        with pytest.raises(ValueError, match="not a card"):
            cards.validate(bad)
    assert cards.validate([0, 51], count=(2, 3)) == (0, 51)


def test_masks_round_trip():
    hand = cards.parse("AsKd2c")
    mask = cards.to_mask(hand)
    assert mask == (1 << 51) | (1 << 45) | 1
    assert cards.from_mask(mask) == tuple(sorted(hand))
    with pytest.raises(ValueError):
        cards.from_mask(1 << 52)


def test_HR_RNG_1_shuffle_is_a_permutation_drawn_from_secrets(monkeypatch):
    calls, fetched = [], []
    real_below, real_bytes = cards.RandomDraws.below, secrets.token_bytes

    def spy(self, n):
        calls.append(n)
        return real_below(self, n)

    def token_bytes(n):
        fetched.append(n)
        return real_bytes(n)

    monkeypatch.setattr(cards.RandomDraws, "below", spy)
    monkeypatch.setattr(cards.secrets, "token_bytes", token_bytes)
    deck = cards.shuffled_deck()
    assert sorted(deck) == list(range(52))
    assert calls == list(range(52, 1, -1))  # one draw per position, Fisher-Yates
    assert 1 <= len(fetched) <= 3           # the OS's bits, a block at a time


def test_HR_RNG_1_fisher_yates_is_unbiased(monkeypatch):
    # Every sequence of draws yields a different order, and every order is
    # reachable: each of the n! orders has probability exactly 1/n!.
    n = 5
    seen = set()
    for draws in itertools.product(*[range(i + 1) for i in range(n - 1, 0, -1)]):
        it = iter(draws)
        monkeypatch.setattr(cards.RandomDraws, "below", lambda self, bound, it=it: next(it))
        seen.add(tuple(cards.shuffled_deck(list(range(n)))))
    assert len(seen) == 120


@pytest.mark.parametrize("n", [1, 2, 3, 5, 7, 8, 13, 52])
def test_HR_RNG_1_each_draw_is_uniform_by_rejection(monkeypatch, n):
    # Offer every k-bit pattern once as the only bits in the pool: the accepted
    # ones give exactly 0..n-1, each once; a pattern of n or more is thrown away
    # (never folded back into range, which would bias) and fresh bits fetched.
    class Refetched(Exception):
        pass

    def token_bytes(size):
        raise Refetched

    monkeypatch.setattr(cards.secrets, "token_bytes", token_bytes)
    k = n.bit_length()
    accepted, rejected = [], 0
    for pattern in range(1 << k):
        draws = cards.RandomDraws()
        draws.pool, draws.bits = pattern, k
        try:
            accepted.append(draws.below(n))
        except Refetched:
            rejected += 1
    assert sorted(accepted) == list(range(n))
    assert rejected == (1 << k) - n
    with pytest.raises(ValueError):
        cards.RandomDraws().below(0)


def test_HR_RNG_2_deck_commitment_hides_and_binds_the_order():
    deck = cards.shuffled_deck()
    salt = cards.new_commitment_salt()
    digest = cards.deck_commitment(deck, salt)
    assert cards.verify_commitment(deck, salt, digest)
    swapped = deck[1:2] + deck[:1] + deck[2:]
    assert not cards.verify_commitment(swapped, salt, digest)
    assert cards.format(deck) not in digest
