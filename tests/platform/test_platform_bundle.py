from tilewall.platform import platform_for
from tilewall.platform.hostname import LinuxHostName, SimulatedHostName
from tilewall.platform.network import LinuxNetworkInterfaces, SimulatedNetworkInterfaces
from tilewall.platform.power import LinuxPower, SimulatedPower
from tilewall.platform.runner import RecordingRunner
from tilewall.platform.settings import MemorySettingsStore


async def test_without_host_management_everything_is_simulated() -> None:
    store = MemorySettingsStore()
    runner = RecordingRunner()
    platform = platform_for(False, store, runner)
    assert isinstance(platform.hostname, SimulatedHostName)
    assert isinstance(platform.network, SimulatedNetworkInterfaces)
    assert isinstance(platform.power, SimulatedPower)
    await platform.hostname.set("sim-host")
    await platform.timezones.set("Europe/Berlin")
    await platform.power.reboot()
    await platform.remote.start()
    await platform.packages.install(["ffmpeg"])
    assert platform.facts.host_name() == "sim-host"
    assert platform.timezones.current() == "Europe/Berlin"
    assert await platform.remote.status() is True
    changing = {"hostnamectl", "timedatectl", "systemctl", "apt-get", "nmcli"}
    assert not [c for c in runner.commands if c[0] in changing]


async def test_with_host_management_the_machine_is_changed() -> None:
    runner = RecordingRunner()
    platform = platform_for(True, MemorySettingsStore(), runner, remote_service="vpn.service")
    assert isinstance(platform.hostname, LinuxHostName)
    assert isinstance(platform.network, LinuxNetworkInterfaces)
    assert isinstance(platform.power, LinuxPower)
    await platform.hostname.set("real-host")
    await platform.timezones.set("Europe/Berlin")
    await platform.remote.start()
    await platform.power.shutdown()
    assert runner.commands == [
        ["hostnamectl", "set-hostname", "real-host"],
        ["timedatectl", "set-timezone", "Europe/Berlin"],
        ["systemctl", "start", "vpn.service"],
        ["systemctl", "poweroff"],
    ]
