"""Network interfaces: read as the machine has them, changed through NetworkManager.

An update is validated at once and applied in the background; until it is done every
read raises :class:`NetworkBusy` (the interface answers 500 with its message then).
The capability's Protocol is here, with the names the rest of tilewall uses; the parts
are ``network_model``, ``network_validation``, ``network_read``, ``network_apply`` and
the two faces, ``network_linux`` and ``network_simulated``.
"""

from typing import Protocol

from tilewall.platform.network_linux import LinuxNetworkInterfaces
from tilewall.platform.network_model import (
    InterfaceUpdate,
    NetworkBusy,
    NetworkInterface,
    UnknownInterface,
)
from tilewall.platform.network_simulated import SimulatedNetworkInterfaces

__all__ = [
    "InterfaceUpdate",
    "LinuxNetworkInterfaces",
    "NetworkBusy",
    "NetworkInterface",
    "NetworkInterfaces",
    "SimulatedNetworkInterfaces",
    "UnknownInterface",
]


class NetworkInterfaces(Protocol):
    async def list(self) -> list[NetworkInterface]:
        """Every interface; raises :class:`NetworkBusy` while an update is applied."""
        ...

    async def update(self, update: InterfaceUpdate) -> None:
        """Validate ``update`` (raising before anything changes) and start applying it."""
        ...

    @property
    def busy(self) -> bool: ...

    @property
    def last_error(self) -> str | None:
        """Why the last background apply failed, if it did."""
        ...

    async def wait_idle(self) -> None: ...
