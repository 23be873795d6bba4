"""Rebooting and shutting down the machine."""

import logging
from datetime import UTC, datetime
from typing import Literal

from tilewall.platform.runner import Runner, check
from tilewall.platform.settings import SettingsStore

log = logging.getLogger(__name__)

SETTING = "platform.power.requests"
PowerAction = Literal["reboot", "shutdown"]


class LinuxPower:
    def __init__(self, runner: Runner) -> None:
        self._runner = runner

    async def reboot(self) -> None:
        await check(self._runner, ["systemctl", "reboot"])

    async def shutdown(self) -> None:
        await check(self._runner, ["systemctl", "poweroff"])


class SimulatedPower:
    """Records each request (action and UTC instant) in the store instead of acting."""

    def __init__(self, store: SettingsStore) -> None:
        self._store = store

    def requests(self) -> list[dict[str, str]]:
        stored = self._store.get(SETTING)
        return list(stored) if isinstance(stored, list) else []

    async def _record(self, action: PowerAction) -> None:
        log.warning("simulated: %s requested; host management is off, nothing done", action)
        entry = {"action": action, "at": datetime.now(UTC).isoformat(timespec="seconds")}
        # the last few are enough to show what was asked
        await self._store.put(SETTING, [*self.requests(), entry][-20:])

    async def reboot(self) -> None:
        await self._record("reboot")

    async def shutdown(self) -> None:
        await self._record("shutdown")
