"""The agent reports the machine's udev devices and its monitor; the host lists them."""

import os
from pathlib import Path

import pytest
import pyudev

from tests.agent.conftest import AgentFactory, agent_online
from tests.support.edid import edid
from tests.support.server import ServerProcess
from tests.support.waiting import wait_until

FIELDS = {
    "device_file",
    "devtype",
    "driver",
    "is_initialized",
    "name",
    "number",
    "property_keys",
    "subsystem",
    "sysfs_path",
}


def machine_devices() -> dict[str, pyudev.Device]:
    context = pyudev.Context()
    found = {}
    for subsystem in ("usb", "input", "tty", "drm", "sound"):
        for device in context.list_devices(subsystem=subsystem):
            found[device.sys_path] = device
    return found


def listing(host: ServerProcess, seat: str) -> list[dict]:
    """The seat's devices; none while its agent has not reported them (404)."""
    response = host.call("GET", f"/network/devices/{seat}")
    if response.status_code == 404:
        return []
    assert response.status_code == 200, response.text
    return response.json()["devices"]


def test_a_station_appears_when_its_agent_connects(
    host: ServerProcess, agents: AgentFactory
) -> None:
    assert host.station("only-agent") is None
    agents(host, "only-agent", "--no-browser", "--name", "Kiosk by the door")
    station = agent_online(host, "only-agent")
    assert station["status"] == "AVAILABLE"
    assert station["isOnline"] is True
    assert station["name"] == "Kiosk by the door"
    assert station["firmware"].startswith("tilewall-agent/")
    assert station["agent"]["browser"] is False
    assert station["agent"]["power"] == "none"


def test_udev_devices_of_this_machine_are_listed(host: ServerProcess, agents: AgentFactory) -> None:
    agents(host, "devices-1", "--no-browser")
    agent_online(host, "devices-1")
    devices = wait_until(lambda: host.call("GET", "/network/devices/devices-1").status_code == 200)
    assert devices
    listed = {d["sysfs_path"]: d for d in listing(host, "devices-1")}
    here = machine_devices()
    assert listed, "the agent listed no device"
    assert set(listed) == set(here)
    for path, item in listed.items():
        assert set(item) == FIELDS
        assert Path(path).is_dir(), path
        device = here[path]
        assert item["name"] == device.sys_name
        assert item["subsystem"] == device.subsystem
        assert item["device_file"] == device.device_node
        assert item["number"] == device.sys_number
        assert item["property_keys"]["DEVPATH"] == device.properties["DEVPATH"]
        assert all(isinstance(v, str) for v in item["property_keys"].values())
        assert isinstance(item["is_initialized"], bool)


def test_no_agent_no_devices(host: ServerProcess) -> None:
    assert host.call("GET", "/network/devices/nobody-here").status_code == 404


def hotplug_device() -> Path | None:
    """A tty whose uevent can be written: the kernel then sends a real hot-plug event."""
    for name in ("tty63", "tty62", "ttyS3"):
        uevent = Path("/sys/class/tty") / name / "uevent"
        if uevent.exists() and os.access(uevent, os.W_OK):
            return uevent
    return None


@pytest.mark.skipif(hotplug_device() is None, reason="needs a writable tty uevent (root)")
def test_hot_plug_events_update_the_listing(host: ServerProcess, agents: AgentFactory) -> None:
    uevent = hotplug_device()
    assert uevent is not None
    path = str(uevent.parent.resolve())
    agents(host, "hotplug-1", "--no-browser")
    agent_online(host, "hotplug-1")
    wait_until(lambda: path in {d["sysfs_path"] for d in listing(host, "hotplug-1")}, 15)
    try:
        uevent.write_text("remove")
        wait_until(
            lambda: path not in {d["sysfs_path"] for d in listing(host, "hotplug-1")},
            10,
            what="the removed device to leave the listing",
        )
    finally:
        uevent.write_text("add")
    wait_until(
        lambda: path in {d["sysfs_path"] for d in listing(host, "hotplug-1")},
        10,
        what="the added device to come back",
    )


def test_the_monitor_from_its_edid_is_the_stations_display(
    host: ServerProcess, agents: AgentFactory, tmp_path: Path
) -> None:
    sysfs = tmp_path / "sys"
    connector = sysfs / "class" / "drm" / "card1-HDMI-A-1"
    connector.mkdir(parents=True)
    (connector / "status").write_text("connected\n")
    (connector / "edid").write_bytes(edid("SAMSUNG", "H4ZR800123"))
    unplugged = sysfs / "class" / "drm" / "card1-HDMI-A-2"
    unplugged.mkdir()
    (unplugged / "status").write_text("disconnected\n")
    (unplugged / "edid").write_bytes(b"")
    agents(host, "edid-1", "--no-browser", "--sysfs", str(sysfs))
    station = wait_until(
        lambda: (s := host.station("edid-1")) and s.get("agent") and s["devices"] and s,
        20,
        what="the station's devices",
    )
    displays = [d for d in station["devices"] if d["type"] == "DISPLAY"]
    assert displays == [
        {
            "id": {"value": "edid-1:card1-HDMI-A-1"},
            "type": "DISPLAY",
            "vid": "SAM",
            "pid": "0f35",
            "manufacturer": "Samsung",
            "model": "SAMSUNG",
            "serial": "H4ZR800123",
        }
    ]
