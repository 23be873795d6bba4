"""The receivers' connections as the hub holds them, seen by the parts that act on all
of them at once (``liveness``, ``hostgroup``): those parts depend on this, never on the
hub itself, so the hub can use them without an import loop."""

from typing import Protocol

from tilewall.receivers import protocol as p
from tilewall.receivers.ports import HostPort
from tilewall.receivers.session import Limits, Session


class Connections(Protocol):
    """The hub's open connections and how to write to and close one."""

    @property
    def port(self) -> HostPort:
        """The host the receivers are connected to."""
        ...

    @property
    def limits(self) -> Limits: ...

    def monotonic(self) -> float: ...

    def sessions(self) -> list[Session]:
        """The open connections, said hello or not."""
        ...

    def send(self, session: Session, message: p.HostMessage) -> None: ...

    def send_text(self, session: Session, text: str, now: bool = False) -> bool:
        """Write ``text`` (``now``: at once if nothing waits); False when closed or
        closing as it does not read."""
        ...

    async def close(self, session: Session, code: int | None = None) -> None: ...
