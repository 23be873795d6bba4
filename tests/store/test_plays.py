"""The play log port on the store's engine, the same on SQLite and PostgreSQL: written
by id (a play ends by being written again), read by window and display, pruned."""

import asyncio
import threading
import time
from pathlib import Path

import pytest

from tilewall.host.errors import StoreFailed
from tilewall.host.ports import Play, PlayLogStore
from tilewall.store import SqlStore
from tilewall.store.engine import create_async_engine
from tilewall.store.plays import PlayRecords

H = 3_600_000


def play(n: int, display: int, start: int, end: int | None, name: str = "Slides") -> Play:
    return Play(f"p{n}", display, "src-1", name, start, end, "schedule", "Morning ✓")


async def test_plays_round_trip_by_window_and_display(store: SqlStore) -> None:
    plays: PlayLogStore = PlayRecords(store.engine)
    await plays.put_plays(
        [
            play(1, 1, 0, H),
            play(2, 1, H, None, "Hall ü 🎬"),
            play(3, 2, 0, 2 * H),
            play(4, 2, 2 * H, 3 * H),
        ]
    )
    assert [p.id for p in await plays.plays(None, None, None, 100)] == ["p1", "p3", "p2", "p4"]
    assert (await plays.plays(None, None, 1, 100))[1] == play(2, 1, H, None, "Hall ü 🎬")
    # overlapping [90 min, 150 min): p1 ended before, p4 starts after
    window = await plays.plays(H + H // 2, 2 * H + H // 2 - H // 2, None, 100)
    assert [p.id for p in window] == ["p3", "p2"]
    assert [p.id for p in await plays.plays(None, None, None, 2)] == ["p1", "p3"]
    assert {p.id for p in await plays.open_plays()} == {"p2"}
    # a play ends by being written again; the latest write of one batch wins
    await plays.put_plays([play(2, 1, H, 2 * H), play(2, 1, H, 4 * H)])
    assert await plays.open_plays() == []
    assert (await plays.plays(None, None, 1, 100))[1].end_ms == 4 * H
    assert await plays.prune_plays(2 * H + 1) == 2  # p1 and p3 ended by then
    assert [p.id for p in await plays.plays(None, None, None, 100)] == ["p2", "p4"]
    await plays.put_plays([])


async def test_a_database_that_cannot_be_reached_fails_as_the_store_does(
    tmp_path: Path,
) -> None:
    threads_before = set(threading.enumerate())
    engine = create_async_engine(f"sqlite+aiosqlite:///{tmp_path / 'missing' / 'x.db'}")
    plays = PlayRecords(engine)
    try:
        with pytest.raises(StoreFailed, match="play log cannot be written"):
            await plays.put_plays([play(1, 1, 0, None)])
        with pytest.raises(StoreFailed, match="play log cannot be read"):
            await plays.open_plays()
    finally:
        await engine.dispose()
        # aiosqlite stops the thread of a connection that failed to open without waiting
        # for it; it answers on this test's loop, so it must end while the loop runs
        deadline = time.monotonic() + 5
        for thread in set(threading.enumerate()) - threads_before:
            while thread.is_alive() and time.monotonic() < deadline:
                await asyncio.sleep(0.01)
