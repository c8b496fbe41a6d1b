"""The room's own counts read as Prometheus would read them."""

from __future__ import annotations

from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from pokerroom.gateway.metrics import Metrics


def samples(metrics: Metrics) -> dict[tuple[str, str], float]:
    text = generate_latest(metrics.registry).decode()
    return {(s.name, s.labels.get("le", "")): s.value for family in text_string_to_metric_families(text)
            for s in family.samples}


def test_counters_gauges_and_the_answer_time_histogram_expose_what_was_counted():
    m = Metrics()
    m.actions.inc()
    m.actions.inc()
    m.connections.inc()
    m.connections.inc()
    m.connections.dec()
    m.tables.set(7)
    for seconds in (0.0005, 0.0007, 0.003, 2.0):                # a bound itself falls in its bucket
        m.latency.observe(seconds)
    got = samples(m)
    assert got[("pokerroom_actions_total", "")] == 2 and got[("pokerroom_hands_total", "")] == 0
    assert got[("pokerroom_connections", "")] == 1 and got[("pokerroom_tables", "")] == 7
    assert got[("pokerroom_action_seconds_bucket", "0.0005")] == 1
    assert got[("pokerroom_action_seconds_bucket", "0.001")] == 2
    assert got[("pokerroom_action_seconds_bucket", "0.005")] == 3
    assert got[("pokerroom_action_seconds_bucket", "0.5")] == 3
    assert got[("pokerroom_action_seconds_bucket", "+Inf")] == got[("pokerroom_action_seconds_count", "")] == 4
    assert abs(got[("pokerroom_action_seconds_sum", "")] - 2.0042) < 1e-9
