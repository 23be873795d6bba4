"""Serial commands for a seat go out of its agent's port, with the settings given."""

import base64
import os
import shutil
import subprocess
import termios
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.agent.conftest import AgentFactory, agent_online
from tests.support.server import ServerProcess
from tests.support.waiting import wait_until

pytestmark = pytest.mark.skipif(shutil.which("socat") is None, reason="needs socat")


class PtyPair:
    """Two ends of a null-modem cable: what is written to ``near`` arrives at ``far``."""

    def __init__(self, folder: Path) -> None:
        self.near, self.far = folder / "near", folder / "far"
        self.process = subprocess.Popen(
            [
                "socat",
                f"pty,raw,echo=0,link={self.near}",
                f"pty,raw,echo=0,link={self.far}",
            ],
            stderr=subprocess.DEVNULL,
        )
        wait_until(lambda: self.near.exists() and self.far.exists(), 10)
        self.reader = os.open(self.far, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)

    def read(self, count: int, timeout: float = 10.0) -> bytes:
        got = b""
        deadline = time.monotonic() + timeout
        while len(got) < count and time.monotonic() < deadline:
            try:
                got += os.read(self.reader, count - len(got))
            except BlockingIOError:
                time.sleep(0.02)
        return got

    def near_settings(self) -> list[int]:
        """The termios settings of the near end, as the last writer left them."""
        fd = os.open(self.near, os.O_RDONLY | os.O_NOCTTY | os.O_NONBLOCK)
        try:
            return termios.tcgetattr(fd)
        finally:
            os.close(fd)

    def close(self) -> None:
        os.close(self.reader)
        self.process.terminate()
        self.process.wait(5)


@pytest.fixture
def cable(tmp_path: Path) -> Iterator[PtyPair]:
    pair = PtyPair(tmp_path)
    yield pair
    pair.close()


def command(
    data: bytes, baud: int = 9600, bits: int = 8, parity: str = "N", stop: float = 1
) -> dict:
    return {
        "serialSettings": {"baudRate": baud, "dataBits": bits, "parity": parity, "stopBits": stop},
        "transmit": {"base64_data": base64.b64encode(data).decode()},
    }


def test_bytes_arrive_with_the_settings(
    host: ServerProcess, agents: AgentFactory, cable: PtyPair
) -> None:
    agent = agents(host, "serial-1", "--no-browser", "--serial-port", str(cable.near))
    station = agent_online(host, "serial-1")
    assert station["agent"]["serialPort"] == str(cable.near)
    power_on = b"\x08\x22\x00\x00\x00\x02\xd4"
    record = host.ok("POST", "/serial/serial-1", json=command(power_on, 9600, 7, "E", 2))
    assert record["delivered"] is True
    # answered once written: the bytes are there already
    assert cable.read(len(power_on), timeout=2) == power_on
    # a pty keeps the speed and the stop bits; it forces 8 bits, no parity (Linux), so
    # those are checked where the agent asks for them (below, and in its log)
    _iflag, _oflag, cflag, _lflag, ispeed, ospeed, _cc = cable.near_settings()
    assert ispeed == ospeed == termios.B9600
    assert cflag & termios.CSTOPB
    assert "(9600 7E2)" in agent.log()

    again = b"ka 01 01\r"
    host.ok("POST", "/serial/serial-1", json=command(again, 115200, 8, "N", 1))
    assert cable.read(len(again)) == again
    _iflag, _oflag, cflag, _lflag, ispeed, ospeed, _cc = cable.near_settings()
    assert ispeed == ospeed == termios.B115200
    assert not cflag & termios.CSTOPB


def test_the_agent_asks_the_tty_for_the_settings(
    cable: PtyPair, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the agent's writer asks of the real tty (before a pty masks size and parity)."""
    import asyncio

    from tilewall.agent import serialport

    asked: list[list[int]] = []
    real = termios.tcsetattr

    def spy(fd: int, when: int, attributes: list[Any]) -> None:
        asked.append(list(attributes[:6]))
        real(fd, when, attributes)

    monkeypatch.setattr(termios, "tcsetattr", spy)
    asyncio.run(serialport.write(str(cable.near), 4800, 7, "O", 1.0, b"odd"))
    assert cable.read(3) == b"odd"
    cflag, ispeed = asked[-1][2], asked[-1][4]
    assert ispeed == termios.B4800
    assert cflag & termios.CSIZE == termios.CS7
    assert cflag & termios.PARENB and cflag & termios.PARODD
    assert not cflag & termios.CSTOPB
    with pytest.raises(serialport.SerialError, match="not supported"):
        asyncio.run(serialport.write(str(cable.near), 4800, 9, "N", 1.0, b"x"))


def test_no_port_409_agent_offline_503(
    host: ServerProcess, agents: AgentFactory, cable: PtyPair
) -> None:
    without = agents(host, "serial-none", "--no-browser")
    agent_online(host, "serial-none")
    response = host.call("POST", "/serial/serial-none", json=command(b"x"))
    assert response.status_code == 409, response.text
    assert "--serial-port" in response.json()["message"]
    without.stop()

    agent = agents(host, "serial-gone", "--no-browser", "--serial-port", str(cable.near))
    agent_online(host, "serial-gone")
    agent.stop()
    host.wait_station("serial-gone", lambda d: d["agent"] is None)
    response = host.call("POST", "/serial/serial-gone", json=command(b"x"))
    assert response.status_code == 503, response.text
    assert "offline" in response.json()["message"]


def test_an_unusable_port_answers_503_with_the_reason(
    host: ServerProcess, agents: AgentFactory, tmp_path: Path
) -> None:
    agents(host, "serial-bad", "--no-browser", "--serial-port", str(tmp_path / "ttyUSB9"))
    agent_online(host, "serial-bad")
    response = host.call("POST", "/serial/serial-bad", json=command(b"x"))
    assert response.status_code == 503
    assert "ttyUSB9" in response.json()["message"]
    records = host.ok("GET", "/serial/serial-bad")["serialCommands"]
    assert records[-1]["delivered"] is False and "ttyUSB9" in records[-1]["error"]


def test_a_host_side_port_wins(
    host: ServerProcess, agents: AgentFactory, cable: PtyPair, tmp_path: Path
) -> None:
    (tmp_path / "host-side").mkdir()
    host_cable = PtyPair(tmp_path / "host-side")
    try:
        agents(host, "serial-both", "--no-browser", "--serial-port", str(cable.near))
        agent_online(host, "serial-both")
        host.ok("PUT", "/serial/serial-both/port", json={"port": os.path.realpath(host_cable.near)})
        host.ok("POST", "/serial/serial-both", json=command(b"HOST"))
        assert host_cable.read(4) == b"HOST"
        assert cable.read(1, timeout=1) == b""
        host.ok("PUT", "/serial/serial-both/port", json={"port": ""})
        host.ok("POST", "/serial/serial-both", json=command(b"AGENT"))
        assert cable.read(5) == b"AGENT"
    finally:
        host_cable.close()
