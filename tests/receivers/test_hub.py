"""The hub over real WebSocket connections, against a fake host."""

import asyncio
import contextlib
import json
import logging
from typing import Any

import websockets

from tests.support.fakes import FakeHost, serve
from tilewall.host.memory import Event
from tilewall.host.model import Source, Timeline
from tilewall.receivers.session import Limits

HELLO = {
    "v": 1,
    "type": "hello",
    "seatId": "seat-a",
    "screen": {"width": 1920, "height": 1080},
    "resolutions": [{"width": 1920, "height": 1080}],
    "model": "Mozilla/5.0 test",
    "firmware": "receiver/1",
}


async def recv(ws: Any, type_: str, timeout: float = 3.0) -> dict[str, Any]:
    """The next message of ``type_``, skipping pings."""
    async with asyncio.timeout(timeout):
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == type_:
                return message


async def hello(ws: Any, seat: str = "seat-a") -> dict[str, Any]:
    await ws.send(json.dumps({**HELLO, "seatId": seat}))
    return await recv(ws, "welcome")


async def test_hello_gets_pairing_state_and_goes_online() -> None:
    host = FakeHost()
    async with (
        serve(host) as (hub, port),
        websockets.connect(f"ws://127.0.0.1:{port}/receiver/ws") as ws,
    ):
        welcome = await hello(ws)
        assert welcome["v"] == 1
        assert welcome["seatId"] == "seat-a"
        assert welcome["rev"] >= 1
        state = welcome["state"]
        assert state["role"] == "pairing"
        assert state["pairing"]["hostName"] == "wallhost"
        assert state["pairing"]["hostAddress"] == "192.0.2.10"
        assert host.hellos == [("seat-a", "127.0.0.1", "Mozilla/5.0 test")]
        assert host.online == {"seat-a": True}
        assert hub.online("seat-a")
        await ws.close()
        async with asyncio.timeout(3):
            while host.online["seat-a"]:
                await asyncio.sleep(0.01)
        assert not hub.online("seat-a")


async def test_state_pushed_on_change_only() -> None:
    host = FakeHost()
    host.state.sources["web"] = Source("web", "Web", "Web Browser", [])
    async with (
        serve(host) as (hub, port),
        websockets.connect(f"ws://127.0.0.1:{port}/receiver/ws") as ws,
    ):
        welcome = await hello(ws)
        display = host.lock("seat-a", 7)
        update = await recv(ws, "state")
        assert update["rev"] > welcome["rev"]
        assert update["state"]["role"] == "standalone"
        assert update["state"]["displayId"] == 7
        await ws.send(json.dumps({"v": 1, "type": "ack", "rev": update["rev"]}))

        host.publish(Event(None))  # nothing changed: nothing is pushed
        display.timeline = Timeline("web", "playing", welcome=False)
        host.publish(Event(frozenset({7})))
        update2 = await recv(ws, "state")
        assert update2["rev"] > update["rev"]
        assert update2["state"]["content"]["source"]["type"] == "web"
        assert hub.acked_rev("seat-a") == update["rev"]


async def test_clock_sync_reply() -> None:
    """Host time to a fraction of a millisecond: whole milliseconds would set each
    receiver's clock up to 1 ms off its own way."""
    host = FakeHost()
    host.clock.exact_ms = lambda: 1_700_000_000_123.375  # type: ignore[method-assign]
    async with (
        serve(host) as (_hub, port),
        websockets.connect(f"ws://127.0.0.1:{port}/receiver/ws") as ws,
    ):
        await hello(ws)
        await ws.send(json.dumps({"v": 1, "type": "time", "t0": 1234.5}))
        reply = await recv(ws, "time")
        assert reply == {
            "type": "time",
            "t0": 1234.5,
            "t1": 1_700_000_000_123.375,
            "t2": 1_700_000_000_123.375,
            "v": 1,
        }


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


async def test_malformed_and_hostile_messages_dropped() -> None:
    host = FakeHost()
    records = Records()
    logging.getLogger("tilewall.receivers").addHandler(records)
    async with serve(host) as (hub, port):
        async with websockets.connect(f"ws://127.0.0.1:{port}/receiver/ws", max_size=None) as ws:
            await ws.send(json.dumps({"v": 1, "type": "time", "t0": 1}))  # before hello
            await hello(ws)
            bad = [
                "not json",
                "[]",
                "null",
                json.dumps({"v": 1, "type": "explode"}),
                json.dumps({"v": 2, "type": "time", "t0": 1}),
                json.dumps({"v": 1, "type": "time", "t0": "soon"}),
                json.dumps({"v": 1, "type": "ack", "rev": -1}),
                json.dumps({**HELLO, "seatId": "../../etc"}),
                json.dumps({**HELLO, "seatId": "other"}),  # a second identity
                json.dumps({"v": 1, "type": "status", "rev": 1, "showing": "x" * 10_000}),
                "{" * 100_000,
                "x" * 1_000_000,
            ]
            for frame in bad:
                await ws.send(frame)
            await ws.send(b"\x00\x01binary")
            await ws.send(json.dumps({"v": 1, "type": "time", "t0": 5}))
            reply = await recv(ws, "time")
            assert reply["t0"] == 5
            assert hub.online_seats() == {"seat-a"}
        logging.getLogger("tilewall.receivers").removeHandler(records)
        dropped = [r for r in records.records if "dropped" in r.getMessage()]
        assert len(dropped) == len(bad) + 2  # + before-hello + binary
        assert all(len(r.getMessage()) < 300 for r in dropped)


async def test_flood_is_limited_and_others_are_served() -> None:
    host = FakeHost()
    limits = Limits(rate_per_s=50, burst=50, flood_close_after=500)
    async with serve(host, limits) as (hub, port):
        url = f"ws://127.0.0.1:{port}/receiver/ws"
        async with websockets.connect(url) as flooder, websockets.connect(url) as calm:
            await hello(flooder, "flooder")
            await hello(calm, "calm")
            frame = json.dumps({"v": 1, "type": "time", "t0": 1})
            with contextlib.suppress(websockets.ConnectionClosed):
                for _ in range(5000):
                    await flooder.send(frame)
            await asyncio.wait_for(flooder.wait_closed(), 3)
            # closed as a policy violation, not as a normal close by the route
            assert flooder.close_code == 1008
            await calm.send(json.dumps({"v": 1, "type": "time", "t0": 9}))
            assert (await recv(calm, "time"))["t0"] == 9
            assert hub.online_seats() == {"calm"}


async def test_silent_receiver_goes_offline() -> None:
    host = FakeHost()
    limits = Limits(ping_interval_s=0.1, offline_after_s=0.5)
    async with serve(host, limits) as (hub, port):
        url = f"ws://127.0.0.1:{port}/receiver/ws"
        async with websockets.connect(url) as ws:
            await hello(ws)
            ping = await recv(ws, "ping")
            await ws.send(json.dumps({"v": 1, "type": "pong", "id": ping["id"]}))
            assert hub.online("seat-a")
            # stop answering: the hub closes the connection within a few pings
            async with asyncio.timeout(3):
                await ws.wait_closed()
            assert ws.close_code == 4001
        assert host.online["seat-a"] is False
        assert not hub.online("seat-a")


async def test_answering_receiver_stays_online() -> None:
    host = FakeHost()
    limits = Limits(ping_interval_s=0.1, offline_after_s=0.5)
    async with (
        serve(host, limits) as (hub, port),
        websockets.connect(f"ws://127.0.0.1:{port}/receiver/ws") as ws,
    ):
        await hello(ws)
        loop = asyncio.get_running_loop()
        end = loop.time() + 1.2
        while loop.time() < end:
            ping = await recv(ws, "ping")
            await ws.send(json.dumps({"v": 1, "type": "pong", "id": ping["id"]}))
        assert hub.online("seat-a")


async def test_reconnect_replaces_older_connection() -> None:
    host = FakeHost()
    async with serve(host) as (hub, port):
        url = f"ws://127.0.0.1:{port}/receiver/ws"
        async with websockets.connect(url) as old, websockets.connect(url) as new:
            first = await hello(old)
            second = await hello(new)
            assert second["rev"] == first["rev"]  # same description, same revision
            async with asyncio.timeout(3):
                await old.wait_closed()
            assert old.close_code == 4000
            assert hub.online("seat-a")
            assert host.online["seat-a"] is True


async def test_a_burst_is_answered_in_full_while_the_excess_is_dropped() -> None:
    """The replies to a permitted burst are queued before the writer gets to run (the
    route reads on while frames are waiting); the queue must hold them all."""
    host = FakeHost()
    async with serve(host) as (hub, port):
        url = f"ws://127.0.0.1:{port}/receiver/ws"
        async with websockets.connect(url) as ws:
            await hello(ws)
            for n in range(400):
                await ws.send(json.dumps({"v": 1, "type": "time", "t0": n}))
            answered = []
            with contextlib.suppress(TimeoutError):
                while True:
                    answered.append((await recv(ws, "time", timeout=0.5))["t0"])
            assert len(answered) >= hub.limits.burst - 1, len(answered)
            assert hub.online("seat-a"), "a reading receiver is not closed for its burst"


async def test_a_receiver_whose_hello_waits_for_the_host_is_not_silent() -> None:
    """The host records hellos one change at a time: a thousand receivers connecting at
    once wait their turn, longer than a silent receiver is given."""

    class SlowHost(FakeHost):
        async def station_hello(self, *args: Any) -> None:
            await asyncio.sleep(0.8)
            await super().station_hello(*args)

    limits = Limits(ping_interval_s=0.05, offline_after_s=0.3)
    async with (
        serve(SlowHost(), limits) as (hub, port),
        websockets.connect(f"ws://127.0.0.1:{port}/receiver/ws") as ws,
    ):
        welcome = await hello(ws)
        assert welcome["seatId"] == "seat-a" and hub.online("seat-a")


async def test_a_standby_holds_a_hello_while_the_active_host_is_late() -> None:
    """A standby whose active member is late renewing its lease (it may have stalled)
    holds a receiver's hello: no close sending it back to the stalled host. Once the
    lease is renewed after all, it lets the receiver go to the active member; once this
    member takes over, it welcomes the receiver at once."""
    host = FakeHost()
    host.is_serving = False
    host.group_members = (["http://a:9000", "http://b:9000"], "http://a:9000")
    host.active_late_s = 10.0
    url = "ws://127.0.0.1:{}/receiver/ws"
    async with serve(host) as (_hub, port):
        async with websockets.connect(url.format(port)) as ws:
            await ws.send(json.dumps(HELLO))
            await _told_nothing(ws, 0.5)
            host.active_late_s = None  # the active member renewed its lease after all
            told = await recv(ws, "group")
            assert told["active"] == "http://a:9000"
            with contextlib.suppress(websockets.ConnectionClosed):
                async with asyncio.timeout(3):
                    await ws.recv()
            assert ws.close_code == 4002

        host.active_late_s = 10.0
        async with websockets.connect(url.format(port)) as ws:
            await ws.send(json.dumps(HELLO))
            await _told_nothing(ws, 0.5)
            host.is_serving = True  # this member took over
            welcome = await recv(ws, "welcome")
            assert welcome["seatId"] == "seat-a"


async def _told_nothing(ws: Any, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            message = await ws.recv()
            raise AssertionError(f"told {message!r} while the active host is late")
