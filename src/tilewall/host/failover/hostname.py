"""Host-name switching: the active member of a failover group that asks for it takes the
group's name as its host name (so clients that reach the group by name reach the active
member), and gives it back when it stops being active. The change goes through the
machine adapters: real with host management, simulated otherwise."""

import logging
import re
from collections.abc import Callable

from tilewall.host.hostgroup.membership import Policy
from tilewall.host.machine.slot import MachineSlot
from tilewall.host.state import Core

log = logging.getLogger(__name__)

#: this member's own host name while it carries the group's
OWN_NAME = "group.own_host_name"


def host_name_for(group_name: str) -> str:
    """The group's name as a host name: lower-case letters, digits and hyphens."""
    name = re.sub(r"[^a-z0-9-]+", "-", group_name.lower()).strip("-")[:63].strip("-")
    return name or "tilewall-group"


class HostNameSwitching:
    """A duty of the active member (see :class:`~tilewall.host.hostgroup.membership.HostGroup`)."""

    def __init__(
        self,
        member: Core,
        machine: MachineSlot,
        policy: Callable[[], Policy],
        facts_changed: Callable[[], None] = lambda: None,
    ) -> None:
        self._member = member
        self._machine = machine
        self._policy = policy
        #: told when the host name changed (the machine facts shown by GET /system)
        self._facts_changed = facts_changed

    async def take(self) -> None:
        policy = self._policy()
        if not (policy.in_group and policy.hostname_switching and policy.group_name):
            return
        hostname = self._machine.adapters.hostname
        wanted = host_name_for(policy.group_name)
        current = hostname.get()
        if current == wanted:
            return
        if self._member.state.settings.get(OWN_NAME) is None:
            async with self._member.change() as tx:
                tx.put_setting(OWN_NAME, current)
        try:
            await hostname.set(wanted)
        finally:
            self._facts_changed()
        log.info("host name switched to the group's: %s", wanted)

    async def refresh(self) -> None:
        """The failover settings changed: take the group's name, or give it back."""
        policy = self._policy()
        if policy.in_group and policy.hostname_switching and policy.group_name:
            await self.take()
        else:
            await self.give_back()

    async def give_back(self) -> None:
        own = self._member.state.settings.get(OWN_NAME)
        if not isinstance(own, str) or not own:
            return
        try:
            await self._machine.adapters.hostname.set(own)
        finally:
            self._facts_changed()
        async with self._member.change() as tx:
            tx.put_setting(OWN_NAME, None)
        log.info("host name back to this member's own: %s", own)
