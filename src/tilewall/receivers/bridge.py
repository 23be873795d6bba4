"""The host as the receiver hub sees it: the ``HostPort`` and ``StationPort`` over a
``Host``; and the hub as the host sees it, the link to the kiosk agents."""

import asyncio
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from tilewall.host.host import Host
from tilewall.host.hostgroup.members import TAKEOVER_MS
from tilewall.host.memory import Event, State
from tilewall.host.model import Resolution
from tilewall.host.playback.playlist import MediaCatalog
from tilewall.host.render.description import HostInfo
from tilewall.host.render.overlays import OverlaySwitches
from tilewall.host.topology.agents import AgentHello
from tilewall.host.topology.refusals import ADOPT
from tilewall.receivers.hub import Hub

log = logging.getLogger(__name__)


class HostBridge:
    """Implements the hub's HostPort and StationPort; the host is attached when it has
    been opened."""

    def __init__(self, host: Host | None = None) -> None:
        self._host = host

    @property
    def host(self) -> Host:
        if self._host is None:
            raise RuntimeError("the host is not open yet")
        return self._host

    def attach(self, host: Host, hub: Hub) -> None:
        self._host = host
        host.agents.link = hub.agents
        host.core.on_command(lambda seat, name: _command(hub, seat, name))
        host.hostgroup.on_change(lambda: _later(hub.hostgroup_changed()))

    @property
    def state(self) -> State:
        return self.host.core.state

    @property
    def media(self) -> MediaCatalog | None:
        return self.host.media

    def subscribe(self, listener: Callable[[Event], None]) -> Callable[[], None]:
        return self.host.core.subscribe(listener)

    def now_ms(self) -> int:
        return self.host.core.clock.now_ms()

    def exact_ms(self) -> float:
        return self.host.core.clock.exact_ms()

    def host_info(self) -> HostInfo:
        return self.host.descriptions.host_info()

    def overlays(self) -> OverlaySwitches:
        return self.host.descriptions.overlays()

    async def station_hello(
        self,
        seat_id: str,
        ip: str,
        model: str,
        firmware: str,
        screen: Resolution,
        resolutions: list[Resolution],
        name: str | None,
    ) -> None:
        await self.host.stations.hello(
            seat_id, ip, model, firmware, screen, resolutions, name=name or ""
        )

    def serving(self) -> bool:
        return self.host.hostgroup.serving

    def hostgroup(self) -> tuple[list[str], str | None] | None:
        status = self.host.hostgroup.status()
        if status is None:
            return None
        members = [
            m.address for m in status.members if m.alive or m.member_id == status.active_member
        ]
        active = status.active
        return members, active.address if active is not None else None

    def active_late(self) -> float | None:
        status = self.host.hostgroup.status()
        if status is None or status.lease is None or not status.active_late():
            return None
        return (status.lease.lease_ms + TAKEOVER_MS) / 1000

    def set_online(self, seat_id: str, online: bool) -> None:
        if online:
            self.host.stations.set_online(seat_id)
        else:
            self.host.stations.set_offline(seat_id)

    # StationPort: station keys and kiosk agents

    async def admit(self, seat_id: str, key: str | None) -> bool:
        return await self.host.stations.trust.admit(seat_id, key)

    def take_key(self, seat_id: str, confirmed: bool = False) -> tuple[bool, str | None]:
        return self.host.stations.trust.take(seat_id, confirmed)

    def key_stored(self, seat_id: str, key: str) -> None:
        self.host.stations.trust.stored(seat_id, key)

    def refused(self, seat_id: str, ip: str, role: str, token: int) -> None:
        self.host.stations.refusals.add(seat_id, ip, role, token)

    def refusal_ended(self, seat_id: str, token: int) -> None:
        self.host.stations.refusals.ended(seat_id, token)

    async def agent_hello(self, hello: AgentHello) -> None:
        await self.host.agents.hello(hello)

    def agent_gone(self, seat_id: str) -> None:
        self.host.agents.gone(seat_id)

    def agent_devices(
        self, seat_id: str, devices: list[dict[str, Any]], items: list[dict[str, Any]]
    ) -> None:
        self.host.agents.devices(seat_id, devices, items)

    def agent_power(self, seat_id: str, state: str, ok: bool, method: str, message: str) -> None:
        self.host.agents.power(seat_id, state, ok, method, message)


_pending: set[asyncio.Task[None]] = set()


def _command(hub: Hub, seat_id: str, name: str) -> None:
    if name == "key":
        hub.hand_key(seat_id)
        return
    if name == ADOPT:
        _later(hub.adopt(seat_id))
        return
    action = hub.reset if name == "reset" else hub.reload
    _later(action([seat_id]))


def _later(work: Coroutine[Any, Any, None]) -> None:
    task = asyncio.get_running_loop().create_task(work)
    _pending.add(task)
    task.add_done_callback(_pending.discard)
