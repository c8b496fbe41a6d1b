"""A faster ``__init__`` for the engine's frozen slots dataclasses (events, legal actions).

A frozen dataclass's own ``__init__`` routes every field through
``object.__setattr__``. The engine builds some forty events per hand, and that
alone was a third of its time. :func:`quick_init` gives the class an
``__init__`` that writes through the slot descriptors instead, at half the
cost. Nothing else changes: the class stays frozen (assignment raises
``FrozenInstanceError``) and keeps the dataclass's ``__eq__``, ``__hash__``,
``__repr__`` and parameter names and defaults. Plain defaults only: a
``default_factory`` is refused.
"""

from __future__ import annotations

import dataclasses


def quick_init(cls: type) -> type:
    """Class decorator, applied on top of ``@dataclass(frozen=True, slots=True)``."""
    fields = dataclasses.fields(cls)
    missing = dataclasses.MISSING
    if any(f.default_factory is not missing for f in fields):
        raise TypeError(f"quick_init does not handle default factories ({cls.__name__})")
    names = [f.name for f in fields]
    namespace = {f"_set_{name}": getattr(cls, name).__set__ for name in names}
    namespace.update({f"_default_{f.name}": f.default for f in fields if f.default is not missing})
    parameters = [f.name if f.default is missing else f"{f.name}=_default_{f.name}" for f in fields]
    body = "".join(f"    _set_{name}(self, {name})\n" for name in names) or "    pass\n"
    source = f"def __init__(self, {', '.join(parameters)}):\n{body}"
    exec(compile(source, f"<{cls.__name__}.__init__>", "exec"), namespace)  # the way dataclasses builds it
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init
    return cls
