"""Serial commands over HTTP: validation, ports, delivery to a network serial server,
and recording per seat."""

import base64
from typing import Any

import pytest

from tests.support.app import SharedApp, reopened_settings
from tests.support.fakes import SerialServer
from tests.support.http import error, ok
from tests.support.singletons import SingletonMixin
from tests.support.topology import register, unique
from tilewall.host.errors import Unavailable
from tilewall.host.machine.facts import SerialSettings
from tilewall.host.peripherals.serial import KEEP, MAX_BYTES

SEAT = "seat-serial"


def command(data: bytes = b"\x02PWR ON\x03", **settings: Any) -> dict[str, Any]:
    serial: dict[str, Any] = {"baudRate": 9600, "dataBits": 8, "parity": "N", "stopBits": 1}
    serial.update(settings)
    return {"serialSettings": serial, "transmit": {"base64_data": base64.b64encode(data).decode()}}


def with_data(b64: str) -> dict[str, Any]:
    body = command()
    body["transmit"]["base64_data"] = b64
    return body


_servers: list[SerialServer] = []


def wired(api, seat: str = SEAT, ip: str = "192.0.2.10", port: str = "") -> None:
    """A station whose serial port is a network serial server on loopback."""
    if not port:
        if not _servers:
            _servers.append(SerialServer())
        port = f"socket://127.0.0.1:{_servers[0].port}"
    register(api, seat, ip)
    ok(api.put(f"/serial/{seat}/port", json={"port": port}))


def test_unknown_seat(api):
    error(api.post("/serial/nobody", json=command()), 404, "nobody")
    error(api.get("/serial/nobody"), 404, "nobody")
    # the seat is looked up before the values are checked
    error(api.post("/serial/nobody", json=command(baudRate=0)), 404)


def test_send_records_and_answers_the_record(api):
    wired(api)
    body = ok(api.post(f"/serial/{SEAT}", json=command(b"\x01\x02", parity="even")))
    assert body["seatID"] == SEAT
    assert body["serialSettings"] == {"baudRate": 9600, "dataBits": 8, "parity": "E", "stopBits": 1}
    assert body["transmit"] == {"base64_data": base64.b64encode(b"\x01\x02").decode()}
    assert body["delivered"] is True
    assert body["error"] == ""
    assert body["atMs"] > 0
    listed = ok(api.get(f"/serial/{SEAT}"))["serialCommands"]
    assert listed == [body]


def test_records_in_order_per_seat(api):
    wired(api)
    wired(api, "seat-other", "192.0.2.11")
    for i in range(3):
        ok(api.post(f"/serial/{SEAT}", json=command(bytes([i + 1]))))
    ok(api.post("/serial/seat-other", json=command(b"x")))
    mine = ok(api.get(f"/serial/{SEAT}"))["serialCommands"]
    assert [base64.b64decode(c["transmit"]["base64_data"]) for c in mine] == [
        b"\x01",
        b"\x02",
        b"\x03",
    ]
    assert len(ok(api.get("/serial/seat-other"))["serialCommands"]) == 1


def test_a_seat_without_commands_lists_none(api):
    register(api, SEAT, "192.0.2.10")
    assert ok(api.get(f"/serial/{SEAT}")) == {"serialCommands": []}


def test_keeps_the_last_commands(api, data_dir):
    wired(api, port="loop://")  # pyserial's loopback: a hundred quick writes
    for i in range(KEEP + 2):
        ok(api.post(f"/serial/{SEAT}", json=command(i.to_bytes(2, "big"))))
    listed = ok(api.get(f"/serial/{SEAT}"))["serialCommands"]
    assert len(listed) == KEEP
    assert base64.b64decode(listed[0]["transmit"]["base64_data"]) == (2).to_bytes(2, "big")
    assert base64.b64decode(listed[-1]["transmit"]["base64_data"]) == (KEEP + 1).to_bytes(2, "big")
    assert len(reopened_settings(data_dir)[f"serial_log:{SEAT}"]) == KEEP


def test_accepted_settings(api):
    wired(api)
    cases = [
        ({"parity": "n"}, "N"),
        ({"parity": "Odd"}, "O"),
        ({"parity": "MARK"}, "M"),
        ({"parity": "space"}, "S"),
        ({"parity": "e"}, "E"),
    ]
    for settings, parity in cases:
        assert (
            ok(api.post(f"/serial/{SEAT}", json=command(b"\x02PWR ON\x03", **settings)))[
                "serialSettings"
            ]["parity"]
            == parity
        )
    got = ok(
        api.post(f"/serial/{SEAT}", json=command(stopBits=1.5, dataBits=5, baudRate=4_000_000))
    )
    assert got["serialSettings"] == {
        "baudRate": 4_000_000,
        "dataBits": 5,
        "parity": "N",
        "stopBits": 1.5,
    }
    assert (
        ok(api.post(f"/serial/{SEAT}", json=command(stopBits=2)))["serialSettings"]["stopBits"] == 2
    )
    ok(api.post(f"/serial/{SEAT}", json=command(b"x" * MAX_BYTES)))


INVALID = (
    (command(baudRate=0), "baudRate"),
    (command(baudRate=-9600), "baudRate"),
    (command(baudRate=4_000_001), "baudRate"),
    (command(baudRate="fast"), "baudRate"),
    (command(dataBits=4), "dataBits"),
    (command(dataBits=9), "dataBits"),
    (command(parity="X"), "parity"),
    (command(parity=""), "parity"),
    (command(parity=1), "parity"),
    (command(stopBits=0), "stopBits"),
    (command(stopBits=3), "stopBits"),
    (command(stopBits=1.25), "stopBits"),
    (with_data("not base64!"), "base64_data"),
    (with_data("QUJD\n"), "base64_data"),
    (with_data("QUJ"), "base64_data"),
    (with_data(""), "base64_data"),
    (command(b"x" * (MAX_BYTES + 1)), "base64_data"),
    ({"serialSettings": command()["serialSettings"]}, "transmit"),
    ({"transmit": {"base64_data": "QUJD"}}, "serialSettings"),
    ({"serialSettings": {"baudRate": 9600}, "transmit": {"base64_data": "QUJD"}}, "dataBits"),
)


def test_invalid_commands(api):
    register(api, SEAT, "192.0.2.10")
    for body, field in INVALID:
        error(api.post(f"/serial/{SEAT}", json=body), 400, field)
    assert ok(api.get(f"/serial/{SEAT}")) == {"serialCommands": []}


class Recorder:
    def __init__(self, fail: bool = False) -> None:
        self.sent: list[tuple[str, SerialSettings, bytes]] = []
        self.fail = fail

    async def write(self, seat_id: str, settings: SerialSettings, data: bytes) -> None:
        if self.fail:
            raise Unavailable("no serial port on that receiver")
        self.sent.append((seat_id, settings, data))


def test_a_plugged_in_writer_sends(api, host):
    register(api, SEAT, "192.0.2.10")
    writer = Recorder()
    host.serial.writer = writer
    body = ok(api.post(f"/serial/{SEAT}", json=command(b"ON", parity="odd", stopBits=2)))
    assert body["delivered"] is True
    assert writer.sent == [(SEAT, SerialSettings(9600, 8, "O", 2.0), b"ON")]


def test_a_failing_writer_is_recorded_and_reported(api, host):
    register(api, SEAT, "192.0.2.10")
    host.serial.writer = Recorder(fail=True)
    error(api.post(f"/serial/{SEAT}", json=command()), 503, "no serial port")
    [record] = ok(api.get(f"/serial/{SEAT}"))["serialCommands"]
    assert record["delivered"] is False
    assert "no serial port" in record["error"]


def test_needs_a_session(sessionless):
    assert sessionless.post(f"/serial/{SEAT}", json=command()).status_code == 401
    assert sessionless.get(f"/serial/{SEAT}").status_code == 401


def test_bytes_arrive_exactly_at_a_network_serial_server(api):
    import time

    server = SerialServer()
    try:
        wired(api, port=f"socket://127.0.0.1:{server.port}")
        assert ok(api.get(f"/serial/{SEAT}/port")) == {"port": f"socket://127.0.0.1:{server.port}"}
        payload = bytes(range(256)) * 4
        body = ok(api.post(f"/serial/{SEAT}", json=command(payload, baudRate=115200)))
        assert body["delivered"] is True
        deadline = time.monotonic() + 5
        while len(server.received) < len(payload) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert bytes(server.received) == payload
    finally:
        server.close()


def test_a_seat_without_a_port_is_refused_and_recorded(api):
    register(api, SEAT, "192.0.2.10")
    error(api.post(f"/serial/{SEAT}", json=command()), 409, "no serial port")
    listed = ok(api.get(f"/serial/{SEAT}"))["serialCommands"]
    assert len(listed) == 1 and listed[0]["delivered"] is False and listed[0]["error"]


def test_an_unreachable_port_answers_503(api):
    import socket

    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    wired(api, port=f"socket://127.0.0.1:{free}")
    error(api.post(f"/serial/{SEAT}", json=command()), 503)
    assert ok(api.get(f"/serial/{SEAT}"))["serialCommands"][-1]["delivered"] is False


class TestSerialPort(SharedApp, SingletonMixin):
    """The serial port of a receiver: a device under /dev, or a network serial server."""

    def where(self, api):
        return f"/serial/{register(api, unique('seat').replace(' ', '-')).seat_id}/port"

    def initial(self, api):
        return {"port": ""}

    def valid_body(self, api):
        return {"port": "/dev/ttyUSB0"}

    def invalid_bodies(self, api):
        ports = [
            "/etc/passwd",
            "/dev/../etc/passwd",
            "ttyUSB0",
            "http://x:1",
            "socket://nohost",
            "file:///dev/ttyS0",
        ]
        return [({"port": port}, 400, ()) for port in ports]

    def test_cleared_with_an_empty_port(self, api):
        where = self.where(api)
        assert ok(api.put(where, json={"port": "/dev/ttyUSB0"})) == {"port": "/dev/ttyUSB0"}
        assert ok(api.put(where, json={"port": ""})) == {"port": ""}
        assert ok(api.get(where)) == {"port": ""}

    def test_unknown_seat_404(self, api):
        error(api.put("/serial/nobody/port", json={"port": "loop://"}), 404)


def test_a_malformed_port_url_is_refused_not_a_crash(api):
    from tilewall.host.errors import Invalid
    from tilewall.host.peripherals.serial import check_port

    with pytest.raises(Invalid):
        check_port("socket://[::1:4000")
    seat = register(api, unique("seat").replace(" ", "-")).seat_id
    error(api.put(f"/serial/{seat}/port", json={"port": "socket://[::1:4000"}), 400)
