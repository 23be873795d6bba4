"""Frames written straight to a connection served by uvicorn arrive as the ASGI ``send``
would have written them, and the direct way steps aside whenever it must; an accepted
connection goes on without what its handshake left."""

import asyncio
from typing import Any

from websockets.asyncio.client import connect

from tests.support.server import serve_asgi
from tilewall.reaches.uvicorn_connection import (
    SERVER_SEND,
    direct_writer,
    keeping_server_send,
    release_handshake,
)
from tilewall.receivers.routes import AsgiLink

#: every length encoding of a frame (7 bits, 16 bits, 64 bits), and text beyond ASCII
TEXTS = ["a", "x" * 125, "y" * 126, "z" * 65_535, "w" * 65_536, "écran → 🎬 mur"]


class Recorder:
    """An ASGI app that writes ``TEXTS`` to each connection and notes what happened."""

    def __init__(self) -> None:
        self.direct: list[bool] = []
        self.written: list[bool] = []
        self.after_close: bool | None = None
        #: what uvicorn still held of the handshake once it was released
        self.handshake_left: list[Any] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert scope["type"] == "websocket"
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        release_handshake(send, scope)
        protocol = send.__self__
        self.handshake_left += [protocol.request, protocol.response, scope["headers"]]
        writer = direct_writer(send)
        self.direct.append(writer is not None)
        link = AsgiLink(send)
        for text in TEXTS:
            written = writer is not None and writer.write(text)
            self.written.append(written)
            if not written:  # as the link does: the ASGI send writes what was not
                await link.send_text(text)
        await link.send_text("through the link")
        assert (await receive())["type"] == "websocket.receive"  # the client read them all
        await send({"type": "websocket.close", "code": 1000})
        if writer is not None:
            self.after_close = writer.write("too late")
        await receive()


async def read_all(port: int, **options: Any) -> list[str]:
    async with (
        asyncio.timeout(20),
        connect(f"ws://127.0.0.1:{port}/", max_size=None, **options) as ws,
    ):
        texts = [str(await ws.recv()) for _ in range(len(TEXTS) + 1)]
        await ws.send("done")
        return texts


async def test_frames_written_directly_arrive_whole_and_in_order() -> None:
    app = Recorder()
    async with serve_asgi(app) as port:
        texts = await read_all(port, compression=None)
    assert texts == [*TEXTS, "through the link"]
    assert app.direct == [True]
    assert app.written == [True] * len(TEXTS)
    assert app.after_close is False  # a close was sent: the ASGI send decides from then on
    assert app.handshake_left == [None, None, []]  # and the connection went on without it


async def test_compressed_connections_are_written_through_asgi() -> None:
    app = Recorder()
    async with serve_asgi(app) as port:  # uvicorn offers permessage-deflate by default
        texts = await read_all(port)  # and the client takes it
    assert texts == [*TEXTS, "through the link"]
    assert app.direct == [False]
    assert app.written == [False] * len(TEXTS)


async def test_a_socket_that_is_not_keeping_up_is_left_to_asgi() -> None:
    """With bytes still waiting in the transport, the direct way writes nothing (the ASGI
    ``send`` waits for the socket instead)."""
    decided: list[bool] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        writer = direct_writer(send)
        assert writer is not None
        big = "b" * (32 << 20)  # more than the sockets' buffers take at once
        decided.append(writer.write(big))
        decided.append(writer.write("next"))
        await receive()

    url = "ws://127.0.0.1:{}/"
    async with (
        serve_asgi(app) as port,
        connect(url.format(port), max_size=None, compression=None) as ws,
    ):
        await asyncio.sleep(0.2)  # the app wrote before anything was read
        assert len(str(await ws.recv())) == 32 << 20
    assert decided == [True, False]


#: a live stream's frames: every length encoding of a binary frame
PAYLOADS = [b"\x00", bytes(range(256)) * 8, b"k" * 70_000, b"last"]


async def test_a_route_behind_the_apps_layers_writes_frames_to_the_servers_send() -> None:
    """A live viewer's route sees the ``send`` the app's middleware wrapped; the server's
    own is in the scope, and binary frames written to it arrive as they were, in order
    with what the wrapped ``send`` writes where the direct way steps aside."""
    seen: dict[str, Any] = {}

    async def route(scope: dict[str, Any], receive: Any, send: Any) -> None:
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        writer = direct_writer(scope[SERVER_SEND])
        seen["direct"] = writer is not None and direct_writer(send) is None
        seen["written"] = []
        for payload in PAYLOADS:
            written = writer is not None and writer.write_binary(payload)
            seen["written"].append(written)
            if not written:
                await send({"type": "websocket.send", "bytes": payload, "text": None})
        await send({"type": "websocket.send", "bytes": None, "text": "end"})
        await receive()

    async def middleware(scope: dict[str, Any], receive: Any, send: Any) -> None:
        async def wrapped(message: Any) -> None:
            await send(message)

        await route(scope, receive, wrapped)

    async with (
        serve_asgi(keeping_server_send(middleware)) as port,
        asyncio.timeout(20),
        connect(f"ws://127.0.0.1:{port}/", max_size=None, compression=None) as ws,
    ):
        got = [await ws.recv() for _ in range(len(PAYLOADS) + 1)]
    assert got == [*PAYLOADS, "end"]
    assert seen["direct"] and seen["written"][0], seen
