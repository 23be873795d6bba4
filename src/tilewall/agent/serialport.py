"""Writing the host's serial commands to the kiosk's local port (pyserial)."""

import asyncio
import logging

import serial

log = logging.getLogger(__name__)

PARITIES = {"N", "E", "O", "M", "S"}
STOP_BITS = {
    1.0: serial.STOPBITS_ONE,
    1.5: serial.STOPBITS_ONE_POINT_FIVE,
    2.0: serial.STOPBITS_TWO,
}
#: seconds a write may take to go out
WRITE_TIMEOUT_S = 10.0


class SerialError(Exception):
    """The bytes could not be written; the message says why."""


def _write(
    port: str, baud_rate: int, data_bits: int, parity: str, stop_bits: float, data: bytes
) -> None:
    if parity not in PARITIES or data_bits not in (5, 6, 7, 8) or stop_bits not in STOP_BITS:
        raise SerialError(f"settings not supported: {data_bits} {parity} {stop_bits:g}")
    try:
        with serial.Serial(
            port,
            baudrate=baud_rate,
            bytesize=data_bits,
            parity=parity,
            stopbits=STOP_BITS[stop_bits],
            timeout=WRITE_TIMEOUT_S,
            write_timeout=WRITE_TIMEOUT_S,
        ) as connection:
            connection.write(data)
            connection.flush()  # returns once the bytes are out (tcdrain)
    except (serial.SerialException, OSError, ValueError) as error:
        raise SerialError(f"{port}: {error}") from None


async def write(
    port: str, baud_rate: int, data_bits: int, parity: str, stop_bits: float, data: bytes
) -> None:
    """Open ``port`` with these settings, write ``data``, wait until it is sent."""
    await asyncio.to_thread(_write, port, baud_rate, data_bits, parity, stop_bits, data)
    log.info(
        "wrote %d bytes to %s (%d %d%s%g)", len(data), port, baud_rate, data_bits, parity, stop_bits
    )
