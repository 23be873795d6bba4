"""What software is installed, and a small catalogue of optional Debian packages."""

import importlib.metadata
import logging
import shutil
from collections.abc import Sequence

from tilewall.host.machine.facts import PACKAGE_CATALOGUE as CATALOGUE
from tilewall.host.machine.facts import PACKAGE_CATALOGUE_NAMES as CATALOGUE_NAMES
from tilewall.host.machine.facts import CatalogueEntry, PackageVersion
from tilewall.platform.errors import InvalidSetting
from tilewall.platform.runner import Runner, check
from tilewall.platform.settings import SettingsStore

log = logging.getLogger(__name__)

SETTING = "platform.packages.installed"
APT_TIMEOUT_SECONDS = 1800.0


class UnknownPackage(InvalidSetting):
    pass


def python_distributions() -> list[PackageVersion]:
    seen: dict[str, PackageVersion] = {}
    for dist in importlib.metadata.distributions():
        name = dist.metadata["Name"]
        if name and name not in seen:
            seen[name] = PackageVersion(name, dist.version)
    return sorted(seen.values(), key=lambda p: p.name.lower())


async def debian_packages(runner: Runner, names: Sequence[str] = ()) -> list[PackageVersion]:
    """Installed Debian packages (all, or those of ``names``); empty without dpkg."""
    if shutil.which("dpkg-query") is None:
        return []
    result = await runner.run(
        ["dpkg-query", "-W", "-f", "${db:Status-Abbrev}\t${Package}\t${Version}\n", *names]
    )
    # dpkg-query exits 1 when some of the names are unknown, and still lists the rest
    packages = []
    for line in result.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) == 3 and parts[0].startswith("ii"):
            packages.append(PackageVersion(parts[1], parts[2]))
    return packages


def validate_names(names: Sequence[str]) -> list[str]:
    unknown = [n for n in names if n not in CATALOGUE_NAMES]
    if unknown:
        raise UnknownPackage(
            f"not in the package catalogue: {', '.join(map(repr, unknown))}; "
            f"available: {', '.join(sorted(CATALOGUE_NAMES))}"
        )
    return list(dict.fromkeys(names))


class _Reading:
    def __init__(self, runner: Runner) -> None:
        self._runner = runner

    async def manifest(self) -> list[PackageVersion]:
        return python_distributions() + await debian_packages(self._runner)

    async def _installed(self) -> set[str]:
        return {p.name for p in await debian_packages(self._runner, sorted(CATALOGUE_NAMES))}

    async def catalogue(self) -> list[CatalogueEntry]:
        installed = await self._installed()
        return [CatalogueEntry(name, group, name in installed) for name, group in CATALOGUE]


class LinuxPackages(_Reading):
    async def install(self, names: Sequence[str]) -> None:
        wanted = validate_names(names)
        if wanted:
            await check(
                self._runner, ["apt-get", "install", "-y", *wanted], timeout=APT_TIMEOUT_SECONDS
            )


class SimulatedPackages(_Reading):
    """Remembers simulated installs; packages really installed still read as installed."""

    def __init__(self, runner: Runner, store: SettingsStore) -> None:
        super().__init__(runner)
        self._store = store

    def _simulated(self) -> list[str]:
        stored = self._store.get(SETTING)
        return [str(n) for n in stored] if isinstance(stored, list) else []

    async def _installed(self) -> set[str]:
        return await super()._installed() | set(self._simulated())

    async def install(self, names: Sequence[str]) -> None:
        wanted = validate_names(names)
        if wanted:
            log.info("simulated: installing %s", " ".join(wanted))
            await self._store.put(SETTING, sorted(set(self._simulated()) | set(wanted)))
