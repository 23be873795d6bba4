"""Serial commands to the display of a seat: validated, sent by a writer, recorded.

The host plugs in a ``PortWriter``: each seat can be given a serial port (a device under
/dev or a pyserial URL such as socket://host:port), and commands are written to it. A
seat without a port answers 409; an unreachable port 503. Every command is recorded
with whether it was delivered; the last ``KEEP`` of each seat are kept in the setting
``serial_log:<seat id>``.
"""

import base64
import binascii
from pathlib import PurePosixPath
from typing import Protocol
from urllib.parse import urlsplit

from tilewall.host.access import scopes
from tilewall.host.errors import Conflict, HostError, Invalid, NotFound, Unavailable
from tilewall.host.machine.facts import SerialSettings
from tilewall.host.machine.slot import MachineSlot
from tilewall.host.model import SerialRecord
from tilewall.host.state import Core

KEEP = 100
MAX_BYTES = 64 * 1024
LOG_PREFIX = "serial_log:"
#: the setting with the serial port of each seat given one
PORTS = "serial_ports"


def require_station(core: Core, seat_id: str) -> str:
    if seat_id not in core.state.stations:
        raise NotFound(f"station {seat_id!r} not found")
    return seat_id


class SerialWriter(Protocol):
    """Sends bytes out of the serial port of a seat's display."""

    async def write(self, seat_id: str, settings: SerialSettings, data: bytes) -> None: ...


def decode_data(data_b64: object) -> bytes:
    if not isinstance(data_b64, str):
        raise Invalid("transmit.base64_data must be a base64 string")
    try:
        data = base64.b64decode(data_b64, validate=True)
    except (binascii.Error, ValueError):
        raise Invalid("transmit.base64_data is not valid base64") from None
    if not data:
        raise Invalid("transmit.base64_data must not be empty")
    if len(data) > MAX_BYTES:
        raise Invalid(f"transmit.base64_data must decode to at most {MAX_BYTES} bytes")
    return data


class SeatPorts:
    """The serial port each seat was given (a tilewall extension), kept in the setting
    ``serial_ports``: read by the writer that sends a seat's commands, and set through
    :class:`Serial`."""

    def __init__(self, core: Core) -> None:
        self._core = core

    def port(self, seat_id: str) -> str:
        require_station(self._core, seat_id)
        ports = self._core.setting(PORTS, dict[str, str], {})
        return ports.get(seat_id, "")

    async def set_port(self, seat_id: str, port: str) -> str:
        """Give a seat its serial port: a device under /dev, or a pyserial URL
        (socket://host:port, rfc2217://host:port, loop://); "" removes it."""
        self.port(seat_id)
        port = check_port(port)
        async with self._core.change() as tx:
            ports = self._core.setting(PORTS, dict[str, str], {})
            if port:
                ports[seat_id] = port
            else:
                ports.pop(seat_id, None)
            tx.put_setting(PORTS, ports)
        return port


class Serial:
    def __init__(
        self,
        core: Core,
        machine: MachineSlot,
        ports: SeatPorts,
        writer: SerialWriter | None = None,
    ) -> None:
        self._core = core
        self._machine = machine
        self._seat_ports = ports
        #: None: commands are recorded, not sent
        self.writer = writer

    def check_settings(
        self, baud_rate: object, data_bits: object, parity: object, stop_bits: object
    ) -> SerialSettings:
        """The settings as the port takes them; the one rule is the serial adapter's."""
        try:
            return self._machine.adapters.serial.check_settings(
                baud_rate, data_bits, parity, stop_bits
            )
        except Invalid as error:
            raise Invalid(f"serialSettings.{error}") from None

    def _seat(self, seat_id: str) -> str:
        return require_station(self._core, seat_id)

    def _in_scope(self, seat_id: str) -> None:
        """A scoped operator commands the displays of its scope only."""
        if scopes.scope_of_actor() is None:
            return
        station = self._core.state.stations.get(seat_id)
        display_id = None if station is None else station.display_id
        scopes.require(self._core.state, [("display", -1 if display_id is None else display_id)])

    def records(self, seat_id: str) -> list[SerialRecord]:
        """The commands recorded for a seat, oldest first."""
        self._seat(seat_id)
        return self._core.setting(LOG_PREFIX + seat_id, list[SerialRecord], [])

    async def command(
        self,
        seat_id: str,
        baud_rate: object,
        data_bits: object,
        parity: object,
        stop_bits: object,
        data_b64: object,
    ) -> SerialRecord:
        """Check a command as the interface gives it, then send it to the seat."""
        self._seat(seat_id)
        self._in_scope(seat_id)
        settings = self.check_settings(baud_rate, data_bits, parity, stop_bits)
        return await self.send(seat_id, settings, decode_data(data_b64))

    async def send(self, seat_id: str, settings: SerialSettings, data: bytes) -> SerialRecord:
        """Record the command (and send it when a writer is plugged in).

        A writer's failure is recorded with the command and then raised as Unavailable.
        """
        self._seat(seat_id)
        delivered, error = False, ""
        if self.writer is not None:
            try:
                await self.writer.write(seat_id, settings, data)
                delivered = True
            except HostError as exc:
                error = str(exc) or type(exc).__name__
                failure: HostError = exc
            except OSError as exc:
                error = f"serial port error: {exc.strerror or exc}"
                failure = Unavailable(f"serial command to seat {seat_id!r} not delivered: {error}")
        record = SerialRecord(
            seat_id=seat_id,
            at_ms=self._core.clock.now_ms(),
            baud_rate=settings.baud_rate,
            data_bits=settings.data_bits,
            parity=settings.parity,
            stop_bits=settings.stop_bits,
            data_b64=base64.b64encode(data).decode("ascii"),
            delivered=delivered,
            error=error,
        )
        async with self._core.change() as tx:
            log = self._core.setting(LOG_PREFIX + seat_id, list[SerialRecord], [])
            log = [*log, record][-KEEP:]
            tx.put_setting(LOG_PREFIX + seat_id, log)
        if error:
            raise failure
        return record

    # the port of each seat (a tilewall extension)

    def port(self, seat_id: str) -> str:
        return self._seat_ports.port(seat_id)

    async def set_port(self, seat_id: str, port: str) -> str:
        return await self._seat_ports.set_port(seat_id, port)


URL_SCHEMES = ("socket", "rfc2217", "loop")


def check_port(port: str) -> str:
    port = port.strip()
    if not port:
        return ""
    if "://" in port:
        try:
            parts = urlsplit(port)
        except ValueError:  # a malformed IPv6 host, for one
            raise Invalid(f"port {port!r} is not a valid URL") from None
        if parts.scheme not in URL_SCHEMES:
            raise Invalid(
                f"port URLs are {', '.join(s + '://' for s in URL_SCHEMES)}, not {port!r}"
            )
        if parts.scheme != "loop":
            try:
                valid = bool(parts.hostname) and parts.port is not None
            except ValueError:
                valid = False
            if not valid:
                raise Invalid(f"port {port!r} needs a host and a port number")
        return port
    path = PurePosixPath(port)
    if not path.is_absolute() or ".." in path.parts or path.parts[:2] != ("/", "dev"):
        raise Invalid(f"serial devices are paths under /dev, not {port!r}")
    return str(path)


class PortWriter:
    """Writes a seat's commands to the serial port it was given, through the machine's
    serial adapter (pyserial)."""

    def __init__(self, ports: SeatPorts, machine: MachineSlot) -> None:
        self._ports = ports
        self._machine = machine

    async def write(self, seat_id: str, settings: SerialSettings, data: bytes) -> None:
        port = self._ports.port(seat_id)
        if not port:
            raise Conflict(
                f"no serial port configured for seat {seat_id!r} (PUT /api/serial/{seat_id}/port)"
            )
        await self._machine.adapters.serial.open_and_write(port, settings, data)
