"""The connection limits' parts that need no socket: the HTTP header deadline on a Clock, origins and config."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from twisted.internet.address import IPv4Address
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport

from pokerroom.gateway.limits import ConnectionLimits, normal_origin, own_origins
from pokerroom.gateway.places import PlaceRules, Places, Refused, keys_of
from pokerroom.gateway.server import build_site, ip_of
from tests.support.clocked_room import make_room


def channel_on(clock: Clock, store, **limits):
    room = make_room(store, clock)
    site = build_site(room.gateway, clock, tables=lambda: len(room.tables.runners), limits=ConnectionLimits(**limits))
    channel = site.buildProtocol(IPv4Address("TCP", "192.0.2.1", 5000))
    transport = StringTransport()
    channel.makeConnection(transport)
    return channel, transport


def test_an_http_request_sent_a_byte_at_a_time_is_closed_when_its_headers_are_late(store):
    clock = Clock()
    channel, transport = channel_on(clock, store, header_seconds=5, idle_seconds=60)
    half = b"GET /health HTTP/1.1\r\nHost: room\r\n"
    for byte in half:                                   # each byte would restart an idle timer
        channel.dataReceived(bytes([byte]))
        clock.advance(0.1)
    assert not transport.disconnecting
    clock.advance(5 - 0.1 * len(half) + 0.01)
    assert transport.disconnecting


def test_headers_in_time_are_answered_and_the_deadline_starts_again_for_the_next_request(store):
    clock = Clock()
    channel, transport = channel_on(clock, store, header_seconds=5, idle_seconds=60)
    clock.advance(4)
    channel.dataReceived(b"GET /health HTTP/1.1\r\nHost: room\r\n\r\n")
    assert b"200 OK" in transport.value() and not transport.disconnecting
    clock.advance(4.9)
    assert not transport.disconnecting
    clock.advance(0.2)                                  # the next request's headers are late in their turn
    assert transport.disconnecting


def test_origins_are_compared_in_one_spelling_and_only_http_or_https_counts():
    assert normal_origin("http://LocalHost:8765") == "http://localhost:8765"
    assert normal_origin("https://poker.example") == normal_origin("https://poker.example:443/")
    assert normal_origin("http://[::1]:80") == "http://[::1]:80"
    for bad in ("evil://127.0.0.1:8765", "null", "file://", "http://", "http://a:b@poker.example",
                "http://poker.example/path", "http://poker.example:99999", "javascript:alert(1)"):
        assert normal_origin(bad) is None, bad
    assert set(own_origins("127.0.0.1", 8765)) >= {"http://127.0.0.1:8765", "http://localhost:8765"}
    assert own_origins("0.0.0.0", 8765) == ()
    assert own_origins("poker.example", 443) == ("http://poker.example:443", "https://poker.example:443")


def test_the_connections_section_is_checked_and_a_demo_lets_one_address_hold_more():
    with pytest.raises(ValueError, match="no setting 'per_ip'"):
        ConnectionLimits.from_config({"connections": {"per_ip": 3}})
    with pytest.raises(ValueError, match="allowed_origins"):
        ConnectionLimits.from_config({"connections": {"allowed_origins": ["evil://x"]}})
    limits = ConnectionLimits.from_config({"connections": {"allowed_origins": ["https://Poker.example"]}})
    assert limits.allowed_origins == ("https://poker.example:443",) and limits.per_address == 64
    assert ConnectionLimits.from_config({}, demo=True).per_address == 1_000
    assert ConnectionLimits.from_config({"connections": {"per_address": 3}}, demo=True).per_address == 3


def test_a_connection_counts_against_its_address_its_slash_24_or_64_and_over_ipv6_its_slash_56():
    assert keys_of(ip_of("tcp4:192.0.2.7:5678")) == ("192.0.2.7", "192.0.2.0/24")
    assert keys_of("::ffff:192.0.2.7") == ("192.0.2.7", "192.0.2.0/24")
    assert keys_of(ip_of("tcp6:[2001:db8:0:1::7]:5678")) == ("2001:db8:0:1::7", "2001:db8:0:1::/64", "2001:db8::/56")
    assert keys_of("2001:db8:0:ff::9")[1:] == ("2001:db8:0:ff::/64", "2001:db8::/56")


def test_each_cap_holds_and_is_at_least_the_one_inside_it():
    places = Places(PlaceRules(total=100, per_address=2, per_network=3, per_ipv6_56=4))
    for n in range(2):
        places.admit(f"a{n}", "192.0.2.1")
    with pytest.raises(Refused, match="your address") as refused:
        places.admit("a2", "192.0.2.1")
    assert refused.value.status == 429
    places.admit("b", "192.0.2.2")
    with pytest.raises(Refused, match="your network"):
        places.admit("c", "192.0.2.3")                           # the /24 is full, whichever address asks
    for n in range(4):
        places.admit(f"v6-{n}", f"2001:db8:0:{n}::1")              # four /64s of one /56
    with pytest.raises(Refused, match="your network"):
        places.admit("v6-4", "2001:db8:0:4::1")                   # the /56 is full
    places.admit("elsewhere", "2001:db8:1:0::1")
    places.release("a0")
    places.admit("a2", "192.0.2.1")
    assert Places(PlaceRules(per_address=500, per_network=256, per_ipv6_56=300)).caps == (500, 500, 500)


def test_a_newcomer_takes_the_place_of_the_oldest_anonymous_connection_of_the_busiest_network():
    places = Places(PlaceRules(total=10, per_address=10, per_network=10, anonymous_share=0.5))
    assert places.admit("player", "198.51.100.1") == []
    places.logged_in("player")                                   # never taken for a newcomer
    crowd = [f"c{n}" for n in range(5)]
    for n, c in enumerate(crowd):
        assert places.admit(c, f"203.0.113.{n + 1}") == []        # one /24: the anonymous share is full now
    assert places.admit("new", "192.0.2.9") == ["c0"]             # the busiest network's oldest goes
    with pytest.raises(Refused) as full:                         # the crowd's network holds as many as any
        places.admit("again", "203.0.113.50")
    assert full.value.status == 503
    assert len(places) == 6 and places.anonymous_count == 5
    places.logged_out("player")                                  # anonymous again after a logout
    assert places.anonymous_count == 6


def test_anonymous_connections_from_one_network_each_cannot_take_a_logged_in_players_place():
    places = Places(PlaceRules(total=8, per_address=1, per_network=2, anonymous_share=0.5))
    for n in range(4):
        places.admit(f"p{n}", f"198.51.{n}.1")
        places.logged_in(f"p{n}")                                # four players hold half the room
    for n in range(200):                                         # 200 networks, one anonymous place each
        places.admit(f"x{n}", f"10.{n}.0.1")
    assert len(places) == 8 and places.anonymous_count == 4      # the crowd only ever took each other's places
    with pytest.raises(Refused) as full:
        places.admit("x-again", "10.199.0.2")                    # a network that holds as many as the busiest
    assert full.value.status == 503


def test_STAFF_3_the_login_deadline_starts_again_when_the_player_on_a_socket_logs_out(store):
    """A socket that logged in and out is anonymous again: it gets the deadline again, and is closed (4010)."""
    from types import SimpleNamespace

    from autobahn.twisted.websocket import WebSocketServerProtocol

    from pokerroom.gateway.server import RoomProtocol
    from tests.support.clocked_room import request, with_token

    clock = Clock()
    room = make_room(store, clock)
    protocol = RoomProtocol()
    protocol.factory = SimpleNamespace(reactor=clock, limits=ConnectionLimits(login_seconds=5), rate=20.0,
                                       burst=40.0, gateway=room.gateway)
    protocol.transport = StringTransport()
    protocol.state, protocol.peer_address = WebSocketServerProtocol.STATE_OPEN, "tcp4:192.0.2.7:5000"
    closes: list[int] = []
    protocol.close = lambda code, reason: closes.append(code)
    protocol.onOpen()
    session = protocol.session
    clock.advance(4)
    session.player_id, session.country = "ana", "NL"            # logged in before the deadline
    room.gateway.identify(session, "ana")
    with_token(room, session)
    clock.advance(60)
    assert closes == []                                        # a logged-in socket has no deadline
    assert request(room, session, "logout")["ok"]
    clock.advance(4.9)
    assert closes == []
    clock.advance(0.2)
    assert closes == [4010]                                    # anonymous for the deadline again: closed


@given(st.lists(st.tuples(st.sampled_from(["connect", "login", "logout", "leave"]), st.integers(0, 40),
                          st.integers(0, 5)), max_size=300))
def test_places_never_exceed_a_cap_and_never_take_a_logged_in_connections_place(ops):
    rules = PlaceRules(total=12, per_address=2, per_network=3, per_ipv6_56=5, anonymous_share=0.5)
    places, logged_in, n = Places(rules), set(), 0
    for op, target, net in ops:
        live = list(places.keys)
        if op == "connect":
            n += 1
            ip = f"10.0.{net}.{target % 3}" if target % 2 else f"2001:db8:0:{net}{target % 4:x}::{target % 3 + 1}"
            before = places.anonymous_count
            try:
                evicted = places.admit(n, ip)
            except Refused as refused:
                assert refused.status in (429, 503)
                continue
            assert not set(evicted) & logged_in              # a newcomer takes only an anonymous place...
            assert places.anonymous_count <= max(rules.anonymous, before)   # ...and never grows a full share
        elif live:
            connection = live[target % len(live)]
            if op == "login":
                places.logged_in(connection)
                logged_in.add(connection)
            elif op == "logout":
                places.logged_out(connection)
                logged_in.discard(connection)
            else:
                places.release(connection)
                logged_in.discard(connection)
        assert len(places) <= rules.total
        assert places.anonymous_count == sum(len(g) for g in places.anonymous.values())
        assert places.top == max((len(g) for g in places.anonymous.values()), default=0)
        for key, held in places.held.items():
            assert held <= places.caps[2 if key.endswith("/56") else 1 if "/" in key else 0]
