"""What both network adapters share: an update is validated at once and applied in the
background, one at a time; until it is done every read raises :class:`NetworkBusy`."""

import asyncio
import logging

from tilewall.platform.network_model import InterfaceUpdate, NetworkBusy, NetworkInterface
from tilewall.platform.network_read import read_interfaces
from tilewall.platform.network_validation import validate_update
from tilewall.platform.runner import Runner

log = logging.getLogger(__name__)

#: how long a DHCP server may take to show up after it was switched on
DHCPD_START_SECONDS = 30.0


class BackgroundApply:
    """Validation, and one background apply at a time; a face supplies ``_apply``."""

    def __init__(self, runner: Runner) -> None:
        self._runner = runner
        self._task: asyncio.Task[None] | None = None
        self._last_error: str | None = None
        #: interface -> loop time until which a DHCP server counts as starting
        self._dhcpd_starting: dict[str, float] = {}

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    @property
    def last_error(self) -> str | None:
        return self._last_error

    async def wait_idle(self) -> None:
        if self._task is not None:
            await asyncio.shield(self._task)

    async def _read(self) -> list[NetworkInterface]:
        return await read_interfaces(self._runner)

    async def list(self) -> list[NetworkInterface]:
        if self.busy:
            raise NetworkBusy()
        interfaces = await self._read()
        now = asyncio.get_running_loop().time()
        for iface in interfaces:
            until = self._dhcpd_starting.get(iface.id)
            if until is None:
                continue
            if iface.running_dhcpd or now >= until:
                del self._dhcpd_starting[iface.id]
            else:
                iface.dhcpd_starting = True
        return interfaces

    async def update(self, update: InterfaceUpdate) -> None:
        if self.busy:
            raise NetworkBusy()
        known = {iface.id for iface in await self._read()}
        update = validate_update(update, known)
        self._last_error = None
        self._task = asyncio.create_task(self._run(update), name=f"network-apply-{update.id}")

    async def _run(self, update: InterfaceUpdate) -> None:
        try:
            await self._apply(update)
        except Exception as error:  # the request has been answered; keep the reason
            log.exception("applying network settings of %s failed", update.id)
            self._last_error = str(error)
            return
        if update.running_dhcpd:
            self._dhcpd_starting[update.id] = (
                asyncio.get_running_loop().time() + self._dhcpd_start_seconds()
            )
        else:
            self._dhcpd_starting.pop(update.id, None)

    def _dhcpd_start_seconds(self) -> float:
        return DHCPD_START_SECONDS

    async def _apply(self, update: InterfaceUpdate) -> None:
        raise NotImplementedError
