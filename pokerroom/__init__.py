"""pokerroom: a multiplayer online poker room server that enforces house rules exactly."""

__version__ = "0.1.0"
