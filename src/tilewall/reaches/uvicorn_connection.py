"""Writing to a receiver's connection straight, where the ASGI server is uvicorn.

A push to a thousand receivers writes the same text a thousand times. Through ASGI each
write is a ``send`` that checks the connection's state, encodes and frames the text,
writes it and awaits the transport's flow control. Where the server is uvicorn with its
sans-I/O ``websockets`` implementation (what ``tilewall serve`` runs: uvicorn's choice
when websockets is installed), the ``send`` is a bound method of the connection's
protocol object, and a text frame from a server is the same bytes for every receiver (a
server does not mask, and permessage-deflate is off): so the frame is made once per
text, by websockets' (public) framing, and written to each connection's transport. That
is 15 µs of the host's CPU a receiver and text where the ASGI ``send`` takes 21 µs
(1,000 connections, 20 texts of 350 bytes).

Only while the connection is open and its transport holds nothing unsent: anything else
(a close under way, a receiver whose socket is not keeping up, another server) takes the
ASGI ``send``, which waits for flow control and raises once the connection is gone.

A connection stays open for as long as its receiver runs, so what its handshake left
behind is let go once it is accepted (:func:`release_handshake`).

Relies on uvicorn's private protocol object (:data:`PROTOCOL_ATTRIBUTES`): the module
:data:`UVICORN_WEBSOCKETS`, ``send.__self__`` being the protocol, and its attributes.
"""

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from websockets.frames import Frame, Opcode
from websockets.protocol import Side, State

#: the module of uvicorn's WebSocket protocol on the sans-I/O ``websockets`` library
UVICORN_WEBSOCKETS = "uvicorn.protocols.websockets.websockets_sansio_impl"

#: what is read (and, for the handshake's request and response, cleared) of the protocol
PROTOCOL_ATTRIBUTES = (
    "conn",
    "transport",
    "close_sent",
    "disconnected",
    "handshake_complete",
    "initial_response",
    "writable",
    "request",
    "response",
)


#: where :func:`keeping_server_send` leaves a WebSocket connection's ``send`` as the
#: server gave it, in the connection's scope (the app's middleware wraps the one its
#: routes see)
SERVER_SEND = "tilewall.server_send"

ASGIApp = Callable[[Any, Any, Any], Awaitable[None]]


def keeping_server_send(app: ASGIApp) -> ASGIApp:
    """``app``, with each WebSocket connection's server ``send`` in its scope (under
    :data:`SERVER_SEND`): a live source's route writes frames to it directly."""

    async def keeping(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "websocket":
            scope[SERVER_SEND] = send
        await app(scope, receive, send)

    return keeping


class DirectWriter:
    """Writes frames to one connection's transport while that is safe."""

    __slots__ = ("_protocol",)

    def __init__(self, protocol: Any) -> None:
        self._protocol = protocol

    def write(self, text: str) -> bool:
        """Write ``text`` as one frame now; False (nothing written) if the ASGI ``send``
        must do it."""
        return self.can_write() and self._put(frames.of(text))

    def write_binary(self, data: bytes) -> bool:
        """Write ``data`` as one binary frame now (a live stream's frame, the same bytes
        object for every viewer); False (nothing written) if the ASGI ``send`` must."""
        return self.can_write() and self._put(binary_frames.of(data))

    def _put(self, frame: bytes) -> bool:
        self._protocol.transport.write(frame)
        return True

    def can_write(self) -> bool:
        """The connection is open and its transport holds nothing unsent."""
        protocol = self._protocol
        transport = protocol.transport
        return not (
            protocol.conn.state is not State.OPEN
            or protocol.close_sent
            or protocol.disconnected
            or not protocol.handshake_complete
            or protocol.initial_response is not None
            or not protocol.writable.is_set()
            or transport.is_closing()
            or transport.get_write_buffer_size()
        )


def uvicorn_protocol(send: Callable[..., Any]) -> Any:
    """The uvicorn protocol object whose ``send`` this is; None for any other server."""
    protocol = getattr(send, "__self__", None)
    if protocol is None:
        return None
    if not any(cls.__module__ == UVICORN_WEBSOCKETS for cls in type(protocol).__mro__):
        return None
    return protocol


def release_handshake(send: Callable[..., Any], scope: MutableMapping[str, Any]) -> None:
    """Let go of what an accepted connection no longer needs from its handshake: the
    request and the response with their headers, which uvicorn keeps for as long as the
    connection lasts, and the scope's copy of the headers (some 5 KB a connection: a
    thousand receivers' worth is 5 MB of the host's memory)."""
    scope["headers"] = []
    protocol = uvicorn_protocol(send)
    if protocol is not None and protocol.handshake_complete:
        protocol.request = None
        protocol.response = None


def direct_writer(send: Callable[..., Any]) -> DirectWriter | None:
    """A writer for the connection of ``send`` (an ASGI WebSocket ``send``), if its server
    is one whose frames can be written directly; else None."""
    protocol = uvicorn_protocol(send)
    if protocol is None:
        return None
    conn = getattr(protocol, "conn", None)
    if conn is None or getattr(conn, "side", None) is not Side.SERVER or conn.extensions:
        return None  # a client masks its frames; an extension (deflate) rewrites them
    return DirectWriter(protocol)


class Frames:
    """The frame of the payload last written, made again only for another payload: a
    push writes one text to every receiver of a zone, a live stream one frame to every
    viewer, one after the other."""

    __slots__ = ("_frame", "_payload")

    def __init__(self) -> None:
        self._payload: str | bytes | None = None
        self._frame = b""

    def of(self, payload: str | bytes) -> bytes:
        if payload is not self._payload:
            frame = (
                Frame(Opcode.TEXT, payload.encode())
                if isinstance(payload, str)
                else Frame(Opcode.BINARY, payload)
            )
            self._frame = frame.serialize(mask=False)
            self._payload = payload
        return self._frame


#: texts pushed to receivers, and live frames sent to viewers: apart, so that neither
#: makes the other's frame again
frames = Frames()
binary_frames = Frames()
