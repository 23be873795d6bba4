"""A station key on its way when the device goes (a page reloading, a power cut as it is
locked) is not lost: the host holds it until a connection of the seat says it kept it
(``keyStored``), and hands it to the seat's next connection without a key. Driven as a
receiver drives it: a host served by uvicorn, raw WebSocket connections to
``/receiver/ws``."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect

from tests.support.server import running

SCREEN = {"width": 1280, "height": 720}


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    yield from running(tmp_path_factory, "keys", in_process=True)


class Page:
    """A page's connection: what it was sent, read in order."""

    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.unread: list[dict[str, Any]] = []

    async def next(self, kind: str) -> dict[str, Any]:
        while True:
            message = self.unread.pop(0) if self.unread else json.loads(await self.socket.recv())
            if message["type"] == kind:
                return message

    async def stored(self, key: str) -> None:
        await self.socket.send(json.dumps({"v": 1, "type": "keyStored", "key": key}))


@asynccontextmanager
async def receiver(
    host: Any, seat: str, key: str | None = None, confirms: bool = True
) -> AsyncIterator[tuple[Page, dict[str, Any]]]:
    """A page's connection for ``seat`` (showing ``key``), and its welcome (a key the
    host hands a connection as it comes goes before the welcome)."""
    url = host.url.replace("http", "ws", 1) + "/receiver/ws"
    features = ["content", "keyStored"] if confirms else ["content"]
    hello = {"v": 1, "type": "hello", "seatId": seat, "screen": SCREEN, "features": features}
    async with connect(url, open_timeout=10) as socket:
        await socket.send(json.dumps({**hello, "key": key} if key else hello))
        page = Page(socket)
        while (message := json.loads(await socket.recv()))["type"] != "welcome":
            page.unread.append(message)
        yield page, message


async def test_a_key_not_kept_goes_to_the_seats_next_connection(host) -> None:
    seat = "kd-1"
    async with receiver(host, seat) as (first, _):
        host.lock(seat)
        key = (await first.next("key"))["key"]
        # gone before it said it kept the key

    async with receiver(host, seat) as (second, welcome):
        assert welcome.get("refused") is None, "the device back without its key is the station"
        assert (await second.next("key"))["key"] == key
        await second.stored(key)

    # kept now: a connection without it is an impostor, one with it the station
    async with receiver(host, seat) as (_, welcome):
        assert welcome["refused"]
    async with receiver(host, seat, key) as (_, welcome):
        assert welcome.get("refused") is None


async def test_a_key_kept_is_not_handed_again(host) -> None:
    seat = "kd-2"
    async with receiver(host, seat) as (first, _):
        host.lock(seat)
        key = (await first.next("key"))["key"]
        await first.stored(key)
    async with receiver(host, seat) as (_, welcome):
        assert welcome["refused"]


async def test_a_connection_that_never_says_so_is_taken_at_its_word(host) -> None:
    """A receiver that does not say ``keyStored`` (older pages) is trusted to have kept
    the key, as before: the seat's next connection without it is refused."""
    seat = "kd-3"
    async with receiver(host, seat, confirms=False) as (first, _):
        host.lock(seat)
        await first.next("key")
    async with receiver(host, seat) as (_, welcome):
        assert welcome["refused"]


async def test_another_keys_word_does_not_count(host) -> None:
    seat = "kd-4"
    async with receiver(host, seat) as (first, _):
        host.lock(seat)
        key = (await first.next("key"))["key"]
        await first.stored("x" * 43)  # not the key it was handed
    async with receiver(host, seat) as (second, welcome):
        assert welcome.get("refused") is None
        assert (await second.next("key"))["key"] == key
