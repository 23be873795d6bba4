"""Revisions of the descriptions sent to receivers: a seat's revision moves on only when
its encoded description changed, so a receiver is sent only what is new to it."""

from tilewall.host.playback.render import RenderState
from tilewall.receivers import protocol as p


class Revisions:
    def __init__(self) -> None:
        self._last: dict[str, tuple[bytes, int]] = {}
        self._rev = 0

    def start(self, now_ms: int) -> None:
        # Revisions go on increasing across host restarts (a receiver keeps the one it
        # shows): they start from the host clock in microseconds, far below 2**53.
        self._rev = max(self._rev, now_ms * 1000)

    def rev(self, seat_id: str) -> int:
        """The revision of the last description of ``seat_id`` (0: none yet)."""
        last = self._last.get(seat_id)
        return last[1] if last else 0

    def record(self, seat_id: str, state: RenderState) -> tuple[int, bool]:
        """The revision of ``state`` for ``seat_id``, and whether it is a new one."""
        body = p.encoder.encode(state)
        last = self._last.get(seat_id)
        if last is not None and last[0] == body:
            return last[1], False
        self._rev += 1
        self._last[seat_id] = (body, self._rev)
        return self._rev, True
