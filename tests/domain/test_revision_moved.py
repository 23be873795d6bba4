"""Waiting for the host's revision to move (what the console's event streams wait on):
at once when it has moved, when a change is installed or a receiver comes, and a waiter
that gives up leaves the others waiting."""

import asyncio

from tests.support.domain import WEB, web
from tilewall.host.host import Host


async def test_at_once_when_the_revision_already_moved(host: Host) -> None:
    before = host.core.revision
    await host.sources.create("Lobby page", WEB, web())
    assert await asyncio.wait_for(host.core.revision_moved(before), 1) == host.core.revision


async def test_a_change_wakes_every_waiter(host: Host) -> None:
    now = host.core.revision
    waiters = [asyncio.ensure_future(host.core.revision_moved(now)) for _ in range(3)]
    await asyncio.sleep(0.05)
    assert not any(w.done() for w in waiters), "nothing changed yet"
    waiters[0].cancel()  # one gives up: the others still wait, and are woken
    await asyncio.sleep(0)
    await host.sources.create("Lobby page", WEB, web())
    moved = await asyncio.wait_for(asyncio.gather(*waiters[1:]), 1)
    assert moved == [host.core.revision] * 2 and host.core.revision > now


async def test_an_announcement_without_a_stored_change_wakes_them(host: Host) -> None:
    now = host.core.revision
    waiter = asyncio.ensure_future(host.core.revision_moved(now))
    await asyncio.sleep(0)
    host.core.notify(None)  # as a receiver coming or going does
    assert await asyncio.wait_for(waiter, 1) == now + 1


async def test_a_change_of_the_group_of_hosts_wakes_them(host: Host) -> None:
    """A console shows its host's role and the active member of the group: a change of the
    group (as its coordination tells it) moves the revision like a change of state."""
    now = host.core.revision
    waiter = asyncio.ensure_future(host.core.revision_moved(now))
    await asyncio.sleep(0)
    host.hostgroup.changed()
    assert await asyncio.wait_for(waiter, 1) == now + 1
