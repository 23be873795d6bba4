"""Serial commands to the display of a seat: validated, recorded, and sent by a writer.

Until a ``SerialWriter`` is plugged in (the platform's serial port adapter), commands
are only recorded: each record says ``delivered`` false. The last ``KEEP`` commands of
each seat are kept in the setting ``serial_log:<seat id>``.
"""

import base64
import binascii
import math
from dataclasses import dataclass
from typing import Protocol

from tilewall.host.errors import HostError, Invalid, NotFound, Unavailable
from tilewall.host.model import SerialRecord
from tilewall.host.state import Core

KEEP = 100
MAX_BAUD = 4_000_000
MAX_BYTES = 64 * 1024
PARITY = {
    "N": "N",
    "E": "E",
    "O": "O",
    "M": "M",
    "S": "S",
    "NONE": "N",
    "EVEN": "E",
    "ODD": "O",
    "MARK": "M",
    "SPACE": "S",
}
STOP_BITS = (1.0, 1.5, 2.0)
LOG_PREFIX = "serial_log:"


@dataclass(frozen=True)
class SerialSettings:
    baud_rate: int
    data_bits: int
    #: one of N, E, O, M, S
    parity: str
    stop_bits: float


class SerialWriter(Protocol):
    """Sends bytes out of the serial port of a seat's display."""

    async def write(self, seat_id: str, settings: SerialSettings, data: bytes) -> None: ...


def _number(value: object, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Invalid(f"{field} must be a number")
    if not math.isfinite(value):
        raise Invalid(f"{field} must be a finite number")
    return float(value)


def check_settings(
    baud_rate: object, data_bits: object, parity: object, stop_bits: object
) -> SerialSettings:
    baud = _number(baud_rate, "serialSettings.baudRate")
    if not baud.is_integer() or not 0 < baud <= MAX_BAUD:
        raise Invalid(f"serialSettings.baudRate must be a whole number from 1 to {MAX_BAUD}")
    bits = _number(data_bits, "serialSettings.dataBits")
    if bits not in (5, 6, 7, 8):
        raise Invalid("serialSettings.dataBits must be 5, 6, 7 or 8")
    letter = PARITY.get(parity.strip().upper()) if isinstance(parity, str) else None
    if letter is None:
        raise Invalid(
            "serialSettings.parity must be one of N, E, O, M, S (or NONE, EVEN, ODD, MARK, SPACE)"
        )
    stop = _number(stop_bits, "serialSettings.stopBits")
    if stop not in STOP_BITS:
        raise Invalid("serialSettings.stopBits must be 1, 1.5 or 2")
    return SerialSettings(int(baud), int(bits), letter, stop)


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


class Serial:
    def __init__(self, core: Core, writer: SerialWriter | None = None) -> None:
        self._core = core
        #: None: commands are recorded, not sent
        self.writer = writer

    def _seat(self, seat_id: str) -> str:
        if seat_id not in self._core.state.stations:
            raise NotFound(f"station {seat_id!r} not found")
        return seat_id

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
        settings = check_settings(baud_rate, data_bits, parity, stop_bits)
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
            except OSError as exc:
                error = f"serial port error: {exc.strerror or exc}"
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
            raise Unavailable(f"serial command to seat {seat_id!r} not delivered: {error}")
        return record
