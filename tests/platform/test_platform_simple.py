"""Host name, time zone, power and remote access, in both faces."""

import socket
import zoneinfo
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tilewall.platform.errors import CommandFailed
from tilewall.platform.hostname import (
    InvalidHostName,
    LinuxHostName,
    SimulatedHostName,
    validate_hostname,
)
from tilewall.platform.power import LinuxPower, SimulatedPower
from tilewall.platform.remote import LinuxRemoteAccess, SimulatedRemoteAccess
from tilewall.platform.runner import CommandResult, RecordingRunner
from tilewall.platform.settings import MemorySettingsStore
from tilewall.platform.timezone import (
    LinuxTimeZones,
    SimulatedTimeZones,
    UnknownTimeZone,
    offset_minutes,
    read_system_zone,
)

# --- host name


async def test_linux_hostname_reads_the_machine_and_sets_with_hostnamectl(
    recorder: RecordingRunner,
) -> None:
    adapter = LinuxHostName(recorder)
    assert adapter.get() == socket.gethostname()
    await adapter.set(" wall-host-1 ")
    assert recorder.commands == [["hostnamectl", "set-hostname", "wall-host-1"]]


async def test_linux_hostname_failure_is_raised() -> None:
    runner = RecordingRunner({"hostnamectl": CommandResult(1, "", "Access denied")})
    with pytest.raises(CommandFailed):
        await LinuxHostName(runner).set("lobby")


async def test_simulated_hostname_is_stored_and_read_back(store: MemorySettingsStore) -> None:
    adapter = SimulatedHostName(store)
    assert adapter.get() == socket.gethostname()
    await adapter.set("lobby.example.org")
    assert adapter.get() == "lobby.example.org"
    assert SimulatedHostName(store).get() == "lobby.example.org"


@pytest.mark.parametrize(
    "bad", ["", "-lead", "trail-", "under_score", "a..b", "a" * 64 + ".b", "spa ce", "x" * 65]
)
async def test_invalid_hostnames_change_nothing(
    bad: str, store: MemorySettingsStore, recorder: RecordingRunner
) -> None:
    with pytest.raises(InvalidHostName):
        await SimulatedHostName(store).set(bad)
    with pytest.raises(InvalidHostName):
        await LinuxHostName(recorder).set(bad)
    assert store.values == {}
    assert recorder.commands == []


def test_valid_hostnames() -> None:
    assert validate_hostname("a") == "a"
    assert validate_hostname("wall-01.lobby") == "wall-01.lobby"


# --- time zone


def test_available_zones_are_the_iana_database_sorted(recorder: RecordingRunner) -> None:
    zones = LinuxTimeZones(recorder).available()
    assert "Europe/Berlin" in zones
    assert zones == sorted(zoneinfo.available_timezones())


def test_current_zone_reads_the_machine(recorder: RecordingRunner) -> None:
    assert LinuxTimeZones(recorder).current() == read_system_zone()


def test_current_zone_from_the_localtime_link_then_timezone_file(tmp_path: Path) -> None:
    link = tmp_path / "localtime"
    link.symlink_to("/usr/share/zoneinfo/America/New_York")
    legacy = tmp_path / "timezone"
    legacy.write_text("Europe/Berlin\n")
    assert read_system_zone(link, legacy) == "America/New_York"
    assert read_system_zone(tmp_path / "missing", legacy) == "Europe/Berlin"
    assert read_system_zone(tmp_path / "missing", tmp_path / "missing") == "UTC"


def test_offset_is_minutes_east_of_utc() -> None:
    winter = datetime(2024, 1, 15, 12, tzinfo=UTC)
    summer = datetime(2024, 7, 15, 12, tzinfo=UTC)
    assert offset_minutes("Europe/Berlin", winter) == 60
    assert offset_minutes("Europe/Berlin", summer) == 120
    assert offset_minutes("America/New_York", winter) == -300
    assert offset_minutes("Asia/Kolkata", winter) == 330


async def test_linux_timezone_set_uses_timedatectl(recorder: RecordingRunner) -> None:
    await LinuxTimeZones(recorder).set("Europe/Berlin")
    assert recorder.commands == [["timedatectl", "set-timezone", "Europe/Berlin"]]


async def test_simulated_timezone_keeps_state(store: MemorySettingsStore) -> None:
    zones = SimulatedTimeZones(store)
    await zones.set("Asia/Kolkata")
    assert zones.current() == "Asia/Kolkata"
    assert zones.current_offset_minutes() == 330


@pytest.mark.parametrize("bad", ["Mars/Olympus", "", "europe/berlin", "../etc/passwd"])
async def test_unknown_zones_are_refused(
    bad: str, store: MemorySettingsStore, recorder: RecordingRunner
) -> None:
    with pytest.raises(UnknownTimeZone):
        await SimulatedTimeZones(store).set(bad)
    with pytest.raises(UnknownTimeZone):
        await LinuxTimeZones(recorder).set(bad)
    assert recorder.commands == []
    assert store.values == {}


# --- power


async def test_linux_power_commands(recorder: RecordingRunner) -> None:
    power = LinuxPower(recorder)
    await power.reboot()
    await power.shutdown()
    assert recorder.commands == [["systemctl", "reboot"], ["systemctl", "poweroff"]]


async def test_simulated_power_records_requests(store: MemorySettingsStore) -> None:
    power = SimulatedPower(store)
    await power.reboot()
    await power.shutdown()
    assert [r["action"] for r in power.requests()] == ["reboot", "shutdown"]


# --- remote access


async def test_linux_remote_access_commands() -> None:
    runner = RecordingRunner({"systemctl is-active": CommandResult(3)})
    remote = LinuxRemoteAccess(runner, "support-tunnel.service")
    assert await remote.status() is False
    await remote.start()
    await remote.stop()
    assert runner.commands == [
        ["systemctl", "is-active", "--quiet", "support-tunnel.service"],
        ["systemctl", "start", "support-tunnel.service"],
        ["systemctl", "stop", "support-tunnel.service"],
    ]
    runner.responses["systemctl is-active"] = CommandResult(0)
    assert await remote.status() is True


async def test_simulated_remote_access_keeps_state(store: MemorySettingsStore) -> None:
    remote = SimulatedRemoteAccess(store)
    assert await remote.status() is False
    await remote.start()
    assert await SimulatedRemoteAccess(store).status() is True
    await remote.stop()
    assert await remote.status() is False
