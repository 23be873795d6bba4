"""Fencing, at the store: a member writes only while the generation it took over with is
the group's; every write is logged with its revision, generation and member; standbys
read what changed from the log."""

from pathlib import Path

import pytest

from tilewall.host.access.roles import Account
from tilewall.host.errors import NotActive
from tilewall.host.ports import Change
from tilewall.store import PostgresStore, open_store
from tilewall.store.hostgroup_link import Link
from tilewall.store.hostgroup_sql import OUTSIDE
from tilewall.store.postgres import Fence


async def _member(url: str, tmp_path: Path, name: str) -> tuple[PostgresStore, Fence, Link]:
    store = await open_store(tmp_path / name, url)
    assert isinstance(store, PostgresStore)
    fence = store.fence = Fence(name, lambda: NotActive(f"{name} is not active"))
    return store, fence, await Link.open(url, name)


async def test_only_the_member_of_the_current_generation_writes(
    postgres_url: str, tmp_path: Path
) -> None:
    a, fence_a, link_a = await _member(postgres_url, tmp_path, "a")
    b, fence_b, link_b = await _member(postgres_url, tmp_path, "b")
    try:
        # not active: refused before anything is written
        with pytest.raises(NotActive, match="a is not active"):
            await a.apply([Change("source", "s1", b'{"n": 1}')])
        fence_a.generation = await link_a.take_over()
        await a.apply([Change("source", "s1", b'{"n": 1}')])

        # b takes over behind a's back: a's next write matches no row and is refused
        fence_b.generation = await link_b.take_over()
        with pytest.raises(NotActive):
            await a.apply([Change("source", "s1", b'{"n": 2}')])
        with pytest.raises(NotActive):
            await a.put_session("token", "admin", False, 0)
        await b.apply([Change("source", "s2", b'{"n": 3}')])

        snapshot = await b.snapshot()
        assert snapshot.documents == {"source": {"s1": b'{"n": 1}', "s2": b'{"n": 3}'}}
        assert snapshot.sessions == []
        assert snapshot.revision == 2
        log = await b.log_since(0)
        assert log == [(1, [["source", "s1"]]), (2, [["source", "s2"]])]
        batch = await b.changed(2, {("source", "s1"), ("source", "gone"), ("~session", "t")})
        assert batch.documents == {("source", "s1"): b'{"n": 1}', ("source", "gone"): None}
        assert batch.sessions == {"t": None}
    finally:
        for link in (link_a, link_b):
            link.close()
        await a.close()
        await b.close()


async def test_a_store_outside_any_group_writes_logged_and_announced(
    postgres_url: str, tmp_path: Path
) -> None:
    store = await open_store(tmp_path / "tool", postgres_url)
    assert isinstance(store, PostgresStore)
    listener = await Link.open(postgres_url, "listener")
    heard: list[str] = []
    await listener.listen("tilewall_changes", lambda *args: heard.append(args[3]))
    try:
        await store.put_user("admin", Account("hash"))
        await store.apply([Change("setting", "x", b"1")])
        assert await store.log_since(0) == [(1, [["~user", "admin"]]), (2, [["setting", "x"]])]
        assert store.revision == 2
        import asyncio

        for _ in range(50):
            if len(heard) == 2:
                break
            await asyncio.sleep(0.02)
        assert [h for h in heard if f'"m":"{OUTSIDE}"' in h] == heard and len(heard) == 2
    finally:
        listener.close()
        await store.close()
