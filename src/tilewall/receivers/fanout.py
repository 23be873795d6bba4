"""Pushing a change to the receivers it concerns: each distinct description computed
once, encoded once, the same text written to every receiver that shows it.

A change names the displays it affects (or all). For each seat concerned the push
describes it at one instant, sharing the content of each zone, mirror group and display
(``render.Shared``: one object, encoded once; a tile made again only when its wall,
zone or monitor changed), and compares the description with the
last one the seat was given (``Revisions``):

- nothing changed: nothing is sent;
- only the content changed (a switch, a play, a seek): the seat is told ``content``, one
  message per distinct content, with one revision: every receiver of a zone of a
  thousand is written the very same text;
- anything else of the seat's own changed (its role, tile, overlays, resolution), or the
  receiver does not know ``content`` (it did not say so in its hello): its whole
  description, ``state``, encoded for that seat.
"""

import gc
import time
from collections.abc import Callable, Iterable

import msgspec

from tilewall.host.render.description import RenderState, Shared, TileKey, describe
from tilewall.host.render.tile import Tile
from tilewall.receivers import protocol as p
from tilewall.receivers.ports import HostPort
from tilewall.receivers.revisions import Revisions, frame_of
from tilewall.receivers.session import Session

NULL = b"null"


class Fanout:
    def __init__(
        self,
        port: HostPort,
        revisions: Revisions,
        sessions_of: Callable[[str], list[Session]],
        send: Callable[[Session, str], bool],
    ) -> None:
        self.port = port
        self.revisions = revisions
        self._sessions_of = sessions_of
        self._send = send
        #: told (seconds, receivers sent to) after each push of a change, for metrics
        self.observers: list[Callable[[float, int], None]] = []
        #: each wall display's tile and what it was made of, kept from push to push
        self._tiles: dict[int, tuple[TileKey, Tile]] = {}

    def describe(self, seat_id: str) -> RenderState:
        port = self.port
        return describe(
            port.state,
            seat_id,
            media=port.media,
            overlays=port.overlays(),
            host=port.host_info(),
            now_ms=port.now_ms(),
        )

    def affected(self, seats: Iterable[str], every: bool, displays: set[int]) -> list[str]:
        """The seats a change of ``displays`` (or of ``every`` one) may concern: those of
        these displays, and every seat not locked to a display (its pairing screen)."""
        if every:
            return list(seats)
        stations = self.port.state.stations
        out = []
        for seat in seats:
            station = stations.get(seat)
            if (
                station is None
                or not station.locked
                or station.display_id is None
                or station.display_id in displays
            ):
                out.append(seat)
        return out

    def push(self, seats: Iterable[str]) -> int:
        """Tell each of ``seats`` its description if it changed; the receivers sent to.

        The garbage collector waits until the push is done: a full pass over what a
        thousand connections hold takes tens of milliseconds, as long as the push."""
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._push(seats)
        finally:
            if collecting:
                gc.enable()

    def _push(self, seats: Iterable[str]) -> int:
        started = time.perf_counter()
        port = self.port
        state, media = port.state, port.media
        overlays, host, now_ms = port.overlays(), port.host_info(), port.now_ms()
        shared = Shared(self._tiles)
        #: id of a content object (kept alive by ``shared``) -> its encoding
        encoded: dict[int, bytes] = {}
        #: a content's encoding -> the revision and text of the ``content`` message
        messages: dict[bytes, tuple[int, str]] = {}
        revisions, send = self.revisions, self._send
        sent = 0
        for seat in seats:
            description = describe(
                state,
                seat,
                media=media,
                overlays=overlays,
                host=host,
                now_ms=now_ms,
                shared=shared,
            )
            content = description.content
            body = NULL if content is None else encoded.get(id(content))
            if body is None:
                body = encoded[id(content)] = p.encoder.encode(content)
            frame = frame_of(description)
            change = revisions.change(seat, frame, body)
            if change == "none":
                continue
            message: str | None = None
            if change == "content":
                rev, message = messages.get(body) or _message(messages, body, revisions.next())
            else:
                rev = revisions.next()
            revisions.keep(seat, frame, body, rev)
            whole: str | None = None
            for session in self._sessions_of(seat):
                if message is not None and session.shares:
                    text = message
                else:
                    whole = whole or p.encode(p.StateUpdate(rev=rev, state=description))
                    text = whole
                if send(session, text):
                    sent += 1
        for observer in self.observers:
            observer(time.perf_counter() - started, sent)
        return sent


def _message(made: dict[bytes, tuple[int, str]], body: bytes, rev: int) -> tuple[int, str]:
    """The ``content`` message of ``body``, made once per push."""
    message = made[body] = (rev, p.encode(p.ContentOut(rev=rev, content=msgspec.Raw(body))))
    return message
