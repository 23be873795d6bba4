"""Kiosk agents: ``tilewall agent`` beside a receiver page, on the same station.

The agent connects as the second role of its station. The host keeps, while it is
connected, what it said: how it switches the screen, its serial port, its udev devices
and monitor, and what its last power switch did. The receiver hub reports to this
service and carries its commands (serial writes) through the ``AgentLink`` port.
"""

import asyncio
import logging
from collections.abc import Iterable
from typing import Any, Protocol

import msgspec

from tilewall.host.errors import Conflict, NotFound, Unavailable
from tilewall.host.machine.facts import SerialSettings
from tilewall.host.peripherals.serial import SeatPorts, SerialWriter
from tilewall.host.state import Core
from tilewall.host.topology.stations import Stations

log = logging.getLogger(__name__)

#: how long the interface waits for agents to switch their screens
POWER_WAIT_S = 10.0


class PowerResult(msgspec.Struct, frozen=True):
    """What an agent's last power switch did: ``state`` on or off, ``ok``, and the
    tool's message when it failed."""

    state: str
    ok: bool
    method: str
    message: str
    at_ms: int


class AgentInfo(msgspec.Struct):
    seat_id: str
    ip: str
    version: str
    #: cec, ddc, dpms, command or none
    power: str
    serial_port: str
    browser: bool
    connected_ms: int
    #: udev devices as the interface lists them (SPEC field names)
    devices: list[dict[str, Any]] = []
    #: DISPLAY and MEDIA_DEVICE items of ``GET /network``
    items: list[dict[str, Any]] = []
    power_result: PowerResult | None = None


class AgentHello(msgspec.Struct, frozen=True):
    """What an agent says when it connects: its station and address, what it is, its
    name, how it switches the screen, the serial port it writes to ("" for none) and
    whether it keeps the kiosk browser running."""

    seat_id: str
    ip: str
    model: str
    firmware: str
    name: str | None
    power: str
    serial_port: str
    browser: bool


class AgentLink(Protocol):
    """Commands to a connected agent; the receiver hub implements it."""

    async def serial(self, seat_id: str, settings: SerialSettings, data: bytes) -> None:
        """Write ``data`` out of the agent's serial port; returns once written. Raises
        :class:`Unavailable` when the agent is gone, does not answer, or fails."""
        ...


class Agents:
    def __init__(self, core: Core, stations: Stations) -> None:
        self._core = core
        self._stations = stations
        self.connected: dict[str, AgentInfo] = {}
        #: set when the hub is attached; None: no agent can be reached
        self.link: AgentLink | None = None
        self._waiters: set[asyncio.Future[None]] = set()
        #: moves with every report the host does not announce (device lists), so views
        #: of the agents encoded once per revision see it
        self.reports = 0

    # --- reports from the hub -----------------------------------------------------------

    async def hello(self, hello: AgentHello) -> None:
        """An agent connected: its station appears (available) if the host never saw it,
        and the serial port it writes to is remembered with the station."""
        seat_id, power = hello.seat_id, hello.power or "none"
        if seat_id not in self._core.state.stations:
            # named after its seat (the page's default name is for random seat ids)
            await self._stations.hello(
                seat_id, hello.ip, hello.model, hello.firmware, name=hello.name or seat_id
            )
        station = self._core.state.stations[seat_id]
        if station.agent_serial_port != hello.serial_port:
            async with self._core.change() as tx:
                station.agent_serial_port = hello.serial_port
                tx.put(station)
        self.connected[seat_id] = AgentInfo(
            seat_id,
            hello.ip,
            hello.firmware,
            power,
            hello.serial_port,
            hello.browser,
            self._core.clock.now_ms(),
        )
        log.info(
            "agent of %s connected from %s (power: %s, serial: %s, browser: %s)",
            seat_id,
            hello.ip,
            power,
            hello.serial_port or "none",
            "yes" if hello.browser else "no",
        )
        self._announce(seat_id)

    def gone(self, seat_id: str) -> None:
        if self.connected.pop(seat_id, None) is not None:
            log.info("agent of %s disconnected", seat_id)
            self._announce(seat_id)

    def devices(
        self, seat_id: str, devices: list[dict[str, Any]], items: list[dict[str, Any]]
    ) -> None:
        info = self.connected.get(seat_id)
        if info is not None:
            info.devices, info.items = devices, items
            self.reports += 1

    def power(self, seat_id: str, state: str, ok: bool, method: str, message: str) -> None:
        info = self.connected.get(seat_id)
        if info is None:
            return
        info.power_result = PowerResult(state, ok, method, message, self._core.clock.now_ms())
        if ok:
            log.info("agent of %s switched its screen %s (%s)", seat_id, state, method)
        else:
            log.warning(
                "agent of %s failed to switch its screen %s (%s): %s",
                seat_id,
                state,
                method,
                message,
            )
        for waiter in list(self._waiters):
            if not waiter.done():
                waiter.set_result(None)
        self._announce(seat_id)

    def _announce(self, seat_id: str) -> None:
        station = self._core.state.stations.get(seat_id)
        if station is not None:
            ids = {station.display_id} if station.display_id is not None else set()
            self._core.notify(frozenset(ids), topology=True)

    # --- queries ------------------------------------------------------------------------

    def online(self, seat_id: str) -> bool:
        return seat_id in self.connected

    def usb_devices(self, seat_id: str) -> list[dict[str, Any]]:
        """The udev devices of a seat's agent (or those the station was given before)."""
        station = self._stations.station(seat_id)
        info = self.connected.get(station.seat_id)
        if info is not None and info.devices:
            return info.devices
        if station.usb_devices:
            return list(station.usb_devices)
        raise NotFound(f"no devices found on seat {station.seat_id!r}: no agent has reported any")

    def serial_port(self, seat_id: str) -> str:
        """The port of the seat's agent: as it said now, or when it was last connected."""
        info = self.connected.get(seat_id)
        if info is not None:
            return info.serial_port
        station = self._core.state.stations.get(seat_id)
        return station.agent_serial_port if station is not None else ""

    def power_seats(self, display_id: int | None) -> list[str]:
        """Seats whose agent switches the screen of ``display_id`` (None: every display)."""
        state = self._core.state
        seats = [
            s.seat_id
            for s in state.stations.values()
            if s.locked
            and s.display_id is not None
            and (display_id is None or s.display_id == display_id)
        ]
        return [s for s in seats if s in self.connected and self.connected[s].power != "none"]

    async def wait_power(
        self, seats: Iterable[str], state: str, timeout: float = POWER_WAIT_S
    ) -> dict[str, PowerResult | None]:
        """The power results of ``seats`` once each has switched to ``state`` (or failed
        to), waiting at most ``timeout``; None for an agent that has not answered."""
        wanted = list(seats)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout

        def result(seat: str) -> PowerResult | None:
            info = self.connected.get(seat)
            found = info.power_result if info is not None else None
            return found if found is not None and found.state == state else None

        while any(result(s) is None for s in wanted if s in self.connected):
            remaining = deadline - loop.time()
            if remaining <= 0:
                break
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.add(waiter)
            try:
                await asyncio.wait_for(waiter, remaining)
            except TimeoutError:
                pass
            finally:
                self._waiters.discard(waiter)
        return {s: result(s) for s in wanted}


class SeatSerialWriter:
    """Where a seat's serial commands go: the host-side port when the seat has one (PUT
    /serial/{seat}/port), else the port of the seat's agent. No port at all: 409; an
    agent with a port that is offline: 503."""

    def __init__(self, ports: SeatPorts, host_side: SerialWriter, agents: Agents) -> None:
        self._ports = ports
        self._host_side = host_side
        self._agents = agents

    async def write(self, seat_id: str, settings: SerialSettings, data: bytes) -> None:
        if self._ports.port(seat_id):
            await self._host_side.write(seat_id, settings, data)
            return
        port = self._agents.serial_port(seat_id)
        if not port:
            raise Conflict(
                f"no serial port for seat {seat_id!r}: give the host one "
                f"(PUT /api/serial/{seat_id}/port) or start its agent with --serial-port"
            )
        link = self._agents.link
        if not self._agents.online(seat_id) or link is None:
            raise Unavailable(f"the agent of seat {seat_id!r} (serial port {port}) is offline")
        await link.serial(seat_id, settings, data)
