"""The machine adapters a host uses, in one place every service reaches them through."""

from tilewall.host.machine.ports import MachineAdapters


class MachineSlot:
    """Holds the machine adapters; built before every service that reaches the machine.

    Each service reads :attr:`adapters` when it acts rather than keeping the adapters it
    was built with, so a swap (tests put in, say, recording serial ports) reaches every
    service at once.
    """

    def __init__(self, adapters: MachineAdapters) -> None:
        self.adapters = adapters

    def time_zone(self) -> str:
        """The machine's time zone now (scheduled events without a zone of their own
        follow it)."""
        return self.adapters.timezones.current()
