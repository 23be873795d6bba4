"""The agent's pieces on their own: EDID, power command lines, sound cards, addresses,
the pauses between failing tries."""

from pathlib import Path
from typing import Any

import pytest

from tests.support.edid import edid as make_edid
from tilewall.agent import devices, edid
from tilewall.agent.backoff import Backoff
from tilewall.agent.power import PowerError, invocation
from tilewall.agent.service import endpoints


def test_edid_fields() -> None:
    monitor = edid.parse("card0-DP-1", make_edid("DELL U2720Q", "", pnp="DEL", product=0xA0F4))
    assert monitor.pnp_id == "DEL"
    assert monitor.manufacturer == "Dell"
    assert monitor.model == "DELL U2720Q"
    assert monitor.product_code == 0xA0F4
    assert monitor.serial == str(0x01020304)  # no serial text: the number


def test_edid_refuses_what_is_not_one() -> None:
    blob = bytearray(make_edid("X", "Y"))
    blob[127] ^= 1
    with pytest.raises(edid.EdidError, match="checksum"):
        edid.parse("c", bytes(blob))
    with pytest.raises(edid.EdidError):
        edid.parse("c", b"\x00" * 128)
    with pytest.raises(edid.EdidError):
        edid.parse("c", make_edid("X", "Y")[:100])


def test_connected_monitors_skip_bad_and_disconnected(tmp_path: Path) -> None:
    drm = tmp_path / "class" / "drm"
    for name, status, blob in (
        ("card0-HDMI-A-1", "connected", make_edid("GOOD", "1")),
        ("card0-HDMI-A-2", "connected", b"\x00garbage"),
        ("card0-HDMI-A-3", "disconnected", make_edid("OFF", "2")),
    ):
        (drm / name).mkdir(parents=True)
        (drm / name / "status").write_text(status)
        (drm / name / "edid").write_bytes(blob)
    assert [m.model for m in edid.connected_monitors(tmp_path)] == ["GOOD"]
    assert edid.connected_monitors(tmp_path / "none") == []


def test_power_command_lines() -> None:
    assert invocation("cec", "off").argv == ["cec-client", "-s", "-d", "1"]
    assert invocation("cec", "off").stdin == b"standby 0\n"
    assert invocation("cec", "on").stdin == b"on 0\n"
    assert invocation("ddc", "off").argv == ["ddcutil", "setvcp", "d6", "04"]
    assert invocation("ddc", "on").argv == ["ddcutil", "setvcp", "d6", "01"]
    wayland = {"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}
    assert invocation("dpms", "off", env=wayland).argv == ["wlopm", "--off", "*"]
    assert invocation("dpms", "on", env={"DISPLAY": ":0"}).argv == ["xset", "dpms", "force", "on"]
    with pytest.raises(PowerError, match="WAYLAND_DISPLAY"):
        invocation("dpms", "off", env={})
    command = invocation("command", "off", "vcgencmd display_power {state}")
    assert command.argv == ["/bin/sh", "-c", "vcgencmd display_power off"]
    with pytest.raises(ValueError):
        invocation("cec", "standby")


class Usb:
    attributes = {
        "idVendor": b"0d8c",
        "idProduct": b"0014",
        "manufacturer": b"C-Media Electronics Inc.",
        "product": b"USB Audio Device",
        "serial": b"A1B2",
    }


class Card:
    def __init__(self, name: str, usb: Any, subsystem: str = "sound") -> None:
        self.sys_name = name
        self.subsystem = subsystem
        self.properties = {"ID_MODEL_FROM_DATABASE": "from the database"}
        self.attributes = {"id": b"vc4hdmi0"}
        self._usb = usb

    def find_parent(self, subsystem: str, devtype: str) -> Any:
        assert (subsystem, devtype) == ("usb", "usb_device")
        return self._usb


def test_sound_cards_are_media_devices() -> None:
    item = devices.media_item("seat", Card("card1", Usb()))
    assert item is not None
    assert (item.id, item.type, item.vid, item.pid) == (
        "seat:sound:card1",
        "MEDIA_DEVICE",
        "0d8c",
        "0014",
    )
    assert (item.manufacturer, item.model, item.serial) == (
        "C-Media Electronics Inc.",
        "USB Audio Device",
        "A1B2",
    )
    onboard = devices.media_item("seat", Card("card0", None))
    assert onboard is not None and onboard.model == "from the database" and onboard.vid == ""
    assert devices.media_item("seat", Card("pcmC0D0p", Usb())) is None
    assert devices.media_item("seat", Card("card2", Usb(), subsystem="usb")) is None


def test_host_addresses() -> None:
    assert endpoints("http://wall:9000/") == ("ws://wall:9000/receiver/ws", "http://wall:9000")
    assert endpoints("https://wall.example") == (
        "wss://wall.example/receiver/ws",
        "https://wall.example",
    )
    assert endpoints("wall:9000")[0] == "ws://wall:9000/receiver/ws"
    with pytest.raises(ValueError):
        endpoints("ftp://wall")


def test_the_agent_imports_nothing_of_the_server() -> None:
    """``tilewall agent`` runs on a kiosk that installed tilewall[agent] only."""
    import json
    import subprocess
    import sys

    probe = (
        "import sys, json\n"
        "from tilewall.cli import main\n"
        "try:\n"
        "    main(['agent', '--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "import tilewall.agent.service, tilewall.agent.devices\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    modules = json.loads(result.stdout.splitlines()[-1])
    server = {"litestar", "sqlalchemy", "uvicorn", "granian", "alembic", "aiosqlite", "argon2"}
    assert not {m.split(".")[0] for m in modules} & server
    ours = {m for m in modules if m.startswith("tilewall.")}
    assert not {
        m
        for m in ours
        if m.split(".")[1] in ("server", "api", "receivers", "store", "platform", "config")
    }
    assert "tilewall.agent.service" in ours


def test_pauses_double_up_to_the_longest_and_start_again_after_a_success() -> None:
    backoff = Backoff(first=1.0, longest=30.0)
    assert [backoff.pause() for _ in range(7)] == [1.0, 2.0, 4.0, 8.0, 16.0, 30.0, 30.0]
    backoff.reset()
    assert backoff.pause() == 1.0
