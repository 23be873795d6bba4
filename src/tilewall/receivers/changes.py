"""What changed since the hub last pushed: the displays named by the host's events, or
every receiver, gathered until the push loop takes them."""

import asyncio
import logging
from collections.abc import Callable, Iterable

log = logging.getLogger(__name__)


class Changes:
    def __init__(self) -> None:
        self._every = False
        self._displays: set[int] = set()
        self._wake = asyncio.Event()

    def mark(self, display_ids: Iterable[int] | None) -> None:
        """These displays changed; None: any receiver's description may have."""
        if display_ids is None:
            self._every = True
        else:
            self._displays.update(display_ids)
        self._wake.set()

    async def next(self) -> tuple[bool, set[int]]:
        """Wait for a change; then whether every receiver is affected, and the displays."""
        await self._wake.wait()
        await asyncio.sleep(0)  # coalesce the events of one change
        self._wake.clear()
        every, displays = self._every, self._displays
        self._every, self._displays = False, set()
        return every, displays

    async def push_each(self, push: Callable[[bool, set[int]], None]) -> None:
        """The push loop: ``push`` (whether every receiver, the displays) each change,
        until cancelled; a push that fails is logged and the loop goes on."""
        while True:
            every, displays = await self.next()
            try:
                push(every, displays)
            except Exception:
                log.exception("receiver hub: push failed")
