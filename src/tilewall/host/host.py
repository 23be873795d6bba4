"""The host: one object holding every service of the domain over shared state."""

import asyncio
import contextlib
import dataclasses
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec

from tilewall.host.access.accounts import Accounts
from tilewall.host.access.trail import AuditTrail
from tilewall.host.clock import SystemClock
from tilewall.host.content.media import MediaLibrary
from tilewall.host.content.sources import Sources
from tilewall.host.errors import NotFound, Unavailable
from tilewall.host.failover.groups import V1, V2, Failover
from tilewall.host.failover.hostname import HostNameSwitching
from tilewall.host.hostgroup.membership import HostGroup
from tilewall.host.licence.rules import LicenceRules
from tilewall.host.machine import troubleshooting
from tilewall.host.machine.ports import MachineAdapters, SettingsStore
from tilewall.host.machine.settings import MachineSettings
from tilewall.host.machine.slot import MachineSlot
from tilewall.host.machine.system import Machine
from tilewall.host.memory import State
from tilewall.host.peripherals.printprofiles import PrintProfiles
from tilewall.host.peripherals.serial import PortWriter, SeatPorts, Serial
from tilewall.host.playback.control import Playback
from tilewall.host.playback.controlroom import ControlRoom
from tilewall.host.playback.overlays import Overlays
from tilewall.host.playback.presets import Presets
from tilewall.host.playback.sharecodes import ShareCodes
from tilewall.host.playback.shares import Shares
from tilewall.host.ports import (
    Clock,
    DataFiles,
    GroupCoordination,
    MediaFiles,
    Persistence,
    PlayLogStore,
)
from tilewall.host.render.seats import SeatDescriptions
from tilewall.host.schedule.effects import HostEffects
from tilewall.host.schedule.events import Events
from tilewall.host.schedule.playlog import PlayLog
from tilewall.host.schedule.runner import Scheduler
from tilewall.host.state import Core, CoreSettings
from tilewall.host.topology.agents import Agents, SeatSerialWriter
from tilewall.host.topology.stations import Stations
from tilewall.host.topology.walls import Topology

#: builds the machine adapters over the host's durable settings (where simulated
#: changes of the machine are kept)
MachineFactory = Callable[[SettingsStore], MachineAdapters]


class Host:
    """Every service of the domain over one shared state, given its adapters.

    ``tilewall.assembly`` builds a running host (store, machine adapters, licence keys
    from the configuration); tests hand it fakes.

    The services are built in the order they depend on one another, each given what it
    needs, built before it. Only the failover settings and the host group need each
    other; that pair is joined once, where it is built.
    """

    def __init__(
        self,
        store: Persistence | None,
        media: MediaFiles,
        machine: MachineFactory,
        *,
        clock: Clock | None = None,
        idle_timeout_s: float = 1800.0,
        max_sessions: int = 10_000,
        trusted_keys: Sequence[str] = (),
        configuration: Mapping[str, Any] | None = None,
        files: DataFiles | None = None,
        plays: PlayLogStore | None = None,
        member_store: Persistence | None = None,
        coordination: GroupCoordination | None = None,
    ) -> None:
        #: the interface log and troubleshooting reports; None for a host without files
        self._files = files
        #: how the host was set up, as shown in troubleshooting reports
        self.configuration = dict(configuration or {})
        self.store = store
        self.core = Core(store, clock or SystemClock())
        #: this member's own settings (machine, failover); the host's own store unless
        #: the host is a member of a group, whose shared state is in ``store``
        self.member_store = member_store
        self.member_core = (
            self.core if member_store is None else Core(member_store, self.core.clock)
        )
        #: the machine: simulated (changes kept in settings) unless host management is on
        self._machine = MachineSlot(machine(CoreSettings(self.member_core)))
        self.accounts = Accounts(store, idle_timeout_s, max_sessions)
        #: who changed what: written with each change (the store), read here
        self.audit = AuditTrail(self.core, store)
        self.media = MediaLibrary(media)
        self.licence = LicenceRules(self.core, tuple(trusted_keys))
        self.stations = Stations(self.core, self.licence)
        self.topology = Topology(self.core)
        self.sources = Sources(self.core, self.licence, self.media)
        self.playback = Playback(self.core, self.sources, self.media)
        self.shares = Shares(
            self.core,
            self.sources,
            self.playback,
            self.topology,
            self.stations,
            ShareCodes(self.core),
        )
        self.presets = Presets(self.core)
        self.overlays = Overlays(self.core)
        self.controlroom = ControlRoom(self.core, self.sources, self.topology, self.playback)
        self.descriptions = SeatDescriptions(self.core, self.media, self.overlays, self._machine)
        self.machine = Machine(self.core, self._machine, self.stations, self.licence, files)
        self.machine_settings = MachineSettings(
            self._machine, facts_changed=self.machine.facts_changed
        )
        self.printprofiles = PrintProfiles(self.core)
        #: kiosk agents beside the receiver pages (their serial ports, devices, power)
        self.agents = Agents(self.core, self.stations)
        self.serial = _serial(self.core, self._machine, self.agents)
        #: scheduled events, the loop that runs them, and what played (plays: the play
        #: log's store; kept in memory without one)
        self.schedule = Events(self.core, self._machine.time_zone)
        self.core.check_changes(self.schedule.refuse_deleting_named)
        self.playlog = PlayLog(self.core, self.playback, self.overlays, plays)
        self.scheduler = Scheduler(
            self.core,
            self.schedule,
            HostEffects(self.core, self.playback, self.presets, self.overlays),
            self.playlog,
            self.audit.prune,
        )
        self.failover = Failover(self.member_core, self._machine, coordination)
        #: this host's role in its group of hosts on one database (solo on SQLite)
        self.hostgroup = self._hostgroup(coordination)
        #: reads the machine facts again now and then (every member, active or not)
        self._facts_refresh: asyncio.Task[None] | None = None

    def _hostgroup(self, coordination: GroupCoordination | None) -> HostGroup:
        """The host's group, joined with the failover settings, with the duties only its
        active member runs: host-name switching and the scheduler."""
        group = HostGroup(
            self.core, self.accounts, coordination, self.failover.policy, self.stations
        )
        # the pair that needs each other: the group asks the failover settings for the
        # policy (given above), and they tell the group when it changed
        self.failover.report_to(group)
        switching = HostNameSwitching(
            self.member_core,
            self._machine,
            self.failover.policy,
            facts_changed=self.machine.facts_changed,
        )
        group.add_duty(
            "host-name switching", switching.take, switching.give_back, switching.refresh
        )
        group.add_duty("the scheduler", self.scheduler.start, self.scheduler.stop)
        return group

    async def load(self) -> None:
        """Read this member's settings, and (on its own store) the state, users and
        sessions; a member of a group loads the group's state as it joins it
        (:meth:`HostGroup.start`)."""
        if self.member_core is not self.core:
            await self.member_core.load()
        if self.hostgroup.coordination is None:
            await self.core.load()
            await self.accounts.load()

    async def start(self) -> None:
        """Join the group (a solo host is active at once); while active, the host's duties
        run: its timers (the scheduler first applies what it missed while no host was
        active, then the play log) and what the server added (:meth:`HostGroup.add_duty`).
        The machine facts are read again every ``FACTS_REFRESH_S`` seconds."""
        if self._facts_refresh is None:
            self._facts_refresh = asyncio.create_task(self.machine.refresh_facts_every())
        await self.hostgroup.start()

    async def close(self) -> None:
        if self._facts_refresh is not None:
            self._facts_refresh.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._facts_refresh
            self._facts_refresh = None
        await self.hostgroup.stop()
        await self.core.settle()
        await self.member_core.settle()
        if self.store is not None:
            await self.store.close()
        if self.member_store is not None:
            await self.member_store.close()

    @property
    def data_dir(self) -> Path | None:
        """Where the host keeps its own files; None for a host without files."""
        return None if self._files is None else self._files.folder

    @property
    def platform(self) -> MachineAdapters:
        """The machine adapters; simulated unless host management is on."""
        return self._machine.adapters

    @platform.setter
    def platform(self, platform: MachineAdapters) -> None:
        # tests swap adapters (say, recording serial ports); every service sees the swap
        self._machine.adapters = platform
        self.machine.facts_changed()

    async def submit_troubleshooting_report(self, form: troubleshooting.ReportForm) -> Path:
        """Keep the form and build the report archive (see :mod:`troubleshooting`)."""
        form = form.check()
        if self._files is None:
            raise Unavailable("this host has no data directory to keep reports in")
        created = self.core.clock.now_ms() / 1000
        info = await self.machine.info()
        results = await self.machine.diagnostics()
        async with self.member_core.change() as tx:
            tx.put_setting(
                "troubleshooting_report",
                {
                    "form": dataclasses.asdict(form),
                    "created_ms": int(created * 1000),
                },
            )
        documents = {
            "report.json": {
                "form": dataclasses.asdict(form),
                "created_ms": int(created * 1000),
                "system": dataclasses.asdict(info),
            },
            "configuration.json": self._configuration(),
            "diagnostics.json": {"results": msgspec.to_builtins(results)},
            "state.json": self._state_dump(),
        }
        return await self._files.write_report(troubleshooting.encode(documents), created)

    def troubleshooting_report(self) -> Path:
        """Where the last troubleshooting report is."""
        path = None if self._files is None else self._files.report()
        if path is None:
            raise NotFound(
                "no troubleshooting report: POST /system/submittroubleshootingreport first"
            )
        return path

    def _configuration(self) -> dict[str, Any]:
        configuration: dict[str, Any] = troubleshooting.redact(
            {
                **self.configuration,
                "host_management": self.platform.host_management,
                "settings": msgspec.to_builtins(
                    {**self.core.state.settings, **self.member_core.state.settings}
                ),
                "users": self.accounts.users(),
                "live_sessions": self.accounts.session_count,
            }
        )
        return configuration

    def _state_dump(self) -> dict[str, Any]:
        state = self.core.state
        dump: dict[str, Any] = {
            kind: msgspec.to_builtins(list(state.collection(kind).values()))
            for kind in (
                "station",
                "display",
                "wall",
                "zone",
                "mirror",
                "source",
                "preset",
                "layout",
            )
        }
        dump["online"] = sorted(self.stations.online)
        dump["round_trip_ms"] = dict(self.stations.round_trip_ms)
        dump["mapping_generation"] = state.mapping_generation
        redacted: dict[str, Any] = troubleshooting.redact(dump)
        return redacted

    @property
    def state(self) -> State:
        return self.core.state

    def failover_member(self) -> bool:
        settings = self.member_core.state.settings
        return settings.get(V1) is not None or settings.get(V2) is not None

    def mapping_data_version(self, in_failover_group: bool) -> str:
        if not in_failover_group:
            return "-1"
        return str(self.core.state.mapping_generation)


def _serial(core: Core, machine: MachineSlot, agents: Agents) -> Serial:
    """Serial commands, sent to the port a seat was given on the host, else to the port of
    its kiosk agent."""
    ports = SeatPorts(core)
    return Serial(core, machine, ports, SeatSerialWriter(ports, PortWriter(ports, machine), agents))
