"""The frames the room writes itself are the frames Autobahn would have written."""

from __future__ import annotations

from autobahn.twisted.websocket import WebSocketServerFactory
from hypothesis import given
from hypothesis import strategies as st

from pokerroom.gateway.server import data_frame


@given(size=st.sampled_from([0, 1, 125, 126, 127, 4000, 65535, 65536, 70000]), binary=st.booleans(),
       fill=st.integers(0, 255))
def test_a_frame_is_byte_for_byte_what_autobahn_prepares(size, binary, fill):
    payload = bytes([fill]) * size
    theirs = WebSocketServerFactory().prepareMessage(payload, binary).payloadHybi
    assert data_frame(payload, binary) == theirs
