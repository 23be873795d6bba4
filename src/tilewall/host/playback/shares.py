"""Screen shares: a person's screen shown on a display, zone, mirror group or whole wall
while they share it, then what played there before back again.

A share is a "Screen share" source while it lasts (listed with the other sources, so it
can also be switched to other targets or put in a layout). It is switched to its target
when its first picture reaches the host, not before, so the target never waits on a
black screen; when it ends (the sharer stops, their connection goes, an operator ends it
or deletes its source) every playback target it replaced gets back the timeline it had,
unless someone switched it to something else meanwhile, and the source is deleted
(other targets showing it stop, as for any deleted source).

Shares live in the memory of the host that takes their frames; what each replaced is kept
with the host's state (the setting :data:`SETTING`), so a host that starts again (or the
member of a group that takes over) finds its screen-share sources without a sharer,
gives their targets back what they played and deletes them (:meth:`clear_stale`).
"""

import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import msgspec

from tilewall.host import audit, triggers
from tilewall.host.content import catalogue
from tilewall.host.content.sources import Sources
from tilewall.host.errors import Conflict, Invalid, NotFound
from tilewall.host.memory import Transaction
from tilewall.host.model import Display, MirrorGroup, Source, Timeline, VideoWall, Zone
from tilewall.host.playback.control import Playback, Target
from tilewall.host.playback.sharecodes import ShareCodes
from tilewall.host.state import Core
from tilewall.host.topology.stations import Stations
from tilewall.host.topology.walls import Topology

TargetKind = Literal["display", "zone", "mirror", "wall"]
TARGET_KINDS: tuple[TargetKind, ...] = ("display", "zone", "mirror", "wall")
MAX_SHARER_NAME = 60
#: what the audit trail names a guest's start of a share (without the interface's name
#: for it), the share shown at its first picture, and ended by its sharer
START, SHOW, END = "share: start", "share: show", "share: end"
SETTING = "share_restores"


@dataclass(frozen=True)
class ShareTarget:
    """Where a share goes: a display (its id), a zone, a mirror group or a video wall
    (each by id, or by name when ``by_name``)."""

    kind: TargetKind
    key: str
    by_name: bool = False


@dataclass
class Share:
    """One share; ``id`` is its source's id."""

    id: str
    source_name: str
    shared_by: str
    guest: bool
    target: ShareTarget
    #: the target in words ("zone 'Lobby'")
    target_name: str
    started_ms: int
    #: switched to its targets (its first picture came)
    shown: bool = False
    #: what each playback target it replaced played before: (kind, id) -> timeline
    previous: dict[tuple[str, str], Timeline] = field(default_factory=dict)
    #: the displays it plays on (their share codes are hidden meanwhile)
    covered: list[int] = field(default_factory=list)
    #: who started it, for the audit trail: what the share does later (shown at its
    #: first picture, ended when its sharer goes) is done by them
    actor: audit.Actor = field(default_factory=audit.current_actor)


Player = Display | Zone | MirrorGroup


class Replaced(msgspec.Struct, frozen=True):
    """A playback target a share replaced, and the timeline it had."""

    kind: str
    #: the display's id, or the zone's or mirror group's
    player_id: str
    timeline: Timeline


class Restore(msgspec.Struct):
    """What a share shown on its targets gives back when it ends."""

    replaced: list[Replaced] = []
    #: the displays whose share codes it covers
    covered: list[int] = []


class Restores(msgspec.Struct):
    """The setting :data:`SETTING`: by share id, each share shown and not yet ended."""

    shares: dict[str, Restore] = {}


class Shares:
    def __init__(
        self,
        core: Core,
        sources: Sources,
        playback: Playback,
        topology: Topology,
        stations: Stations,
        codes: ShareCodes,
    ) -> None:
        self._core = core
        self.codes = codes
        self._sources = sources
        self._playback = playback
        self._topology = topology
        self._stations = stations
        self._shares: dict[str, Share] = {}
        #: told the id of each share that ended (the ingest lets its sharer go)
        self.ended: list[Callable[[str], None]] = []
        sources.end_share = self._end_source

    def all(self) -> list[Share]:
        return list(self._shares.values())

    def get(self, share_id: str) -> Share:
        share = self._shares.get(share_id)
        if share is None:
            raise NotFound(f"share {share_id!r} not found (it may have ended)")
        return share

    # --- targets ------------------------------------------------------------------------

    def players(self, target: ShareTarget) -> tuple[str, list[Target]]:
        """The target in words and the playback targets it stands for: a display's own
        (or its zone's or mirror group's, which it shows), a zone, a mirror group, or
        every zone of a wall. NotFound, or Conflict for a wall without zones."""
        if target.kind == "display":
            display = self._stations.display(target.key)
            return f"display {display.display_id}", [self._playback.for_display(display)]
        if target.kind == "zone":
            zone = self._topology.zone(target.key, target.by_name)
            return f"zone {zone.name!r}", [Target("zone", zone)]
        if target.kind == "mirror":
            group = self._topology.mirror(target.key, target.by_name)
            return f"mirror group {group.name!r}", [Target("mirror", group)]
        wall = self._wall(target)
        zones = self._topology.zones_of_wall(wall.id)
        if not zones:
            raise Conflict(f"video wall {wall.name!r} has no zone to show a share in")
        return f"video wall {wall.name!r}", [Target("zone", z) for z in zones]

    def _wall(self, target: ShareTarget) -> VideoWall:
        return self._topology.wall(target.key, target.by_name)

    # --- the life of a share ------------------------------------------------------------

    async def start(self, target: ShareTarget, shared_by: str, guest: bool) -> Share:
        """A new share of ``shared_by`` to ``target`` (checked now; shown at its first
        picture, :meth:`show`)."""
        shared_by = " ".join(shared_by.split())[:MAX_SHARER_NAME]
        if not shared_by:
            raise Invalid("say who shares: a name must not be empty")
        where, _players = self.players(target)
        name = f"Screen of {shared_by}"
        source = await self._sources.create_share(name, shared_by, where)
        share = Share(
            source.id,
            source.name,
            shared_by,
            guest,
            target,
            where,
            self._core.clock.now_ms(),
        )
        self._shares[share.id] = share
        return share

    async def start_as_guest(
        self, code: str, address: str, display_id: int | None, name: str = ""
    ) -> Share:
        """A guest's share to the display showing ``code`` (which must be ``display_id``
        when given); the code is used up. See :meth:`ShareCodes.check`."""
        found = self.codes.check(code, address, display_id)
        name = " ".join(name.split())[: MAX_SHARER_NAME - 8]
        # recorded as a guest, never by the name they give (anyone may give any name)
        guest = audit.Actor(audit.GUEST, address, f"display {found}")
        with audit.acting(guest, audit.OPERATION.get() or START):
            share = await self.start(
                ShareTarget("display", str(found)), f"{name} (guest)" if name else "guest", True
            )
            await self.codes.used(found)
        return share

    async def show(self, share_id: str) -> None:
        """Switch the share's targets to it (once), keeping what each played."""
        share = self._shares.get(share_id)
        if share is None or share.shown:
            return
        source = self._sources.get(share_id)
        try:
            _where, players = self.players(share.target)
        except (NotFound, Conflict):
            return  # the target went meanwhile: the share is a source all the same
        share.shown = True
        share.previous = {(p.kind, _key(p.obj)): p.timeline for p in players}
        share.covered = _covered(players)
        # kept with the first switch, so that a host stopping at any point after it
        # gives back what the targets played
        replaced = [Replaced(kind, key, tl) for (kind, key), tl in share.previous.items()]

        def remember(tx: Transaction) -> None:
            restores = self._restores()
            restores.shares[share.id] = Restore(replaced, share.covered)
            tx.put_setting(SETTING, restores)

        with audit.acting(share.actor, SHOW):
            with triggers.triggered_by("share", share.shared_by):
                for n, player in enumerate(players):
                    await self._playback.switch(player, source, also=None if n else remember)
            await self.codes.cover(share.covered, True)

    async def end(self, share_id: str, by_sharer: bool = False) -> None:
        """End the share: its targets back to what they played, its source deleted; as
        its sharer did (``by_sharer``: they stopped, or never connected), else as the
        current context says (a user ended it)."""
        share = self._shares.pop(share_id, None)
        if share is None:
            return
        with audit.acting(share.actor, END) if by_sharer else contextlib.nullcontext():
            source = self._core.state.sources.get(share_id)
            if source is not None:
                await self._restore(share, source)
            if share.covered:
                await self.codes.cover(share.covered, False)
        for told in self.ended:
            told(share_id)

    async def _restore(self, share: Share, source: Source) -> None:
        with triggers.triggered_by("share", share.shared_by):
            async with self._core.change() as tx:
                self._give_back(tx, source.id, share.previous)
                self._sources.forget(tx, source)
                self._forget_restores(tx, [share.id])

    def _restores(self) -> Restores:
        return self._core.setting(SETTING, Restores, Restores())

    def _forget_restores(self, tx: Transaction, share_ids: list[str]) -> None:
        restores = self._restores()
        if any(i in restores.shares for i in share_ids):
            for share_id in share_ids:
                restores.shares.pop(share_id, None)
            tx.put_setting(SETTING, restores if restores.shares else None)

    def _give_back(
        self, tx: Transaction, source_id: str, previous: dict[tuple[str, str], Timeline]
    ) -> None:
        """Every target still showing ``source_id`` gets back the timeline it had."""
        for (kind, key), before in previous.items():
            player = self._player(kind, key)
            if player is None or player.timeline.assigned_source_id != source_id:
                continue  # gone, or switched to something else meanwhile
            player.timeline = before
            tx.put(player)
            tx.affect(*_display_ids(player))
            tx.mapping = True

    def _player(self, kind: str, key: str) -> Player | None:
        state = self._core.state
        if kind == "display":
            return state.displays.get(int(key))
        if kind == "zone":
            return state.zones.get(key)
        return state.mirrors.get(key)

    async def _end_source(self, source: Source) -> None:
        if source.id in self._shares:
            await self.end(source.id)
            return
        async with self._core.change() as tx:
            self._sources.forget(tx, source)

    async def clear_stale(self) -> None:
        """End the shares no sharer sends to any more (left by a host that stopped):
        their targets get back what they played, their sources are deleted."""
        stale = [
            s
            for s in self._core.state.sources.values()
            if s.type == catalogue.SCREEN_SHARE and s.id not in self._shares
        ]
        restores = self._restores().shares
        ended = [i for i in restores if i not in self._shares]
        if not stale and not ended:
            return
        covered = sorted({d for i in ended for d in restores[i].covered})
        host = audit.Actor(audit.HOST)
        with audit.acting(host, END), triggers.triggered_by("share", "host restart"):
            async with self._core.change() as tx:
                for source in stale:
                    restore = restores.get(source.id, Restore())
                    previous = {(r.kind, r.player_id): r.timeline for r in restore.replaced}
                    self._give_back(tx, source.id, previous)
                    self._sources.forget(tx, source)
                self._forget_restores(tx, ended)
            if covered:
                await self.codes.cover(covered, False)


def _covered(players: list[Target]) -> list[int]:
    return sorted({d for player in players for d in player.display_ids})


def _key(obj: Player) -> str:
    return str(obj.display_id) if isinstance(obj, Display) else obj.id


def _display_ids(obj: Player) -> list[int]:
    return [obj.display_id] if isinstance(obj, Display) else list(obj.display_ids)
