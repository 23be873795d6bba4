"""Stations (receivers) and their displays: discovery, locking, liveness, settings."""

import logging
import re

from tilewall.host.errors import Conflict, HostError, Invalid, NotFound
from tilewall.host.licence.rules import LicenceRules
from tilewall.host.memory import Transaction
from tilewall.host.model import Display, Resolution, Station, Timeline
from tilewall.host.state import Core
from tilewall.host.topology import assignment, keys, refusals, walls
from tilewall.host.topology.assignment import AssignmentSettings

log = logging.getLogger(__name__)

MAX_NAME = 256
MAX_LOCATION = 256
_SEAT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$")


def valid_seat_id(seat_id: str) -> bool:
    return bool(_SEAT_ID.match(seat_id))


class Stations:
    def __init__(self, core: Core, licence: LicenceRules) -> None:
        self._core = core
        self._licence = licence
        #: seats with a live connection; liveness is not persisted
        self.online: set[str] = set()
        #: lowest recent round trip host-receiver per seat, in ms; the receiver hub
        #: fills it from its clock exchange, diagnostics read it
        self.round_trip_ms: dict[str, float] = {}
        #: station keys: who may have a locked station (``keys``)
        self.trust = keys.Trust(core)
        #: devices refused a locked station, while they stay connected
        self.refusals = refusals.Refusals(core)

    # assignment settings

    def assignment(self) -> AssignmentSettings:
        return assignment.settings_of(self._core.state)

    async def set_assignment(
        self, auto_assign: bool | None = None, auto_inherit: bool | None = None
    ) -> AssignmentSettings:
        """Change either setting; ``None`` keeps it."""
        now = self.assignment()
        wanted = AssignmentSettings(
            now.auto_assign if auto_assign is None else auto_assign,
            now.auto_inherit if auto_inherit is None else auto_inherit,
        )
        async with self._core.change() as tx:
            tx.put_setting(assignment.AUTO_ASSIGN, wanted.auto_assign)
            tx.put_setting(assignment.AUTO_INHERIT, wanted.auto_inherit)
        return wanted

    # lookups

    def station(self, key: str) -> Station:
        """A station by seat id, or by address when exactly one station has it."""
        state = self._core.state
        found = state.stations.get(key)
        if found is not None:
            return found
        by_ip = [s for s in state.stations.values() if s.ip == key]
        if len(by_ip) == 1:
            return by_ip[0]
        if len(by_ip) > 1:
            raise Conflict(
                f"{len(by_ip)} receivers share the address {key}; address one by its seat id"
            )
        raise NotFound(f"station {key!r} not found")

    def display(self, display_id: int | str) -> Display:
        try:
            number = int(display_id)
        except (TypeError, ValueError):
            raise NotFound(f"display {display_id!r} not found") from None
        found = self._core.state.displays.get(number)
        if found is None:
            raise NotFound(f"display {display_id} not found")
        return found

    def display_of_seat(self, seat_id: str) -> Display | None:
        station = self._core.state.stations.get(seat_id)
        if station is None or station.display_id is None or not station.locked:
            return None
        return self._core.state.displays.get(station.display_id)

    def is_online(self, seat_id: str) -> bool:
        return seat_id in self.online

    # receivers coming and going

    async def hello(
        self,
        seat_id: str,
        ip: str,
        model: str = "",
        firmware: str = "",
        screen: Resolution | None = None,
        resolutions: list[Resolution] | None = None,
        name: str = "",
        usb_devices: list[dict[str, object]] | None = None,
    ) -> Station:
        """A receiver said hello: record it (new ones are available) and mark it online."""
        if not valid_seat_id(seat_id):
            raise Invalid(f"invalid seat id {seat_id!r}")
        state = self._core.state
        existing = state.stations.get(seat_id)
        station = existing or Station(seat_id, name=name or f"Station {seat_id[-6:]}")
        updated = Station(
            seat_id=seat_id,
            name=station.name if station.named else (name or station.name),
            location=station.location,
            ip=ip,
            mac=station.mac,
            model=model[:200],
            firmware=firmware[:100],
            locked=station.locked,
            display_id=station.display_id,
            screen=screen or station.screen,
            resolutions=list(resolutions) if resolutions is not None else station.resolutions,
            usb_devices=list(usb_devices) if usb_devices is not None else station.usb_devices,
            last_seen_ms=self._core.clock.now_ms(),
            named=station.named,
            key_hash=station.key_hash,  # a new screen size or firmware keeps the binding
        )
        self.online.add(seat_id)
        if existing is not None and _same_identity(existing, updated):
            existing.last_seen_ms = updated.last_seen_ms
            self._announce(existing)
            return existing
        settings = self.assignment()
        predecessor = (
            assignment.predecessor(self._core.state, self.online, ip)
            if existing is None and settings.auto_inherit
            else None
        )
        async with self._core.change() as tx:
            if predecessor is not None:
                self._inherit(tx, predecessor, updated, named=bool(name))
            tx.put(updated)
            tx.topology = True
            if updated.display_id is not None:
                tx.affect(updated.display_id)
        if existing is None and predecessor is None and settings.auto_assign:
            try:
                await self.lock(seat_id)
            except HostError as error:  # a full licence keeps it available
                log.warning("receiver %s not assigned automatically: %s", seat_id, error)
        self._announce(updated)
        return state.stations[seat_id]

    def _inherit(self, tx: Transaction, old: Station, new: Station, named: bool) -> None:
        """``new`` replaces ``old`` on its seat: same display, same place in the topology."""
        assert old.display_id is not None
        log.info("receiver %s replaces %s as display %d", new.seat_id, old.seat_id, old.display_id)
        new.locked = True
        new.display_id = old.display_id
        new.location = old.location
        if not named or old.named:
            new.name = old.name
            new.named = old.named
        display = self._core.state.displays.get(old.display_id)
        if display is not None:
            display.seat_id = new.seat_id
            tx.put(display)
        old.locked = False
        old.display_id = None
        old.key_hash = ""
        tx.put(old)
        self.round_trip_ms.pop(old.seat_id, None)

    def _announce(self, station: Station) -> None:
        """Online state changed without a stored change: tell listeners anyway."""
        self._core.notify(
            frozenset({station.display_id}) if station.display_id is not None else frozenset(),
            topology=True,
        )

    def set_online(self, seat_id: str) -> None:
        if seat_id not in self.online and seat_id in self._core.state.stations:
            self.online.add(seat_id)
            self._announce(self._core.state.stations[seat_id])

    def set_offline(self, seat_id: str) -> None:
        if seat_id in self.online:
            self.online.discard(seat_id)
            station = self._core.state.stations.get(seat_id)
            if station is not None:
                self._announce(station)

    def replace_online(self, seats: frozenset[str]) -> None:
        """These seats are online, no other (a standby showing the active member's)."""
        for seat in sorted(self.online - seats):
            self.set_offline(seat)
        for seat in sorted(seats - self.online):
            self.set_online(seat)

    # lock, unlock, reset

    def _next_display_id(self) -> int:
        used = [s.display_id for s in self._core.state.stations.values() if s.display_id]
        used += list(self._core.state.displays)
        return max(used, default=0) + 1

    async def lock(self, key: str) -> Station:
        station = self.station(key)
        if station.locked:
            return station
        locked_now = sum(1 for s in self._core.state.stations.values() if s.locked)
        self._licence.check_station_capacity(locked_now)
        station_key: str | None = None
        async with self._core.change() as tx:
            station.locked = True
            if station.display_id is None:
                station.display_id = self._next_display_id()
            if station.seat_id in self.online:  # bound to the device connected now
                station_key = keys.bind(station)
            tx.put(station)
            tx.put(Display(station.display_id, station.seat_id, timeline=Timeline()))
            tx.affect(station.display_id)
            tx.topology = True
        if station_key is not None:
            self.trust.hand(station.seat_id, station_key)
            self._core.command(station.seat_id, "key")
        return station

    async def unlock(self, key: str) -> Station:
        station = self.station(key)
        if not station.locked:
            return station
        async with self._core.change() as tx:
            station.locked = False
            station.key_hash = ""
            tx.put(station)
            if station.display_id is not None:
                self._forget_display(tx, station.display_id)
            tx.topology = True
        self.trust.hand(station.seat_id, None)
        self._core.command(station.seat_id, "key")
        if self.refusals.of(station.seat_id):  # the device it refused takes it now
            self._core.command(station.seat_id, refusals.ADOPT)
        return station

    async def repair(self, key: str) -> Station:
        """Make the device the station refused most recently the station, locked."""
        station = self.station(key)
        if not station.locked:
            self._licence.check_station_capacity(
                sum(1 for s in self._core.state.stations.values() if s.locked)
            )
        display_id = station.display_id or self._next_display_id()
        await refusals.repair(self._core, self.trust, self.refusals, station, display_id)
        return station

    def _forget_display(self, tx: Transaction, display_id: int) -> None:
        state = self._core.state
        display = state.displays.get(display_id)
        if display is not None:
            tx.delete(display)
        for wall in state.walls.values():
            if any(m.display_id == display_id for m in wall.monitors):
                wall.monitors = [m for m in wall.monitors if m.display_id != display_id]
                tx.put(wall)
        for zone in state.zones.values():
            if display_id in zone.display_ids:
                zone.display_ids.remove(display_id)
                if zone.control_display_id == display_id:
                    zone.control_display_id = zone.display_ids[0] if zone.display_ids else 0
                tx.put(zone)
        for group in state.mirrors.values():
            if display_id in group.display_ids:
                group.display_ids.remove(display_id)
                tx.put(group)
        tx.affect(display_id)
        tx.mapping = True

    def reset_station(self, key: str) -> Station:
        station = self.station(key)
        self._core.command(station.seat_id, "reload")
        return station

    def reset_display(self, display_id: int | str) -> Display:
        display = self.display(display_id)
        self._core.command(display.seat_id, "reset")
        return display

    async def set_identity(
        self, key: str, name: str | None = None, location: str | None = None
    ) -> Station:
        """Name and location of a receiver, as operators call it; ``None`` keeps either."""
        station = self.station(key)
        if name is not None:
            name = name.strip()
            if not name:
                raise Invalid("name must not be empty")
            if len(name) > MAX_NAME:
                raise Invalid(f"name must be at most {MAX_NAME} characters")
        if location is not None:
            location = location.strip()
            if len(location) > MAX_LOCATION:
                raise Invalid(f"location must be at most {MAX_LOCATION} characters")
        async with self._core.change() as tx:
            if name is not None:
                station.name = name
                station.named = True
            if location is not None:
                station.location = location
            tx.put(station)
            tx.topology = True
            if station.display_id is not None:
                tx.affect(station.display_id)
        return station

    # display settings

    def resolution(self, display: Display) -> Resolution:
        station = self._core.state.stations.get(display.seat_id)
        if display.resolution is not None:
            return display.resolution
        if station is not None and station.screen is not None:
            return station.screen
        return Resolution(1920, 1080)

    def resolutions(self, display: Display) -> list[Resolution]:
        station = self._core.state.stations.get(display.seat_id)
        found = list(station.resolutions) if station is not None else []
        current = self.resolution(display)
        if current not in found:
            found.insert(0, current)
        return found

    async def set_resolution(self, display: Display, width: int, height: int) -> Display:
        if width <= 0 or height <= 0 or width > 16384 or height > 16384:
            raise Invalid("width and height must be between 1 and 16384")
        wanted = Resolution(width, height)
        station = self._core.state.stations.get(display.seat_id)
        available = station.resolutions if station is not None else []
        if available and wanted not in available:
            listed = ", ".join(f"{r.width}x{r.height}" for r in available)
            raise Invalid(f"display {display.display_id} offers only {listed}")
        async with self._core.change() as tx:
            display.resolution = wanted
            tx.put(display)
            tx.affect(display.display_id)
        return display

    async def set_tag(self, display: Display, tag: str) -> Display:
        if len(tag) > 256:
            raise Invalid("displayTag must be at most 256 characters")
        async with self._core.change() as tx:
            display.tag = tag
            tx.put(display)
        return display

    def station_type(self, display_id: int) -> str:
        return walls.station_type(self._core.state, display_id)


def _same_identity(a: Station, b: Station) -> bool:
    return (
        a.ip == b.ip
        and a.model == b.model
        and a.firmware == b.firmware
        and a.screen == b.screen
        and a.resolutions == b.resolutions
        and a.usb_devices == b.usb_devices
        and a.name == b.name
    )
