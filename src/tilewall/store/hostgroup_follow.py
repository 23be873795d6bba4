"""How a standby follows the active member's writes: the active member's announcements
(``NOTIFY``), a heartbeat that sees the group's revision ahead and a request waiting for
a revision each say which revision is wanted; one task at a time catches up to it from
the log of writes, or by reloading everything when the log no longer reaches back."""

import asyncio
import contextlib
import logging
from collections.abc import Callable

from tilewall.host.ports import GroupEvents
from tilewall.store.health import describe
from tilewall.store.postgres import PostgresStore

log = logging.getLogger(__name__)


class Follower:
    """The following of one member while it is a ``standby`` and its host listens
    (``events``, set when the member starts)."""

    def __init__(self, store: PostgresStore, standby: Callable[[], bool]) -> None:
        self._store = store
        self._standby = standby
        self.events: GroupEvents | None = None
        #: the newest revision the member knows of
        self.wanted = 0
        self._task: asyncio.Task[None] | None = None

    def want(self, revision: int) -> None:
        """Follow up to ``revision`` too."""
        self.wanted = max(self.wanted, revision)
        self.kick()

    def kick(self) -> None:
        """Catch up to what is wanted, unless already at it."""
        if not self._standby() or self.events is None:
            return
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._follow(), name="group-follow")

    def stop(self) -> None:
        """Stop catching up (the member takes over: it loads everything itself)."""
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()

    async def close(self) -> None:
        """Stop catching up and wait until it has stopped (the member stops)."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _follow(self) -> None:
        while self._standby() and self._store.revision < self.wanted:
            try:
                await catch_up(self._store, self.events, self._standby)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("group: cannot follow the active member yet: %s", describe(error))
                await asyncio.sleep(0.5)
                return


async def catch_up(
    store: PostgresStore, events: GroupEvents | None, standby: Callable[[], bool]
) -> None:
    """Take in what was committed after ``store.revision``, told to ``events``, as
    long as the member is a ``standby`` (an active member has it all in memory)."""
    assert events is not None
    base = store.revision
    entries = await store.log_since(base)
    if not entries:
        return
    if entries[0][0] != base + 1:
        snapshot = await store.snapshot()
        if standby():
            await events.replaced(snapshot)
            store.advance(snapshot.revision)
        return
    pairs = {(kind, key) for _, changed in entries for kind, key in changed}
    batch = await store.changed(entries[-1][0], pairs)
    if standby():
        await events.followed(batch)
        store.advance(batch.revision)
