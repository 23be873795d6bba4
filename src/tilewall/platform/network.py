"""Network interfaces: read as the machine has them, changed through NetworkManager.

An update is validated at once and applied in the background; until it is done every
read raises :class:`NetworkBusy` (the interface answers 500 with its message then).
The capability's Protocol is the host's port; this module keeps the names the rest of
tilewall uses. The parts are ``network_model``, ``network_validation``, ``network_read``,
``network_apply`` and the two faces, ``network_linux`` and ``network_simulated``.
"""

from tilewall.host.machine.ports import NetworkInterfaces
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
