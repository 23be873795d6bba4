"""The simulated network adapter: keeps updates in the settings store and lays them over
the machine's real values, taking a while to apply as a real network restart does."""

import asyncio
import logging
from typing import Any

import msgspec

from tilewall.platform.network_apply import BackgroundApply
from tilewall.platform.network_model import InterfaceUpdate, NetworkInterface
from tilewall.platform.network_read import read_interfaces
from tilewall.platform.runner import Runner
from tilewall.platform.settings import SettingsStore

log = logging.getLogger(__name__)

SETTING = "platform.network.interfaces"


class SimulatedNetworkInterfaces(BackgroundApply):
    """Keeps updates in the store and lays them over the machine's real values."""

    def __init__(self, runner: Runner, store: SettingsStore, apply_seconds: float = 2.0) -> None:
        super().__init__(runner)
        self._store = store
        self.apply_seconds = apply_seconds

    def _overrides(self) -> dict[str, dict[str, Any]]:
        stored = self._store.get(SETTING)
        return dict(stored) if isinstance(stored, dict) else {}

    def _dhcpd_start_seconds(self) -> float:
        return self.apply_seconds

    async def _read(self) -> list[NetworkInterface]:
        interfaces = await read_interfaces(self._runner)
        overrides = self._overrides()
        result = []
        for iface in interfaces:
            raw = overrides.get(iface.id)
            if raw is None:
                result.append(iface)
                continue
            update = msgspec.convert(raw, InterfaceUpdate)
            # a simulated DHCP client keeps whatever address the machine really has
            address_fields: dict[str, Any] = (
                {}
                if update.uses_dhcp
                else {
                    "ip_address": update.ip_address,
                    "subnet_mask": update.subnet_mask,
                    "default_gateway": update.default_gateway,
                    "lease_duration": "",
                }
            )
            result.append(
                msgspec.structs.replace(
                    iface,
                    uses_dhcp=update.uses_dhcp,
                    preferred_dns_address=update.preferred_dns_address,
                    alternate_dns_address=update.alternate_dns_address,
                    running_dhcpd=update.running_dhcpd and not self._starting(iface.id),
                    **address_fields,
                )
            )
        return result

    def _starting(self, interface: str) -> bool:
        until = self._dhcpd_starting.get(interface)
        return until is not None and asyncio.get_running_loop().time() < until

    async def _apply(self, update: InterfaceUpdate) -> None:
        log.info("simulated: applying network settings of %s", update.id)
        # a real network restart takes a while; clients must see the busy phase
        await asyncio.sleep(self.apply_seconds)
        overrides = self._overrides()
        overrides[update.id] = msgspec.to_builtins(update)
        await self._store.put(SETTING, overrides)
