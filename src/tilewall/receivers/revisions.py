"""Revisions of the descriptions sent to receivers: a seat's revision moves on only when
its description changed, so a receiver is sent only what is new to it.

A description is kept as two parts: its *frame* (the description without its content:
role, tile, resolution, overlays; the seat's own) and its *content*, encoded (shared:
every seat of a zone keeps the very same bytes). The hub tells from them whether a seat
needs its whole description (``state``) or just the new content (``content``)."""

from typing import Literal

from msgspec.structs import replace

from tilewall.host.render.description import RenderState
from tilewall.receivers import protocol as p

#: how a seat's new description differs from its last one
Change = Literal["none", "content", "all"]


def frame_of(state: RenderState) -> RenderState:
    """The description without its content."""
    return replace(state, content=None) if state.content is not None else state


class Revisions:
    def __init__(self) -> None:
        #: seat -> (frame, encoded content, revision)
        self._last: dict[str, tuple[RenderState, bytes, int]] = {}
        self._rev = 0

    def start(self, now_ms: int) -> None:
        # Revisions go on increasing across host restarts (a receiver keeps the one it
        # shows): they start from the host clock in microseconds, far below 2**53.
        self._rev = max(self._rev, now_ms * 1000)

    def rev(self, seat_id: str) -> int:
        """The revision of the last description of ``seat_id`` (0: none yet)."""
        last = self._last.get(seat_id)
        return last[2] if last else 0

    def next(self) -> int:
        """A new revision, greater than every one given so far (shared by the seats of
        one push that are told the same content)."""
        self._rev += 1
        return self._rev

    def change(self, seat_id: str, frame: RenderState, content: bytes) -> Change:
        """How ``frame`` with ``content`` differs from what ``seat_id`` was last given."""
        last = self._last.get(seat_id)
        if last is None or last[0] != frame:
            return "all"
        return "none" if last[1] is content or last[1] == content else "content"

    def keep(self, seat_id: str, frame: RenderState, content: bytes, rev: int) -> None:
        self._last[seat_id] = (frame, content, rev)

    def record(self, seat_id: str, state: RenderState) -> tuple[int, bool]:
        """The revision of ``state`` for ``seat_id``, and whether it is a new one."""
        frame, content = frame_of(state), p.encoder.encode(state.content)
        if self.change(seat_id, frame, content) == "none":
            return self.rev(seat_id), False
        rev = self.next()
        self.keep(seat_id, frame, content, rev)
        return rev, True
