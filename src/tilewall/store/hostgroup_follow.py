"""How a standby catches up with the active member's writes: from the log of writes,
or by reloading everything when the log no longer reaches back to it."""

from collections.abc import Callable

from tilewall.host.ports import GroupEvents
from tilewall.store.postgres import PostgresStore


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
