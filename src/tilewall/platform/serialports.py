"""Writing to serial ports: local devices and pyserial URLs (``socket://``, ``rfc2217://``)."""

import asyncio
import logging
from dataclasses import dataclass, field

import serial

from tilewall.host.errors import Unavailable
from tilewall.host.machine.facts import SerialSettings
from tilewall.platform.errors import InvalidSetting

log = logging.getLogger(__name__)

MIN_BAUD = 50
MAX_BAUD = 4_000_000
#: seconds to connect to network ports and to finish a write
TIMEOUT_SECONDS = 5.0

_PARITIES = {
    "N": serial.PARITY_NONE,
    "NONE": serial.PARITY_NONE,
    "E": serial.PARITY_EVEN,
    "EVEN": serial.PARITY_EVEN,
    "O": serial.PARITY_ODD,
    "ODD": serial.PARITY_ODD,
    "M": serial.PARITY_MARK,
    "MARK": serial.PARITY_MARK,
    "S": serial.PARITY_SPACE,
    "SPACE": serial.PARITY_SPACE,
}
_STOP_BITS = {
    1.0: serial.STOPBITS_ONE,
    1.5: serial.STOPBITS_ONE_POINT_FIVE,
    2.0: serial.STOPBITS_TWO,
}


class SerialSettingsError(InvalidSetting):
    """Serial settings pyserial would not accept."""


class SerialPortUnavailable(Unavailable):
    """The port cannot be opened or written."""


def validate_settings(
    baud_rate: object, data_bits: object, parity: object, stop_bits: object
) -> SerialSettings:
    """Normalise settings: parity as a pyserial letter, stop bits as 1, 1.5 or 2."""
    if (
        not isinstance(baud_rate, int)
        or isinstance(baud_rate, bool)
        or not MIN_BAUD <= baud_rate <= MAX_BAUD
    ):
        raise SerialSettingsError(
            f"baudRate {baud_rate!r} is not a whole number from {MIN_BAUD} to {MAX_BAUD}"
        )
    if (
        not isinstance(data_bits, int)
        or isinstance(data_bits, bool)
        or data_bits not in serial.Serial.BYTESIZES
    ):
        raise SerialSettingsError(f"dataBits {data_bits!r} is not 5, 6, 7 or 8")
    letter = _PARITIES.get(str(parity).strip().upper()) if isinstance(parity, str) else None
    if letter is None:
        raise SerialSettingsError(
            f"parity {parity!r} is not one of N, E, O, M, S (or NONE, EVEN, ODD, MARK, SPACE)"
        )
    if isinstance(stop_bits, bool) or not isinstance(stop_bits, int | float | str):
        raise SerialSettingsError(f"stopBits {stop_bits!r} is not 1, 1.5 or 2")
    try:
        stops = _STOP_BITS[float(stop_bits)]
    except (ValueError, KeyError):
        raise SerialSettingsError(f"stopBits {stop_bits!r} is not 1, 1.5 or 2") from None
    return SerialSettings(baud_rate, data_bits, letter, float(stops))


def _write(port: str, settings: SerialSettings, data: bytes) -> int:
    try:
        with serial.serial_for_url(
            port,
            baudrate=settings.baud_rate,
            bytesize=settings.data_bits,
            parity=settings.parity,
            stopbits=settings.stop_bits,
            timeout=TIMEOUT_SECONDS,
            write_timeout=TIMEOUT_SECONDS,
        ) as connection:
            written = connection.write(data)
            connection.flush()
            return int(written if written is not None else len(data))
    except (serial.SerialException, OSError) as error:
        raise SerialPortUnavailable(f"serial port {port} is not available: {error}") from None
    except ValueError as error:
        # pyserial raises ValueError for URLs it cannot parse, such as unknown protocols
        raise SerialPortUnavailable(f"serial port {port!r} cannot be used: {error}") from None


class PySerialPorts:
    def check_settings(
        self, baud_rate: object, data_bits: object, parity: object, stop_bits: object
    ) -> SerialSettings:
        return validate_settings(baud_rate, data_bits, parity, stop_bits)

    async def open_and_write(self, port: str, settings: SerialSettings, data: bytes) -> int:
        if not port.strip():
            raise SerialPortUnavailable("no serial port is configured")
        log.info("writing %d bytes to %s", len(data), port)
        # pyserial blocks; keep the event loop free
        return await asyncio.to_thread(_write, port, settings, data)


@dataclass
class RecordingSerialPorts:
    """Validates like the real one and records writes instead of sending them."""

    writes: list[tuple[str, SerialSettings, bytes]] = field(default_factory=list)

    def check_settings(
        self, baud_rate: object, data_bits: object, parity: object, stop_bits: object
    ) -> SerialSettings:
        return validate_settings(baud_rate, data_bits, parity, stop_bits)

    async def open_and_write(self, port: str, settings: SerialSettings, data: bytes) -> int:
        self.writes.append((port, settings, data))
        return len(data)
