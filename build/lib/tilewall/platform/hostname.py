"""The machine's host name."""

import logging
import re
import socket

from tilewall.platform.errors import InvalidSetting
from tilewall.platform.runner import Runner, check
from tilewall.platform.settings import SettingsStore

log = logging.getLogger(__name__)

SETTING = "platform.hostname"
#: systemd-hostnamed refuses static host names longer than this
MAX_LENGTH = 64
_LABEL = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$")


class InvalidHostName(InvalidSetting):
    pass


def validate_hostname(name: str) -> str:
    """Return ``name`` stripped if it is a valid host name (RFC 1123 labels)."""
    name = name.strip()
    if not name:
        raise InvalidHostName("host name must not be empty")
    if len(name) > MAX_LENGTH:
        raise InvalidHostName(f"host name is longer than {MAX_LENGTH} characters")
    for label in name.split("."):
        if not _LABEL.match(label):
            raise InvalidHostName(
                f"host name {name!r} is not valid: use letters, digits and inner hyphens, "
                "in dot-separated labels of 1 to 63 characters"
            )
    return name


class LinuxHostName:
    def __init__(self, runner: Runner) -> None:
        self._runner = runner

    def get(self) -> str:
        return socket.gethostname()

    async def set(self, name: str) -> None:
        name = validate_hostname(name)
        await check(self._runner, ["hostnamectl", "set-hostname", name])


class SimulatedHostName:
    """Keeps a changed host name in the store; the machine's own name is untouched."""

    def __init__(self, store: SettingsStore) -> None:
        self._store = store

    def get(self) -> str:
        stored = self._store.get(SETTING)
        return stored if isinstance(stored, str) else socket.gethostname()

    async def set(self, name: str) -> None:
        name = validate_hostname(name)
        log.info("simulated: host name set to %s", name)
        await self._store.put(SETTING, name)
