import asyncio
import socket

import pytest
import serial

from tilewall.platform.serialports import (
    PySerialPorts,
    RecordingSerialPorts,
    SerialPortUnavailable,
    SerialSettingsError,
    validate_settings,
)

NINE_SIX_N_ONE = validate_settings(9600, 8, "N", 1)


async def test_bytes_arrive_exactly_over_socket_url() -> None:
    received = bytearray()
    done = asyncio.Event()

    async def on_connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        received.extend(await reader.read())
        writer.close()
        done.set()

    server = await asyncio.start_server(on_connect, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    payload = bytes(range(256)) + b"\x02PWR ON\x03\r\n"
    async with server:
        written = await PySerialPorts().open_and_write(
            f"socket://127.0.0.1:{port}", NINE_SIX_N_ONE, payload
        )
        await asyncio.wait_for(done.wait(), 5)
    assert written == len(payload)
    assert bytes(received) == payload


async def test_refused_connection_is_unavailable() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound but not listening: connections are refused
        with pytest.raises(SerialPortUnavailable):
            await PySerialPorts().open_and_write(f"socket://127.0.0.1:{port}", NINE_SIX_N_ONE, b"x")


@pytest.mark.parametrize("port", ["/dev/tilewall-no-such-tty", "nosuch://x", ""])
async def test_missing_ports_are_unavailable(port: str) -> None:
    with pytest.raises(SerialPortUnavailable):
        await PySerialPorts().open_and_write(port, NINE_SIX_N_ONE, b"x")


def test_settings_are_normalised() -> None:
    s = validate_settings(115200, 7, "even", 1.5)
    assert (s.baud_rate, s.data_bits, s.parity, s.stop_bits) == (115200, 7, serial.PARITY_EVEN, 1.5)
    for name, letter in [("NONE", "N"), ("odd", "O"), ("M", "M"), ("space", "S")]:
        assert validate_settings(9600, 8, name, 2).parity == letter
    assert validate_settings(9600, 8, "N", "1").stop_bits == 1.0


@pytest.mark.parametrize(
    ("baud", "bits", "parity", "stops", "field"),
    [
        (0, 8, "N", 1, "baudRate"),
        (10_000_000, 8, "N", 1, "baudRate"),
        ("9600", 8, "N", 1, "baudRate"),
        (True, 8, "N", 1, "baudRate"),
        (9600, 9, "N", 1, "dataBits"),
        (9600, 4, "N", 1, "dataBits"),
        (9600, 8, "X", 1, "parity"),
        (9600, 8, None, 1, "parity"),
        (9600, 8, "N", 3, "stopBits"),
        (9600, 8, "N", "one", "stopBits"),
        (9600, 8, "N", True, "stopBits"),
    ],
)
def test_bad_settings_are_refused(
    baud: object, bits: object, parity: object, stops: object, field: str
) -> None:
    # the settings a port is opened with can only come from here
    for ports in (PySerialPorts(), RecordingSerialPorts()):
        with pytest.raises(SerialSettingsError, match=field):
            ports.check_settings(baud, bits, parity, stops)
    assert issubclass(SerialSettingsError, ValueError)


async def test_recording_ports_validate_and_record() -> None:
    ports = RecordingSerialPorts()
    settings = ports.check_settings(9600, 8, "N", 1)
    assert await ports.open_and_write("socket://display:4001", settings, b"ON") == 2
    assert ports.writes == [("socket://display:4001", settings, b"ON")]
    with pytest.raises(SerialSettingsError):
        ports.check_settings(9600, 8, "Q", 1)
