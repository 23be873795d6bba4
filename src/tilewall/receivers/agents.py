"""The agent role of the hub: kiosk agents by seat, their reports, and the commands the
host gives them (serial writes) with the answers awaited."""

import asyncio
import base64
import itertools
import logging
from collections.abc import Callable

import msgspec

from tilewall.host.errors import Unavailable
from tilewall.host.machine.facts import SerialSettings
from tilewall.receivers import protocol_agent as pa
from tilewall.receivers.ports import StationPort
from tilewall.receivers.session import Session

log = logging.getLogger(__name__)


class AgentDesk:
    """Implements the host's ``AgentLink`` over the hub's agent connections."""

    def __init__(
        self, stations: StationPort, send: Callable[[Session, str], bool], timeout_s: float
    ) -> None:
        self.stations = stations
        self._send = send
        self.timeout_s = timeout_s
        self.by_seat: dict[str, Session] = {}
        self._ids = itertools.count(1)
        #: command id -> (the session it went to, the answer awaited)
        self._pending: dict[int, tuple[Session, asyncio.Future[pa.Result]]] = {}

    async def handle(self, session: Session, message: pa.AgentMessage) -> None:
        seat = session.seat_id
        if seat is None or self.by_seat.get(seat) is not session:
            return
        if isinstance(message, pa.Devices):
            self.stations.agent_devices(
                seat,
                [msgspec.to_builtins(d) for d in message.udev],
                [msgspec.to_builtins(i) for i in message.items],
            )
        elif isinstance(message, pa.PowerReport):
            self.stations.agent_power(
                seat, message.state, message.ok, message.method, message.message
            )
        elif isinstance(message, pa.Result):
            pending = self._pending.get(message.id)
            if pending is not None and pending[0] is session and not pending[1].done():
                pending[1].set_result(message)

    def closed(self, session: Session) -> None:
        """The agent's connection is gone: its unanswered commands fail."""
        for key, (owner, future) in list(self._pending.items()):
            if owner is session and not future.done():
                future.set_exception(
                    Unavailable(f"the agent of seat {session.seat_id!r} disconnected")
                )
                del self._pending[key]

    async def serial(self, seat_id: str, settings: SerialSettings, data: bytes) -> None:
        session = self.by_seat.get(seat_id)
        if session is None:
            raise Unavailable(f"the agent of seat {seat_id!r} is offline")
        command_id = next(self._ids)
        future: asyncio.Future[pa.Result] = asyncio.get_running_loop().create_future()
        self._pending[command_id] = (session, future)
        message = pa.SerialWrite(
            id=command_id,
            baud_rate=settings.baud_rate,
            data_bits=settings.data_bits,
            parity=settings.parity,
            stop_bits=settings.stop_bits,
            data=base64.b64encode(data).decode("ascii"),
        )
        try:
            if not self._send(session, pa.encode(message)):
                raise Unavailable(f"the agent of seat {seat_id!r} is not reading its messages")
            try:
                result = await asyncio.wait_for(future, self.timeout_s)
            except TimeoutError:
                raise Unavailable(
                    f"the agent of seat {seat_id!r} did not answer within {self.timeout_s:g} s"
                ) from None
        finally:
            self._pending.pop(command_id, None)
        if not result.ok:
            raise Unavailable(f"the agent of seat {seat_id!r} could not write: {result.message}")
        log.info("agent of %s wrote %d bytes to its serial port", seat_id, len(data))
