"""A change is all or nothing: it becomes the host's state only after the store has
committed it; a store that fails leaves memory exactly as it was and announces nothing."""

import asyncio

import pytest

from tests.support.domain import WEB, locked_display, snapshot, web
from tests.support.ports import MemoryStore
from tilewall.host.errors import Conflict, StoreFailed
from tilewall.host.host import Host
from tilewall.host.memory import Event
from tilewall.host.playback.control import Target
from tilewall.platform.media_files import FolderMediaFiles


async def test_failed_commit_leaves_memory_and_announces_nothing(
    host: Host, store: MemoryStore
) -> None:
    display_id = await locked_display(host, "seat-1")
    source = await host.sources.create("Lobby page", WEB, web())
    events: list[Event] = []
    host.core.subscribe(events.append)
    before = snapshot(host)
    commits = store.commits

    store.failing = "disk full"
    with pytest.raises(StoreFailed, match="disk full"):
        await host.sources.create("Second page", WEB, web())
    target = Target("display", host.state.displays[display_id])
    with pytest.raises(StoreFailed):
        await host.playback.switch(target, source)
    with pytest.raises(StoreFailed):
        await host.stations.unlock("seat-1")

    assert snapshot(host) == before
    assert [s.name for s in host.state.sources.values()] == ["Lobby page"]
    assert host.state.displays[display_id].timeline.assigned_source_id == ""
    assert events == []
    assert store.commits == commits

    store.failing = None
    await host.sources.create("Second page", WEB, web())
    await host.playback.switch(Target("display", host.state.displays[display_id]), source)
    assert sorted(s.name for s in host.state.sources.values()) == ["Lobby page", "Second page"]
    assert host.state.displays[display_id].timeline.assigned_source_id == source.id
    assert events, "a committed change is announced"


async def test_what_memory_holds_is_what_the_store_holds(host: Host, store: MemoryStore) -> None:
    """After failures and successes, a host loaded afresh from the store equals the live one."""
    display_id = await locked_display(host, "seat-1")
    source = await host.sources.create("Lobby page", WEB, web())
    store.failing = "I/O error"
    for attempt in range(3):
        with pytest.raises(StoreFailed):
            await host.playback.switch(Target("display", host.state.displays[display_id]), source)
        with pytest.raises(StoreFailed):
            await host.sources.create(f"page {attempt}", WEB, web())
    store.failing = None
    await host.presets.save("After the outage")

    reloaded = Host(
        store, FolderMediaFiles(host.media.root), lambda s: host.platform, clock=host.core.clock
    )
    await reloaded.load()
    assert snapshot(reloaded) == snapshot(host)


async def test_readers_never_see_a_change_the_store_has_not_committed(
    host: Host, store: MemoryStore
) -> None:
    committing = asyncio.Event()
    release = asyncio.Event()
    apply = store.apply

    async def slow_apply(changes, audit=()):
        committing.set()
        await release.wait()
        await apply(changes, audit)

    store.apply = slow_apply  # type: ignore[method-assign]
    creating = asyncio.create_task(host.sources.create("Lobby page", WEB, web()))
    await committing.wait()
    assert host.state.sources == {}, "the new source is visible before its commit"
    release.set()
    created = await creating
    assert host.state.sources == {created.id: created}


async def test_a_refused_change_undoes_what_it_had_already_changed(host: Host) -> None:
    """A rule that refuses half-way through a change leaves nothing of it behind."""
    await locked_display(host, "seat-1")
    before = snapshot(host)
    with pytest.raises(Conflict):
        async with host.core.change() as tx:
            display = next(iter(host.state.displays.values()))
            display.tag = "changed before the refusal"
            tx.put(display)
            raise Conflict("refused after a mutation")
    assert snapshot(host) == before
    assert next(iter(host.state.displays.values())).tag != "changed before the refusal"
