"""Batched commits on PostgreSQL: the changes of one batch are one fenced transaction (one
revision, one entry of the log of writes, one announcement); a batch of a member that
lost the active role is refused whole, with memory as committed; a standby follows
batches written by many clients at once."""

import asyncio
import threading
from pathlib import Path

import httpx
import pytest

from tests.support.cluster import Cluster, wait_for, web_source
from tests.support.pgserver import PostgresServer
from tests.support.writes import check_fenced, write_log
from tilewall.host.clock import ManualClock
from tilewall.host.errors import NotActive
from tilewall.host.state import Core
from tilewall.store import PostgresStore, open_store
from tilewall.store.hostgroup_link import Link
from tilewall.store.hostgroup_sql import CHANGES
from tilewall.store.postgres import Fence


async def _put(core: Core, name: str, value: int) -> None:
    async with core.change() as tx:
        tx.put_setting(name, value)


async def _heard(heard: list[str], count: int) -> None:
    for _ in range(100):
        if len(heard) >= count:
            break
        await asyncio.sleep(0.02)


async def test_a_batch_is_one_fenced_transaction(postgres_url: str, tmp_path: Path) -> None:
    store = await open_store(tmp_path / "member", postgres_url)
    assert isinstance(store, PostgresStore)
    fence = store.fence = Fence("a", lambda: NotActive("a is not active"))
    link, rival, listener = (
        await Link.open(postgres_url, "a"),
        await Link.open(postgres_url, "b"),
        await Link.open(postgres_url, "listener"),
    )
    heard: list[str] = []
    await listener.listen(CHANGES, lambda *args: heard.append(args[3]))
    core = Core(store, ManualClock())
    try:
        fence.generation = await link.take_over()
        # changes made together: one batch
        await asyncio.gather(*(_put(core, f"s{n}", n) for n in range(20)))
        assert store.revision == 1
        log = await store.log_since(0)
        assert log == [(1, [["setting", f"s{n}"] for n in range(20)])]
        await _heard(heard, 1)
        assert len(heard) == 1 and '"r":1' in heard[0]

        # another member takes over: the next batch is refused whole
        await rival.take_over()
        results = await asyncio.gather(
            *(_put(core, f"lost{n}", n) for n in range(5)), return_exceptions=True
        )
        assert all(isinstance(r, NotActive) for r in results), results
        assert not any(name.startswith("lost") for name in core.state.settings)
        assert await store.log_since(1) == []
        snapshot = await store.snapshot()
        assert snapshot.revision == 1
        assert sorted(snapshot.documents["setting"]) == sorted(f"s{n}" for n in range(20))
        await asyncio.sleep(0.1)
        assert len(heard) == 1
    finally:
        for opened in (link, rival, listener):
            opened.close()
        await store.close()


@pytest.mark.timeout(180)
def test_a_standby_follows_batches_of_many_clients(
    cluster: Cluster, postgres_server: PostgresServer, postgres_url: str
) -> None:
    active, standby = cluster.start("active", "standby")
    standby.api  # logged in first: a login on a standby is a (forwarded) write  # noqa: B018
    token = active.api.cookies["JSESSIONID"]
    writers, each = 16, 8
    acked: list[tuple[str, int]] = []
    lock = threading.Lock()

    def writer(n: int) -> None:
        with httpx.Client(base_url=active.base, timeout=15) as client:
            client.cookies.set("JSESSIONID", token)
            for i in range(each):
                answer = client.post("/sources", json=web_source(f"batched {n:02d}-{i}"))
                assert answer.status_code == 200, answer.text
                revision = int(answer.headers.get("x-tilewall-revision", "0"))
                with lock:
                    acked.append((answer.json()["sourceId"], revision))

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert len(acked) == writers * each

    log = write_log(postgres_server, postgres_url)
    check_fenced(log)
    revision_of: dict[str, int] = {}
    for row in log:
        for kind, key in row["changed"]:
            if kind == "source":
                revision_of[key] = row["revision"]
    # each answer came after the revision that wrote it; several writes shared a revision
    assert all(revision_of[source] <= revision for source, revision in acked)
    assert len({revision_of[source] for source, _ in acked}) < len(acked)

    expected = active.source_names()
    assert len(expected) == writers * each
    wait_for(lambda: standby.source_names() == expected, timeout=10)
