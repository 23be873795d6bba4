"""Waiting for a condition that becomes true by itself (a server starting, a page
following the host)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def wait_until(
    predicate: Callable[[], Any],
    timeout: float = 10.0,
    interval: float = 0.1,
    what: str | Callable[[], str] = "",
    page: Any = None,
) -> Any:
    """Poll ``predicate`` until it answers something truthy, and answer that. ``what``
    names the condition in the failure (a callable: asked then, to say what was seen).
    Pass the Playwright ``page`` when the answer depends on its route handlers: they run
    only while Playwright waits."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            said = what() if callable(what) else what
            raise AssertionError(f"not true within {timeout} s: {said or predicate}")
        if page is not None:
            page.wait_for_timeout(interval * 1000)
        else:
            time.sleep(interval)
