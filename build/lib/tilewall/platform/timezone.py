"""The machine's time zone, from the IANA time zone database."""

import logging
import zoneinfo
from datetime import datetime
from functools import cache
from pathlib import Path

from tilewall.platform.errors import InvalidSetting
from tilewall.platform.runner import Runner, check
from tilewall.platform.settings import SettingsStore

log = logging.getLogger(__name__)

SETTING = "platform.timezone"
LOCALTIME = Path("/etc/localtime")
TIMEZONE_FILE = Path("/etc/timezone")


class UnknownTimeZone(InvalidSetting):
    pass


@cache
def available_zones() -> tuple[str, ...]:
    """Every zone of the IANA database this machine (or the ``tzdata`` package) has."""
    return tuple(sorted(zoneinfo.available_timezones()))


def validate_zone(name: str) -> str:
    name = name.strip()
    if name not in available_zones():
        raise UnknownTimeZone(
            f"unknown time zone {name!r}; expected an IANA name such as 'Europe/Berlin'"
        )
    return name


def offset_minutes(zone: str, at: datetime | None = None) -> int:
    """Minutes east of UTC of ``zone`` at ``at`` (default now), daylight saving included.

    Berlin in winter gives 60, New York in winter -300, Kolkata 330.
    """
    instant = at if at is not None else datetime.now(zoneinfo.ZoneInfo("UTC"))
    delta = instant.astimezone(zoneinfo.ZoneInfo(zone)).utcoffset()
    assert delta is not None
    return int(delta.total_seconds()) // 60


def read_system_zone(localtime: Path = LOCALTIME, timezone_file: Path = TIMEZONE_FILE) -> str:
    """The machine's zone name, ``UTC`` when it cannot be told.

    The ``/etc/localtime`` link is what the C library and ``timedatectl`` use; Debian's
    ``/etc/timezone`` can lag behind it, so it is only the fallback.
    """
    known = set(available_zones())
    try:
        target = str(localtime.readlink())
    except OSError:
        target = ""
    if "zoneinfo/" in target:
        name = target.split("zoneinfo/", 1)[1]
        if name in known:
            return name
    try:
        name = timezone_file.read_text().strip()
    except OSError:
        name = ""
    return name if name in known else "UTC"


class _Reading:
    def current(self) -> str:
        return read_system_zone()

    def current_offset_minutes(self) -> int:
        return offset_minutes(self.current())

    def available(self) -> list[str]:
        return list(available_zones())


class LinuxTimeZones(_Reading):
    def __init__(self, runner: Runner) -> None:
        self._runner = runner

    async def set(self, zone: str) -> None:
        zone = validate_zone(zone)
        await check(self._runner, ["timedatectl", "set-timezone", zone])


class SimulatedTimeZones(_Reading):
    def __init__(self, store: SettingsStore) -> None:
        self._store = store

    def current(self) -> str:
        stored = self._store.get(SETTING)
        return stored if isinstance(stored, str) else read_system_zone()

    async def set(self, zone: str) -> None:
        zone = validate_zone(zone)
        log.info("simulated: time zone set to %s", zone)
        await self._store.put(SETTING, zone)
