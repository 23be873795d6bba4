"""Batched commits: changes made while a batch is written wait for it and are written together
in one transaction; each is answered only once its batch has committed; a failed batch
fails every change in it and leaves memory as committed; a change refused by the rules
fails alone; later changes of a batch see the earlier ones."""

import asyncio
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec
import pytest

from tests.support.domain import WEB, locked_display, snapshot, web
from tests.support.ports import MemoryStore
from tilewall.host import triggers
from tilewall.host.audit import AuditRecord
from tilewall.host.errors import Conflict, StoreFailed
from tilewall.host.host import Host
from tilewall.host.memory import Event
from tilewall.host.playback.control import Target
from tilewall.host.ports import Change
from tilewall.platform.media_files import FolderMediaFiles


class GatedStore(MemoryStore):
    """A store whose writes wait at a gate while it is closed; it keeps every batch."""

    def __init__(self) -> None:
        super().__init__()
        self.open = asyncio.Event()
        self.open.set()
        self.writing = asyncio.Event()
        self.batches: list[list[Change]] = []
        #: the next write fails with this message
        self.fail_once: str | None = None

    async def apply(self, changes: Iterable[Change], audit: Sequence[AuditRecord] = ()) -> None:
        changes = list(changes)
        self.writing.set()
        await self.open.wait()
        self.writing.clear()
        failing, self.fail_once = self.fail_once, None
        if failing is not None:
            raise StoreFailed(failing)
        await super().apply(changes, audit)
        self.batches.append(changes)

    def holds(self, kind: str, key: str) -> Any:
        """The document as JSON decodes it (a setting's value, an object's fields), or None."""
        body = self.documents.get(kind, {}).get(key)
        return None if body is None else msgspec.json.decode(body)


@pytest.fixture
def store() -> GatedStore:
    return GatedStore()


async def settings_change(host: Host, name: str, value: int) -> None:
    async with host.core.change() as tx:
        tx.put_setting(name, value)


async def increment(host: Host, name: str) -> int:
    """Read the setting ``name`` and write it plus one, in one change."""
    async with host.core.change() as tx:
        value = host.core.setting(name, int, 0) + 1
        tx.put_setting(name, value)
    return value


async def written_while_held(store: GatedStore, *changes: "asyncio.Future[Any]") -> None:
    """Let the store's write in progress finish once every one of ``changes`` waits."""
    await asyncio.sleep(0.05)
    assert not any(change.done() for change in changes), "answered before the commit"
    store.open.set()


async def test_changes_made_during_a_write_are_committed_together_and_answered_after(
    host: Host, store: GatedStore
) -> None:
    display_id = await locked_display(host, "seat-1")
    store.open.clear()
    first = asyncio.create_task(settings_change(host, "first", 1))
    await store.writing.wait()
    batches = len(store.batches)

    later = [asyncio.create_task(settings_change(host, f"later-{n}", n)) for n in range(20)]
    tag = asyncio.create_task(host.stations.set_tag(host.state.displays[display_id], "tagged"))
    await asyncio.sleep(0.05)
    # nothing of the waiting changes is visible, in memory or in the store
    assert not first.done() and not any(t.done() for t in later) and not tag.done()
    assert "later-1" not in host.state.settings and "first" not in host.state.settings
    assert host.state.displays[display_id].tag != "tagged"

    store.open.set()
    await asyncio.gather(first, *later, tag)
    # the first write alone, then every change made meanwhile in one transaction
    assert len(store.batches) == batches + 2
    assert len(store.batches[-1]) == 21
    for n in range(20):
        assert host.state.settings[f"later-{n}"] == n
        assert store.holds("setting", f"later-{n}") == n
    assert host.state.displays[display_id].tag == "tagged"
    assert store.holds("display", str(display_id))["tag"] == "tagged"


async def test_each_change_of_a_batch_sees_the_ones_before_it(
    host: Host, store: GatedStore
) -> None:
    store.open.clear()
    head = asyncio.create_task(increment(host, "counter"))
    await store.writing.wait()
    tasks = [asyncio.create_task(increment(host, "counter")) for _ in range(10)]
    await written_while_held(store, head, *tasks)
    values = await asyncio.gather(head, *tasks)
    assert values == list(range(1, 12))
    assert host.state.settings["counter"] == 11
    assert store.holds("setting", "counter") == 11
    # the batch writes each document once, with its latest value
    assert [c.key for c in store.batches[-1]] == ["counter"]


async def test_a_batch_of_switches_moves_the_mapping_generation_once_each(
    host: Host, store: GatedStore
) -> None:
    displays = [await locked_display(host, f"seat-{n}") for n in range(3)]
    source = await host.sources.create("Lobby page", WEB, web())
    generation = host.state.mapping_generation
    store.open.clear()
    blocker = asyncio.create_task(settings_change(host, "blocker", 1))
    await store.writing.wait()
    switches = [
        asyncio.create_task(host.playback.switch(Target("display", host.state.displays[d]), source))
        for d in displays
    ]
    await written_while_held(store, blocker, *switches)
    await asyncio.gather(blocker, *switches)
    assert host.state.mapping_generation == generation + 3
    assert store.holds("setting", "mapping_generation") == generation + 3
    for d in displays:
        assert host.state.displays[d].timeline.assigned_source_id == source.id


async def test_a_refused_change_in_a_batch_fails_alone(host: Host, store: GatedStore) -> None:
    display_id = await locked_display(host, "seat-1")
    store.open.clear()
    blocker = asyncio.create_task(settings_change(host, "blocker", 1))
    await store.writing.wait()

    async def tag(value: str) -> None:
        async with host.core.change() as tx:
            display = host.state.displays[display_id]
            display.tag = value
            tx.put(display)

    async def refused() -> None:
        async with host.core.change() as tx:
            # changes in place what the change before it queued, then is refused
            display = host.state.displays[display_id]
            assert display.tag == "before the refusal", "sees the change queued before it"
            display.tag = "refused"
            tx.put(display)
            tx.put_setting("refused", True)
            raise Conflict("refused after a mutation")

    before = asyncio.create_task(tag("before the refusal"))
    middle = asyncio.create_task(refused())
    after = asyncio.create_task(increment(host, "after"))
    await written_while_held(store, blocker, before, after)
    with pytest.raises(Conflict):
        await middle
    await asyncio.gather(blocker, before, after)

    assert host.state.displays[display_id].tag == "before the refusal"
    assert store.holds("display", str(display_id))["tag"] == "before the refusal"
    assert "refused" not in host.state.settings and store.holds("setting", "refused") is None
    assert host.state.settings["after"] == 1
    reloaded = Host(
        store, FolderMediaFiles(host.media.root), lambda s: host.platform, clock=host.core.clock
    )
    await reloaded.load()
    assert snapshot(reloaded) == snapshot(host)


async def test_a_failed_batch_fails_every_change_in_it_and_leaves_memory_as_committed(
    host: Host, store: GatedStore
) -> None:
    display_id = await locked_display(host, "seat-1")
    source = await host.sources.create("Lobby page", WEB, web())
    events: list[Event] = []
    host.core.subscribe(events.append)
    before = snapshot(host)
    commits = store.commits

    store.failing = "disk full"
    store.open.clear()
    first = asyncio.create_task(settings_change(host, "first", 1))
    await store.writing.wait()
    batch = [
        asyncio.create_task(host.sources.create("Second page", WEB, web())),
        asyncio.create_task(
            host.playback.switch(Target("display", host.state.displays[display_id]), source)
        ),
        asyncio.create_task(host.stations.set_tag(host.state.displays[display_id], "lost")),
        asyncio.create_task(increment(host, "counter")),
    ]
    await written_while_held(store, first, *batch)
    results = await asyncio.gather(first, *batch, return_exceptions=True)
    assert all(isinstance(r, StoreFailed) and "disk full" in str(r) for r in results), results
    assert snapshot(host) == before
    assert events == []
    assert store.commits == commits

    # the next batch runs on what is committed, not on the failed one
    store.failing = None
    assert await increment(host, "counter") == 1
    assert host.state.displays[display_id].tag != "lost"


async def test_changes_waiting_behind_a_failed_batch_run_on_what_is_committed(
    host: Host, store: GatedStore
) -> None:
    store.fail_once = "I/O error"
    store.open.clear()
    failing = asyncio.create_task(increment(host, "counter"))
    await store.writing.wait()
    # made while the failing batch is written: they wait for it, then run without it
    waiting = [asyncio.create_task(increment(host, "counter")) for _ in range(3)]
    await asyncio.sleep(0.05)
    store.open.set()
    with pytest.raises(StoreFailed):
        await failing
    assert await asyncio.gather(*waiting) == [1, 2, 3]
    assert store.holds("setting", "counter") == 3


async def test_a_batch_is_announced_in_order_after_its_commit_each_in_its_callers_context(
    host: Host, store: GatedStore
) -> None:
    display_ids = [await locked_display(host, f"seat-{n}") for n in range(3)]
    told: list[tuple[frozenset[int] | None, str, bool]] = []

    def listener(event: Event) -> None:
        told.append((event.displays, triggers.current()[1], store.open.is_set()))

    host.core.subscribe(listener)
    store.open.clear()
    blocker = asyncio.create_task(settings_change(host, "blocker", 1))
    await store.writing.wait()

    async def tag(display_id: int, cause: str) -> None:
        with triggers.triggered_by("preset", cause):
            async with host.core.change() as tx:
                display = host.state.displays[display_id]
                display.tag = cause
                tx.put(display)
                tx.affect(display_id)

    tasks = [asyncio.create_task(tag(d, f"cause {d}")) for d in display_ids]
    await written_while_held(store, blocker, *tasks)
    await asyncio.gather(blocker, *tasks)
    assert told == [(frozenset({d}), f"cause {d}", True) for d in display_ids]


async def test_a_cancelled_caller_does_not_undo_its_change(host: Host, store: GatedStore) -> None:
    store.open.clear()
    # both in the batch being written
    blocker = asyncio.create_task(settings_change(host, "blocker", 1))
    cancelled = asyncio.create_task(settings_change(host, "cancelled", 1))
    await store.writing.wait()
    cancelled.cancel()
    with pytest.raises(asyncio.CancelledError):
        await cancelled
    assert "cancelled" not in host.state.settings
    store.open.set()
    await blocker
    assert host.state.settings["cancelled"] == 1
    assert store.holds("setting", "cancelled") == 1


async def test_a_standby_absorbing_waits_for_a_write_in_progress(
    host: Host, store: GatedStore
) -> None:
    store.open.clear()
    writing = asyncio.create_task(settings_change(host, "mine", 1))
    await store.writing.wait()
    absorbing = asyncio.create_task(
        host.core.absorb({("setting", "theirs"): msgspec.json.encode(2)})
    )
    await asyncio.sleep(0.02)
    assert not absorbing.done()
    store.open.set()
    await asyncio.gather(writing, absorbing)
    assert host.state.settings["mine"] == 1 and host.state.settings["theirs"] == 2


async def test_each_change_of_a_batch_is_installed_and_announced_as_it_was_made(
    host: Host, store: GatedStore
) -> None:
    """A change that changes in place what an earlier change of its batch queued does
    not change the earlier change: listeners see each change as it was made."""
    display_id = await locked_display(host, "seat-1")
    seen: list[str] = []
    host.core.subscribe(lambda _: seen.append(host.state.displays[display_id].tag))
    store.open.clear()
    blocker = asyncio.create_task(settings_change(host, "blocker", 1))
    await store.writing.wait()

    async def tag(value: str) -> None:
        async with host.core.change() as tx:
            display = host.state.displays[display_id]  # the one queued before, if any
            display.tag = value
            tx.put(display)
            tx.affect(display_id)

    tasks = [asyncio.create_task(tag(value)) for value in ("a", "b", "c")]
    await written_while_held(store, blocker, *tasks)
    await asyncio.gather(blocker, *tasks)
    assert seen == ["a", "b", "c"]
    assert host.state.displays[display_id].tag == "c"
