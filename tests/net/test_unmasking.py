"""Frames clients send are unmasked as Autobahn's own masker would, however the reads split them."""

from __future__ import annotations

from autobahn.websocket import protocol as autobahn_protocol
from autobahn.websocket.xormasker import create_xor_masker
from hypothesis import given
from hypothesis import strategies as st

from pokerroom.gateway.unmasking import FrameUnmasker, install


@given(mask=st.binary(min_size=4, max_size=4), payload=st.binary(max_size=600),
       cuts=st.lists(st.integers(0, 600), max_size=5))
def test_unmasking_in_pieces_gives_what_autobahns_masker_gives(mask, payload, cuts):
    theirs = create_xor_masker(mask, len(payload))
    ours = FrameUnmasker(mask, len(payload))
    edges = [0, *sorted(c for c in cuts if c <= len(payload)), len(payload)]
    for start, end in zip(edges, edges[1:], strict=False):
        assert ours.process(payload[start:end]) == theirs.process(payload[start:end])
        assert ours.pointer() == theirs.pointer() == end
    ours.reset()
    assert ours.pointer() == 0
    assert ours.process(FrameUnmasker(mask).process(payload)) == payload      # masking is its own inverse


def test_autobahn_reads_frames_with_it_once_installed():
    assert install()
    assert autobahn_protocol.create_xor_masker is FrameUnmasker
