"""The errors of the network adapters, beside the values they speak (a network
interface and an update of one, which are the host's: :mod:`tilewall.host.machine.facts`)."""

from tilewall.host.machine.facts import InterfaceUpdate, NetworkInterface
from tilewall.platform.errors import InvalidSetting, MachineBusy

__all__ = ["InterfaceUpdate", "NetworkBusy", "NetworkInterface", "UnknownInterface"]


class NetworkBusy(MachineBusy):
    def __init__(self) -> None:
        super().__init__("network settings are still being applied; try again shortly")


class UnknownInterface(InvalidSetting):
    pass
