"""Remote control of the host by a support partner: a service that is started on demand."""

import logging

from tilewall.platform.runner import Runner, check
from tilewall.platform.settings import SettingsStore

log = logging.getLogger(__name__)

SETTING = "platform.remote.running"
#: the systemd unit that opens the remote-control tunnel; installers provide it
DEFAULT_SERVICE = "tilewall-remote.service"


class LinuxRemoteAccess:
    def __init__(self, runner: Runner, service: str = DEFAULT_SERVICE) -> None:
        self._runner = runner
        self.service = service

    async def status(self) -> bool:
        # is-active exits 0 only for an active unit; missing units count as not running
        result = await self._runner.run(["systemctl", "is-active", "--quiet", self.service])
        return result.ok

    async def start(self) -> None:
        await check(self._runner, ["systemctl", "start", self.service])

    async def stop(self) -> None:
        await check(self._runner, ["systemctl", "stop", self.service])


class SimulatedRemoteAccess:
    def __init__(self, store: SettingsStore, service: str = DEFAULT_SERVICE) -> None:
        self._store = store
        self.service = service

    async def status(self) -> bool:
        return self._store.get(SETTING) is True

    async def start(self) -> None:
        log.info("simulated: remote control (%s) started", self.service)
        await self._store.put(SETTING, True)

    async def stop(self) -> None:
        log.info("simulated: remote control (%s) stopped", self.service)
        await self._store.put(SETTING, False)
