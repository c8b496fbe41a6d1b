"""Test-wide settings.

Hypothesis checks rules, not speed: the machines that run the suite are shared
and noisy, so no example may fail for taking long (benchmarks live in bench/).
"""

from hypothesis import settings

settings.register_profile("room", deadline=None)
settings.load_profile("room")
