"""What the machine is: names, addresses, identity, distribution and resources.

Facts are read from the machine every time; only the host name can be simulated, and
that is the host name adapter's business.
"""

import importlib.metadata
import json
import os
import platform as pyplatform
import shlex
import socket
import uuid
from datetime import UTC, datetime
from pathlib import Path

from tilewall import __version__
from tilewall.host.machine.facts import SYSTEM_ID_SETTING, DiskUsage, OsRelease
from tilewall.host.machine.ports import Facts, HostName
from tilewall.platform.routes import PROC_ROUTE, default_routes, is_usable_ipv4
from tilewall.platform.settings import SettingsStore

OS_RELEASE_FILES = (Path("/etc/os-release"), Path("/usr/lib/os-release"))
MACHINE_ID = Path("/etc/machine-id")
#: machine-id is confidential (machine-id(5)), so the system id is a UUID derived from it
_SYSTEM_ID_NAMESPACE = uuid.UUID("3f4b1c52-6d2e-4c38-9a61-0a7e2f5d8b90")


def parse_os_release(text: str) -> dict[str, str]:
    values: dict[str, str] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, raw = line.split("=", 1)
        try:
            parts = shlex.split(raw)
        except ValueError:
            continue
        values[key] = parts[0] if parts else ""
    return values


def read_os_release(paths: tuple[Path, ...] = OS_RELEASE_FILES) -> OsRelease:
    for path in paths:
        try:
            values = parse_os_release(path.read_text())
        except OSError:
            continue
        return OsRelease(
            name=values.get("NAME", "Linux"),
            version=values.get("VERSION_ID", values.get("VERSION", "")),
            pretty_name=values.get("PRETTY_NAME", values.get("NAME", "Linux")),
        )
    return OsRelease("Linux", "", "Linux")


def primary_ipv4(route_path: Path = PROC_ROUTE) -> str:
    """The address of the default-route interface, else the first usable one, else ''."""
    import psutil

    addresses = {
        name: [a.address for a in addrs if a.family == socket.AF_INET]
        for name, addrs in psutil.net_if_addrs().items()
    }
    for route in default_routes(route_path):
        for address in addresses.get(route.interface, []):
            if is_usable_ipv4(address):
                return str(address)
    for name in sorted(addresses):
        for address in addresses[name]:
            if is_usable_ipv4(address):
                return str(address)
    return ""


def build_data(distribution: str = "tilewall") -> str:
    """How this copy of tilewall was built and installed, from the package metadata."""
    try:
        dist = importlib.metadata.distribution(distribution)
    except importlib.metadata.PackageNotFoundError:
        return f"{distribution} {__version__} (not installed as a package)"
    parts = [f"{distribution} {dist.version}"]
    try:
        origin = json.loads(dist.read_text("direct_url.json") or "{}")
    except ValueError:
        origin = {}
    commit = origin.get("vcs_info", {}).get("commit_id")
    if commit:
        parts.append(f"commit {str(commit)[:12]}")
    if origin.get("dir_info", {}).get("editable"):
        parts.append("editable install")
    installed = ""
    for file in dist.files or []:
        if file.name == "METADATA":
            try:
                stamp = Path(str(file.locate())).stat().st_mtime
            except OSError:
                break
            installed = datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%d %H:%M UTC")
            break
    if installed:
        parts.append(f"installed {installed}")
    parts.append(f"{pyplatform.python_implementation()} {pyplatform.python_version()}")
    return ", ".join(parts)


class MachineFacts:
    def __init__(
        self,
        hostname: HostName,
        store: SettingsStore,
        *,
        machine_id: Path = MACHINE_ID,
        os_release_files: tuple[Path, ...] = OS_RELEASE_FILES,
        route_path: Path = PROC_ROUTE,
    ) -> None:
        self._hostname = hostname
        self._store = store
        self._machine_id = machine_id
        self._os_release_files = os_release_files
        self._route_path = route_path

    def host_name(self) -> str:
        return self._hostname.get()

    def primary_ipv4(self) -> str:
        return primary_ipv4(self._route_path)

    async def system_id(self) -> str:
        """A stable id of this host: kept in the store once made.

        Made from ``/etc/machine-id`` when readable (so a reinstalled host keeps its id),
        else random.
        """
        stored = self._store.get(SYSTEM_ID_SETTING)
        if isinstance(stored, str) and stored:
            return stored
        try:
            machine_id = self._machine_id.read_text().strip()
        except OSError:
            machine_id = ""
        made = uuid.uuid5(_SYSTEM_ID_NAMESPACE, machine_id) if machine_id else uuid.uuid4()
        await self._store.put(SYSTEM_ID_SETTING, str(made))
        return str(made)

    def os_release(self) -> OsRelease:
        return read_os_release(self._os_release_files)

    # psutil is imported where it is used (not for serving's first requests)

    def cpu_cores(self) -> int:
        import psutil

        return psutil.cpu_count(logical=True) or os.cpu_count() or 1

    def total_memory_bytes(self) -> int:
        import psutil

        return int(psutil.virtual_memory().total)

    def memory_used_percent(self) -> float:
        import psutil

        return float(psutil.virtual_memory().percent)

    def disk_usage(self, path: str = "/") -> DiskUsage:
        import psutil

        usage = psutil.disk_usage(path)
        return DiskUsage(int(usage.total), int(usage.free))

    def interface_names(self) -> list[str]:
        import psutil

        return sorted(name for name in psutil.net_if_addrs() if name != "lo")

    def build_data(self) -> str:
        return build_data()


__all__ = ["SYSTEM_ID_SETTING", "DiskUsage", "Facts", "MachineFacts", "OsRelease"]
