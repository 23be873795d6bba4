import importlib.metadata
import shutil

import pytest

from tilewall.host.machine.facts import PACKAGE_CATALOGUE as CATALOGUE
from tilewall.platform.packages import (
    LinuxPackages,
    SimulatedPackages,
    UnknownPackage,
    python_distributions,
)
from tilewall.platform.runner import CommandResult, RecordingRunner, SubprocessRunner
from tilewall.platform.settings import MemorySettingsStore

DPKG = "dpkg-query -W -f ${db:Status-Abbrev}\t${Package}\t${Version}\n"
needs_dpkg = pytest.mark.skipif(shutil.which("dpkg-query") is None, reason="no dpkg-query")


async def test_manifest_lists_python_distributions_with_versions() -> None:
    manifest = await LinuxPackages(SubprocessRunner()).manifest()
    versions = {(p.name, p.version) for p in manifest}
    assert ("psutil", importlib.metadata.version("psutil")) in versions
    assert ("tilewall", importlib.metadata.version("tilewall")) in versions
    names = [p.name for p in python_distributions()]
    assert names == sorted(names, key=str.lower)


@needs_dpkg
async def test_manifest_lists_installed_debian_packages() -> None:
    manifest = await LinuxPackages(SubprocessRunner()).manifest()
    result = await SubprocessRunner().run(["dpkg-query", "-W", "-f", "${Package}\n", "dpkg"])
    assert result.ok
    assert "dpkg" in {p.name for p in manifest}


@needs_dpkg
async def test_only_fully_installed_debian_packages_count() -> None:
    runner = RecordingRunner(
        {
            DPKG: CommandResult(
                1, "ii \tchromium\t1.0\nrc \tffmpeg\t2.0\nun \tdnsmasq\t\n", "no packages found"
            )
        }
    )
    catalogue = await LinuxPackages(runner).catalogue()
    installed = {e.name for e in catalogue if e.installed}
    assert installed == {"chromium"}
    assert [(e.name, e.group_name) for e in catalogue] == list(CATALOGUE)
    assert runner.commands[0][:4] == [
        "dpkg-query",
        "-W",
        "-f",
        "${db:Status-Abbrev}\t${Package}\t${Version}\n",
    ]
    assert sorted(runner.commands[0][4:]) == sorted(n for n, _ in CATALOGUE)


async def test_linux_install_uses_apt_get(recorder: RecordingRunner) -> None:
    await LinuxPackages(recorder).install(["ffmpeg", "chromium", "ffmpeg"])
    assert recorder.commands == [["apt-get", "install", "-y", "ffmpeg", "chromium"]]


async def test_names_outside_the_catalogue_refuse_the_whole_install(
    recorder: RecordingRunner, store: MemorySettingsStore
) -> None:
    with pytest.raises(UnknownPackage, match="'-o'"):
        await LinuxPackages(recorder).install(["ffmpeg", "-o"])
    with pytest.raises(UnknownPackage, match="'nethack'"):
        await SimulatedPackages(recorder, store).install(["nethack"])
    assert recorder.commands == []
    assert store.values == {}


async def test_simulated_install_is_remembered(store: MemorySettingsStore) -> None:
    runner = RecordingRunner({DPKG: CommandResult(1, "")})
    packages = SimulatedPackages(runner, store)
    await packages.install(["dnsmasq", "chrony"])
    again = SimulatedPackages(runner, store)
    installed = {e.name for e in await again.catalogue() if e.installed}
    assert installed >= {"dnsmasq", "chrony"}
    assert not any(c[0] == "apt-get" for c in runner.commands)
