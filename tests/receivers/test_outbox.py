"""Writing to one connection: at once while the socket takes it, in order always."""

import asyncio

from tilewall.receivers.outbox import Outbox


class Link:
    """Sends complete at once while ``open`` is set, else wait for it."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.open = asyncio.Event()
        self.open.set()
        self.fail: Exception | None = None

    async def send_text(self, text: str) -> None:
        await self.open.wait()
        if self.fail is not None:
            raise self.fail
        self.sent.append(text)


async def test_written_at_once_while_the_socket_takes_it() -> None:
    link = Link()
    box = Outbox(link.send_text, limit=4)
    assert box.put("a") and box.put("b")
    assert link.sent == ["a", "b"]  # before anything was awaited
    assert box.writer is None


async def test_a_send_that_waits_keeps_the_order_and_then_writes_at_once_again() -> None:
    link = Link()
    box = Outbox(link.send_text, limit=4)
    link.open.clear()
    assert box.put("a")  # suspends: finished by a task
    assert box.put("b") and box.put("c")
    assert box.waiting == 2 and link.sent == []
    link.open.set()
    await box.drain(1.0)
    assert link.sent == ["a", "b", "c"]
    assert box.put("d") and link.sent[-1] == "d"


async def test_too_many_waiting_is_a_receiver_not_reading() -> None:
    link = Link()
    box = Outbox(link.send_text, limit=2)
    link.open.clear()
    assert box.put("a") and box.put("b") and box.put("c")
    assert not box.put("d")
    await box.stop()
    link.open.set()
    await asyncio.sleep(0.01)
    assert link.sent == []  # stopped: the suspended send and what waited are dropped


async def test_a_failed_send_is_told_once_and_nothing_more_is_sent() -> None:
    link = Link()
    box = Outbox(link.send_text, limit=4)
    errors: list[Exception] = []
    box.on_broken(errors.append)
    link.fail = ConnectionError("gone")
    assert box.put("a")
    assert [str(e) for e in errors] == ["gone"]
    link.fail = None
    box.put("b")
    await asyncio.sleep(0.01)
    assert link.sent == []
    # a send failing after it waited is told the same way
    link2 = Link()
    box2 = Outbox(link2.send_text, limit=4)
    box2.on_broken(errors.append)
    link2.open.clear()
    box2.put("x")
    link2.fail = ConnectionError("later")
    link2.open.set()
    await box2.drain(1.0)
    assert [str(e) for e in errors] == ["gone", "later"]


async def test_replies_are_written_by_a_task() -> None:
    link = Link()
    box = Outbox(link.send_text, limit=4)
    assert box.put("reply", now=False)
    assert box.put("push")  # behind the reply, in order
    assert link.sent == []
    await box.drain(1.0)
    assert link.sent == ["reply", "push"]
