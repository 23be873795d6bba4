"""The real app's ``/receiver/ws`` under hostile and heavy use, over raw WebSockets: bad
frames are dropped, floods are cut off, nothing crashes, honest receivers keep working,
and one host holds a crowd of receivers at once."""

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.support.server import InProcessServer, running

pytestmark = pytest.mark.browser  # a live server and many sockets: with the slow tests

CROWD = 200


class Errors(logging.Handler):
    """Collects every error the host logs (an exception in a handler, a crash)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[InProcessServer]:
    errors = Errors()
    loggers = [logging.getLogger(name) for name in ("", "uvicorn", "uvicorn.error")]
    for logger in loggers:
        logger.addHandler(errors)
    try:
        for live in running(tmp_path_factory, "hostile", in_process=True):
            assert isinstance(live, InProcessServer)
            live.errors = errors  # type: ignore[attr-defined]
            yield live
    finally:
        for logger in loggers:
            logger.removeHandler(errors)
    assert not errors.records, [r.getMessage() for r in errors.records]


def hello(seat: str, **extra: Any) -> str:
    message = {
        "v": 1,
        "type": "hello",
        "seatId": seat,
        "screen": {"width": 1920, "height": 1080},
        "model": "test",
        "firmware": "raw/1",
        **extra,
    }
    return json.dumps(message)


async def expect(ws: ClientConnection, kind: str, timeout: float = 5.0) -> dict[str, Any]:
    """The next message of type ``kind``, answering pings on the way."""
    deadline = time.monotonic() + timeout
    while True:
        raw = await asyncio.wait_for(ws.recv(), max(deadline - time.monotonic(), 0.01))
        message = json.loads(raw)
        if message["type"] == kind:
            return message
        if message["type"] == "ping":
            await ws.send(json.dumps({"v": 1, "type": "pong", "id": message["id"]}))


async def close_code(ws: ClientConnection, timeout: float) -> int | None:
    """Read until the host closes the connection; its close code."""
    with contextlib.suppress(ConnectionClosed):
        async with asyncio.timeout(timeout):
            while True:
                await ws.recv()
    return ws.close_code


async def time_reply(ws: ClientConnection) -> dict[str, Any]:
    await ws.send(json.dumps({"v": 1, "type": "time", "t0": 1.5}))
    return await expect(ws, "time")


GARBAGE: list[str | bytes] = [
    "",
    "{",
    "not json at all",
    "null",
    "[]",
    '"hello"',
    "42",
    "{}",
    '{"type": "hello"}',
    '{"v": 2, "type": "time", "t0": 1}',
    '{"v": "1", "type": "time", "t0": 1}',
    '{"v": 1, "type": "explode"}',
    '{"v": 1, "type": "time", "t0": "soon"}',
    '{"v": 1, "type": "time", "t0": 1e400}',
    '{"v": 1, "type": "time", "t0": NaN}',
    '{"v": 1, "type": "status", "rev": 1, "showing": "x"}',  # before hello
    "[" * 5000 + "]" * 5000,
    '{"a":' * 3000 + "1" + "}" * 3000,
    json.dumps({"v": 1, "type": "time", "t0": 1, "pad": "x" * 20_000}),  # > 16 KiB
    b"\x00\xff\xfe binary",
    bytes(range(256)) * 10,
    hello("../../etc/passwd"),
    hello("seat with spaces"),
    hello("x" * 65),
    hello("Ωmega"),
    hello(""),
    hello("ok-seat", screen={"width": 0, "height": 1080}),
    hello("ok-seat", screen={"width": 99999, "height": 1080}),
    hello("ok-seat", screen="big"),
    hello("ok-seat", model="m" * 300),
    hello("ok-seat", resolutions=[{"width": 1, "height": 1}] * 65),
    hello("ok-seat", rev=-1),
    '{"v": 1, "type": "hello", "seatId": null, "screen": {"width": 1, "height": 1}}',
]


async def test_hostile_frames_are_dropped_and_the_host_keeps_serving(host: InProcessServer) -> None:
    uri = f"ws://127.0.0.1:{host.port}/receiver/ws"
    hub = host.hub

    # connections that never say hello: closed as silent after about 4 s
    idle = [await connect(uri) for _ in range(20)]
    idle_codes = [asyncio.create_task(close_code(ws, 10)) for ws in idle]

    async with connect(uri) as ws:
        for frame in GARBAGE:
            await ws.send(frame)
        # every one of them was dropped, none closed the connection: hello still works
        await ws.send(hello("tough-1"))
        welcome = await expect(ws, "welcome")
        assert welcome["seatId"] == "tough-1"
        assert welcome["state"]["role"] == "pairing"
        # after hello: a second identity, bad fields, wrong types are dropped as well
        after_hello: list[str | bytes] = [
            hello("someone-else"),
            '{"v": 1, "type": "ack", "rev": -5}',
            '{"v": 1, "type": "ack", "rev": 1e30}',
            '{"v": 1, "type": "pong", "id": "x"}',
            json.dumps({"v": 1, "type": "status", "rev": 1, "showing": "s" * 300}),
            '{"v": 1, "type": "status", "rev": 1, "showing": "signage", "playing": "yes"}',
            b"\x01\x02",
        ]
        for frame in after_hello:
            await ws.send(frame)
        reply = await time_reply(ws)
        assert reply["t0"] == 1.5 and reply["t1"] <= reply["t2"]
        assert hub.online("tough-1") and not hub.online("someone-else")

    # a frame above the server's WebSocket limit (1 MiB) ends only that connection
    async with connect(uri, max_size=None) as big:
        await big.send(hello("big-1"))
        await expect(big, "welcome")
        with contextlib.suppress(ConnectionClosed):
            await big.send("x" * (2 * 1024 * 1024))
        assert await close_code(big, 5) == 1009

    # a flood from a receiver that reads what it is sent: its burst is answered, then
    # its messages are dropped, and when it goes on it is closed as a policy violation
    async with connect(uri) as flood:
        await flood.send(hello("flood-1"))
        await expect(flood, "welcome")
        answered = 0

        async def read() -> None:
            nonlocal answered
            with contextlib.suppress(ConnectionClosed):
                async for raw in flood:
                    answered += json.loads(raw)["type"] == "time"

        reader = asyncio.create_task(read())
        started = time.monotonic()
        message = json.dumps({"v": 1, "type": "time", "t0": 1})
        with contextlib.suppress(ConnectionClosed):
            for n in range(3000):
                await flood.send(message)
                if n % 50 == 0:
                    await asyncio.sleep(0)  # let the reader read
        await asyncio.wait_for(reader, 5)
        elapsed = time.monotonic() - started
        assert flood.close_code == 1008, flood.close_code
        assert 80 <= answered <= 80 + 40 * elapsed + 5, (answered, elapsed)
        print(f"\nflood of 3000 messages: {answered} answered in {elapsed:.1f} s, then closed 1008")

    codes = await asyncio.gather(*idle_codes)
    assert codes == [4001] * len(idle), codes

    # nothing of that became a station; the host still serves the interface
    seats = {d["seatId"] for d in (await asyncio.to_thread(host.ok, "GET", "/network"))["network"]}
    assert seats >= {"tough-1", "big-1", "flood-1"}
    assert "ok-seat" not in seats and "someone-else" not in seats
    assert not any("/" in s or " " in s for s in seats), seats
    assert host.alive

    # an honest receiver after all that: hello, lock, and its display arrives
    async with connect(uri) as calm:
        await calm.send(hello("calm-1"))
        assert (await expect(calm, "welcome"))["state"]["role"] == "pairing"
        locked = await asyncio.to_thread(host.ok, "PUT", "/network/calm-1/lock")
        state = await expect(calm, "state")
        assert state["state"]["role"] == "standalone"
        assert state["state"]["displayId"] == locked["displayId"]
        assert (await time_reply(calm))["t0"] == 1.5
    await asyncio.sleep(0.3)
    assert hub.online_seats() == set(), hub.online_seats()
    assert len(hub._sessions) == 0, "every session was closed and forgotten"


class Member:
    """One raw receiver of the crowd: says hello, answers pings, keeps what it is sent."""

    def __init__(self, uri: str, seat: str) -> None:
        self.uri = uri
        self.seat = seat
        self.ws: ClientConnection | None = None
        self.welcomed = asyncio.Event()
        self.states: list[dict[str, Any]] = []
        self.task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        async with connect(self.uri) as ws:
            self.ws = ws
            await ws.send(hello(self.seat))
            with contextlib.suppress(ConnectionClosed):
                async for raw in ws:
                    message = json.loads(raw)
                    if message["type"] == "welcome":
                        self.welcomed.set()
                    elif message["type"] == "state":
                        self.states.append(message["state"])
                    elif message["type"] == "ping":
                        await ws.send(json.dumps({"v": 1, "type": "pong", "id": message["id"]}))


async def test_one_host_holds_a_crowd_of_receivers(host: InProcessServer) -> None:
    uri = f"ws://127.0.0.1:{host.port}/receiver/ws"
    crowd = [Member(uri, f"crowd-{n:03d}") for n in range(CROWD)]
    started = time.monotonic()
    for member in crowd:
        member.task = asyncio.create_task(member.run())
    try:
        async with asyncio.timeout(40):
            await asyncio.gather(*(m.welcomed.wait() for m in crowd))
        connected_s = time.monotonic() - started

        def online() -> int:
            network = host.ok("GET", "/network")["network"]
            return sum(1 for d in network if d["seatId"].startswith("crowd-") and d["isOnline"])

        assert await asyncio.to_thread(online) == CROWD
        # and still there a few liveness periods later: every one answers its pings
        await asyncio.sleep(4.5)
        assert await asyncio.to_thread(online) == CROWD
        assert len(host.hub.online_seats() & {m.seat for m in crowd}) == CROWD
        # pushes still reach one receiver among them
        target = crowd[CROWD // 2]
        locked = await asyncio.to_thread(host.ok, "PUT", f"/network/{target.seat}/lock")
        async with asyncio.timeout(5):
            while not any(s.get("displayId") == locked["displayId"] for s in target.states):
                await asyncio.sleep(0.05)
        print(
            f"\n{CROWD} receivers online on one host ({connected_s:.1f} s to connect all);"
            " all answered pings for 4.5 s"
        )
    finally:
        for member in crowd:
            if member.ws is not None:
                await member.ws.close()
        await asyncio.gather(*(m.task for m in crowd if m.task), return_exceptions=True)

    def still_online() -> int:
        network = host.ok("GET", "/network")["network"]
        return sum(1 for d in network if d["seatId"].startswith("crowd-") and d["isOnline"])

    deadline = time.monotonic() + 6
    while await asyncio.to_thread(still_online) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    assert await asyncio.to_thread(still_online) == 0
