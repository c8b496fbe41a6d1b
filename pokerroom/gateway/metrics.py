"""The room's Prometheus metrics (``/metrics``): one registry the services count into."""

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.connections = Gauge("pokerroom_connections", "open WebSocket connections", registry=self.registry)
        self.tables = Gauge("pokerroom_tables", "tables in the room", registry=self.registry)
        self.hands = Counter("pokerroom_hands", "hands played", registry=self.registry)
        self.actions = Counter("pokerroom_actions", "player actions accepted", registry=self.registry)
        self.latency = Histogram("pokerroom_action_seconds", "time to answer an action", registry=self.registry,
                                 buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5))
