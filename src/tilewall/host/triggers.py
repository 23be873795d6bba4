"""Why a display's content changed, as the play log records it.

Whoever causes a change says so around it (``with triggered_by("preset", name):``); the
play log reads it when the change is announced, in the same task. A change nobody marked
was asked for through the interface (``api``).
"""

import contextvars
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Literal

Trigger = Literal["api", "console", "preset", "schedule", "failover", "share"]
TRIGGERS: tuple[Trigger, ...] = ("api", "console", "preset", "schedule", "failover", "share")
#: a trigger that says more than another is not replaced by it: a preset recalled by a
#: scheduled event is the schedule's doing
_STRENGTH = {"api": 0, "console": 0, "preset": 1, "failover": 2, "schedule": 2, "share": 1}

_CURRENT: contextvars.ContextVar[tuple[Trigger, str]] = contextvars.ContextVar(
    "trigger", default=("api", "")
)


def current() -> tuple[Trigger, str]:
    """The trigger of the change being made, and what caused it (an event's or a
    preset's name), if anyone said."""
    return _CURRENT.get()


@contextmanager
def triggered_by(trigger: Trigger, cause: str = "") -> Iterator[None]:
    """Mark the changes made inside the block as caused by ``trigger``; a stronger
    trigger already in force is kept."""
    kept, _ = _CURRENT.get()
    if _STRENGTH[kept] > _STRENGTH[trigger]:
        yield
        return
    token = _CURRENT.set((trigger, cause))
    try:
        yield
    finally:
        _CURRENT.reset(token)
