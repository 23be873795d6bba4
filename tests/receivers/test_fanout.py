"""The fan-out over real WebSockets: a switch is one text for every receiver of a zone,
and every receiver still has its own description (its tile, its station, its key)."""

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import websockets

from tests.support.fakes import FakeHost, receiver_app
from tests.support.server import serve_asgi
from tilewall.host.memory import Event
from tilewall.host.model import (
    Geometry,
    MirrorGroup,
    Monitor,
    Param,
    Source,
    Station,
    Timeline,
    VideoWall,
    Zone,
)
from tilewall.host.render.description import RenderState
from tilewall.receivers import protocol as p
from tilewall.receivers.hub import Hub
from tilewall.receivers.ports import OpenStations
from tilewall.receivers.routes import receivers_first

HELLO = {
    "v": 1,
    "type": "hello",
    "screen": {"width": 1920, "height": 1080},
    "model": "Mozilla/5.0 test",
    "firmware": "receiver/1",
    "features": ["content"],
}
#: 3 rows of 4 monitors of 100x50; zone "big" is the first 10, zone "small" the last 2
COLUMNS, ROWS, BIG = 4, 3, 10


def playing(source: str) -> Timeline:
    return Timeline(source, "playing", anchor_ms=1_700_000_000_000, welcome=False)


def wall_host() -> FakeHost:
    host = FakeHost()
    state = host.state
    monitors = []
    for i in range(COLUMNS * ROWS):
        display = i + 1
        host.lock(f"w{display}", display)
        x, y = (i % COLUMNS) * 100 - 150, (i // COLUMNS) * 50 - 50
        monitors.append(Monitor(display, Geometry(100, 50, x, y)))
    state.walls["wall"] = VideoWall("wall", "Wall", Geometry(400, 150, 0, 0), monitors)
    for name in ("a", "b"):
        url = f"https://example.org/{name}"
        state.sources[name] = Source(name, name.upper(), "Web Browser", [Param("TEXT", "URL", url)])
    big, small = list(range(1, BIG + 1)), list(range(BIG + 1, COLUMNS * ROWS + 1))
    state.zones["big"] = Zone("big", "Big", "wall", big, timeline=playing("a"))
    state.zones["small"] = Zone("small", "Small", "wall", small, timeline=playing("a"))
    return host


class Receiver:
    """A receiver page as the test sees it: the raw texts it got, its merged state."""

    def __init__(self, ws: Any, seat: str) -> None:
        self.ws, self.seat = ws, seat
        self.texts: list[str] = []
        self.state: dict[str, Any] | None = None
        self.rev = 0

    async def next(self, timeout: float = 3.0) -> dict[str, Any]:
        """The next message that is not a ping, applied as the page applies it."""
        async with asyncio.timeout(timeout):
            while True:
                text = await self.ws.recv()
                message = json.loads(text)
                if message["type"] == "ping":
                    continue
                self.texts.append(text)
                if message["type"] in ("welcome", "state"):
                    self.state, self.rev = message["state"], message["rev"]
                elif message["type"] == "content":
                    assert self.state is not None
                    self.state, self.rev = (
                        {**self.state, "content": message["content"]},
                        message["rev"],
                    )
                return message

    async def nothing_new(self) -> None:
        """Nothing was pushed: the answer to a clock request is the next message."""
        await self.ws.send(json.dumps({"v": 1, "type": "time", "t0": 42}))
        message = await self.next()
        assert message["type"] == "time", message


@contextlib.asynccontextmanager
async def hub_for(host: FakeHost, stations: Any = None) -> AsyncIterator[tuple[Hub, str]]:
    """The hub served as ``tilewall serve`` serves it: in front of the app."""
    hub = Hub(host, stations=stations or OpenStations())
    await hub.start()
    try:
        async with serve_asgi(receivers_first(receiver_app(hub), hub)) as port:
            yield hub, f"ws://127.0.0.1:{port}/receiver/ws"
    finally:
        await hub.stop()


async def connect(
    stack: contextlib.AsyncExitStack, url: str, seat: str, **hello: Any
) -> tuple[Receiver, dict[str, Any]]:
    ws = await stack.enter_async_context(websockets.connect(url))
    receiver = Receiver(ws, seat)
    await ws.send(json.dumps({**HELLO, "seatId": seat, **hello}))
    while (message := await receiver.next())["type"] != "welcome":
        pass
    return receiver, message


def switch(host: FakeHost, zone: str, source: str) -> None:
    host.state.zones[zone].timeline = playing(source)
    host.publish(Event(frozenset(host.state.zones[zone].display_ids)))


def as_described(hub: Hub, seat: str) -> dict[str, Any]:
    described: dict[str, Any] = json.loads(msgspec.json.encode(hub.describe(seat)))
    return described


async def test_a_zone_is_sent_one_text_and_every_tile_keeps_its_own() -> None:
    host = wall_host()
    async with hub_for(host) as (hub, url), contextlib.AsyncExitStack() as stack:
        big = [(await connect(stack, url, f"w{d}"))[0] for d in range(1, BIG)]
        # a page of before ``content``: it is told its whole state
        old, _ = await connect(stack, url, f"w{BIG}", features=[])
        small = [(await connect(stack, url, f"w{d}"))[0] for d in (BIG + 1, BIG + 2)]
        for receiver in [*big, old]:
            assert receiver.state is not None and receiver.state["role"] == "tile"

        switch(host, "big", "b")
        told = [await receiver.next() for receiver in big]
        assert {m["type"] for m in told} == {"content"}
        assert len({r.texts[-1] for r in big}) == 1, "one text for the whole zone"
        assert len({m["rev"] for m in told}) == 1
        assert told[0]["content"]["source"]["sourceId"] == "b"
        # each still has its own description: its tile, its display
        crops = set()
        for receiver in big:
            assert receiver.state == as_described(hub, receiver.seat)
            assert hub.rev(receiver.seat) == receiver.rev
            crops.add(json.dumps(receiver.state["tile"]["crop"]))
        assert len(crops) == len(big)
        whole = await old.next()
        assert whole["type"] == "state" and whole["rev"] == told[0]["rev"]
        assert whole["state"] == as_described(hub, old.seat)
        assert whole["state"]["role"] == "tile"
        # the other zone is not told
        for receiver in small:
            await receiver.nothing_new()
            assert receiver.state is not None
            assert receiver.state["content"]["source"]["sourceId"] == "a"

        # the same switch again changes nothing: nothing is sent
        switch(host, "big", "b")
        await big[0].nothing_new()
        # acknowledged revisions are each receiver's
        for receiver in big:
            await receiver.ws.send(json.dumps({"v": 1, "type": "ack", "rev": receiver.rev}))
        await big[-1].nothing_new()
        assert hub.acked_rev(big[0].seat) == hub.rev(big[0].seat)


async def test_what_is_a_seats_own_is_still_told_to_it_alone() -> None:
    host = wall_host()
    async with hub_for(host) as (_hub, url), contextlib.AsyncExitStack() as stack:
        first, _ = await connect(stack, url, "w1")
        second, _ = await connect(stack, url, "w2")
        # unlocked: its whole state, the pairing screen; its neighbour is told nothing
        host.state.stations["w1"].locked = False
        host.publish(Event(frozenset({1}), topology=True))
        unlocked = await first.next()
        assert unlocked["type"] == "state" and unlocked["state"]["role"] == "pairing"
        await second.nothing_new()
        # a switch now: the pairing screen is not told, the tile is told its content
        switch(host, "big", "b")
        told = await second.next()
        assert told["type"] == "content"
        await first.nothing_new()
        # locked again: its whole state, with the zone's new content
        host.state.stations["w1"].locked = True
        host.publish(Event(frozenset({1}), topology=True))
        relocked = await first.next()
        assert relocked["type"] == "state" and relocked["state"]["role"] == "tile"
        assert relocked["state"]["content"]["source"]["sourceId"] == "b"
        # a new station is not on the wall: told its own pairing screen
        host.state.stations["new"] = Station("new", name="New")
        _newcomer, welcome = await connect(stack, url, "new")
        assert welcome["state"]["role"] == "pairing"
        assert welcome["state"]["pairing"]["seatId"] == "new"


class KeyedStations(OpenStations):
    """Station w1 is bound to a key; w2 has a key waiting to be handed."""

    KEY = "k" * 43

    def __init__(self) -> None:
        self.waiting: dict[str, str | None] = {"w2": "n" * 43}

    async def admit(self, seat_id: str, key: str | None) -> bool:
        return seat_id != "w1" or key == self.KEY

    def take_key(self, seat_id: str, confirmed: bool = False) -> tuple[bool, str | None]:
        if seat_id in self.waiting:
            return True, self.waiting.pop(seat_id)
        return False, None


async def test_impostors_keys_and_groups_with_the_shared_texts() -> None:
    host = wall_host()
    host.group_members = (["http://10.0.0.11:9000", "http://10.0.0.12:9000"], None)
    async with hub_for(host, KeyedStations()) as (hub, url), contextlib.AsyncExitStack() as stack:
        # the impostor: the pairing screen, and nothing after it
        impostor, refused = await connect(stack, url, "w1")
        assert refused["refused"] and refused["state"]["role"] == "pairing"
        real, _ = await connect(stack, url, "w1", key=KeyedStations.KEY)
        # the key is handed before the welcome
        keyed = Receiver(await stack.enter_async_context(websockets.connect(url)), "w2")
        await keyed.ws.send(json.dumps({**HELLO, "seatId": "w2"}))
        assert (await keyed.next())["type"] == "key"
        assert (await keyed.next())["type"] == "welcome"
        for receiver in (real, keyed):
            assert (await receiver.next())["type"] == "group"

        switch(host, "big", "b")
        assert (await real.next())["type"] == "content"
        assert (await keyed.next())["type"] == "content"
        assert real.texts[-1] == keyed.texts[-1]
        await impostor.nothing_new()
        assert impostor.state is not None and impostor.state["role"] == "pairing"

        # the group changed: every receiver that said hello is told, with one text
        host.group_members = (["http://10.0.0.11:9000"], "http://10.0.0.11:9000")
        await hub.hostgroup_changed()
        told = [await real.next(), await keyed.next()]
        assert [m["type"] for m in told] == ["group", "group"]
        assert told[0]["active"] == "http://10.0.0.11:9000"
        assert real.texts[-1] == keyed.texts[-1]


async def test_the_content_message_decodes_and_applies() -> None:
    """``content`` as the in-process receivers decode it: the last state with its content
    replaced."""
    host = wall_host()
    async with hub_for(host) as (hub, url), contextlib.AsyncExitStack() as stack:
        receiver, _ = await connect(stack, url, "w3")
        switch(host, "big", "b")
        await receiver.next()
        message = p.host_decoder.decode(receiver.texts[-1])
        assert isinstance(message, p.ContentUpdate)
        assert message.content is not None and message.content.source is not None
        assert message.content.source.source_id == "b"
        assert msgspec.convert(receiver.state, RenderState) == hub.describe("w3")


async def test_a_mirror_group_is_sent_one_text_and_a_standalone_display_its_own() -> None:
    host = FakeHost()
    for name in ("a", "b"):
        url = f"https://example.org/{name}"
        host.state.sources[name] = Source(
            name, name.upper(), "Web Browser", [Param("TEXT", "URL", url)]
        )
    for display in (1, 2, 3):
        host.lock(f"m{display}", display)
    host.state.mirrors["pair"] = MirrorGroup("pair", "Pair", [1, 2], timeline=playing("a"))
    host.state.displays[3].timeline = playing("a")
    async with hub_for(host) as (_hub, url), contextlib.AsyncExitStack() as stack:
        pair = [(await connect(stack, url, f"m{d}"))[0] for d in (1, 2)]
        alone, _ = await connect(stack, url, "m3")
        host.state.mirrors["pair"].timeline = playing("b")
        host.publish(Event(frozenset({1, 2})))
        told = [await receiver.next() for receiver in pair]
        assert [m["type"] for m in told] == ["content", "content"]
        assert pair[0].texts[-1] == pair[1].texts[-1]
        assert all(r.state is not None and r.state["role"] == "mirror" for r in pair)
        await alone.nothing_new()
        host.state.displays[3].timeline = playing("b")
        host.publish(Event(frozenset({3})))
        own = await alone.next()
        assert own["type"] == "content" and own["content"]["source"]["sourceId"] == "b"
        assert alone.state is not None and alone.state["role"] == "standalone"
