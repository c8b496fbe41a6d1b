"""Bus records (``pokerroom.bus.records``): what a record is, and that it crosses a broker-like bus as itself."""

from dataclasses import dataclass

import pytest
from twisted.internet import task

from pokerroom.bus.records import RECORDS, NotPlainData, packb, record, unpackb
from pokerroom.bus.strict import StrictBus


@record("test.seat_probe")
@dataclass(frozen=True, slots=True)
class SeatProbe:
    player: str
    seats: tuple[int, ...]
    inner: object = None


def test_a_record_comes_back_from_its_bytes_equal_and_of_its_class_with_tuples_for_sequences():
    probe = SeatProbe("ana", (1, 2), SeatProbe("bob", ()))
    copy = unpackb(packb({"probe": probe, "n": [1, 2]}))
    assert copy == {"probe": probe, "n": [1, 2]}
    assert type(copy["probe"]) is SeatProbe and copy["probe"].seats == (1, 2)


def test_only_frozen_dataclasses_are_records_and_a_name_is_declared_once():
    with pytest.raises(TypeError):
        record("test.loose")(dataclass(type("Loose", (), {"__annotations__": {"x": int}})))
    with pytest.raises(ValueError):
        record("test.seat_probe")(dataclass(frozen=True)(type("Again", (), {"__annotations__": {"x": int}})))
    assert RECORDS["test.seat_probe"] is SeatProbe


@pytest.mark.parametrize("payload", [object(), {"s": {1, 2}}, SeatProbe("ana", (), object())])
def test_what_another_process_could_not_read_is_refused_in_the_publishers_call(payload):
    bus = StrictBus(task.Clock())
    bus.subscribe("x.y", lambda subject, message: None)
    with pytest.raises(NotPlainData):
        bus.publish("x.y", payload)


def test_each_subscriber_of_a_strict_bus_gets_its_own_equal_copy_of_a_record():
    clock = task.Clock()
    bus = StrictBus(clock)
    seen: list = []
    for _ in range(2):
        bus.subscribe("session.gone", lambda subject, message: seen.append(message))
    probe = SeatProbe("ana", (3,))
    bus.publish("session.gone", probe)
    assert seen == []
    clock.advance(0)
    assert seen == [probe, probe] and seen[0] is not probe and seen[0] is not seen[1]
