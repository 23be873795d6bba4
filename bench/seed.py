"""Seed a benchmark topology into a fresh data directory, through the host's services.

N receivers say hello and are locked (N displays); every four displays form a 2x2 video
wall with one zone over the whole wall (displays left over stay standalone), or with
``--one-zone`` all N displays form one wall (a grid) with one zone over all of it; a
number of Web Browser sources complete the catalogue. The admin user gets a known password so the
runner can log in. What was created is written to ``DATA_DIR/bench-seed.json``; with
``--database`` the state goes into that PostgreSQL database instead of SQLite in
``DATA_DIR`` (as a host started with ``--database`` keeps it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tilewall.assembly import open_host
from tilewall.host.content import catalogue
from tilewall.host.host import Host
from tilewall.host.model import Geometry, Param, Resolution
from tilewall.host.playback.control import Target
from tilewall.host.topology.walls import MonitorSpec

ADMIN = "admin"
PASSWORD = "bench-password-not-secret"
SEED_FILE = "bench-seed.json"
PANEL_W, PANEL_H, BEZEL = 1210.0, 680.0, 10.0


@dataclass
class Seeded:
    displays: list[int] = field(default_factory=list)
    walls: list[str] = field(default_factory=list)
    zones: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)

    @classmethod
    def read(cls, data_dir: Path) -> Seeded:
        return cls(**json.loads((data_dir / SEED_FILE).read_text()))


def _panel(col: int, row: int) -> Geometry:
    return Geometry(
        PANEL_W,
        PANEL_H,
        PANEL_W / 2 + col * (PANEL_W + BEZEL),
        PANEL_H / 2 + row * (PANEL_H + BEZEL),
        0.0,
    )


def _grid(n: int) -> list[Geometry]:
    """``n`` panels in rows of ``ceil(sqrt(n))``."""
    cols = max(1, math.ceil(math.sqrt(n)))
    return [_panel(i % cols, i // cols) for i in range(n)]


async def seed_host(host: Host, displays: int, sources: int, one_zone: bool = False) -> Seeded:
    out = Seeded()
    await host.accounts.set_password(ADMIN, PASSWORD)
    screen = Resolution(1920, 1080)
    for n in range(displays):
        seat = f"bench-{n:05d}"
        await host.stations.hello(seat, "127.0.0.1", "bench receiver", "bench-1", screen, [screen])
        # no connection of it exists in this process: locked offline, the station is bound
        # (given its key) when the fleet's receiver for it first connects to the server
        host.stations.set_offline(seat)
        station = await host.stations.lock(seat)
        assert station.display_id is not None
        out.displays.append(station.display_id)
    groups = (
        [(out.displays, _grid(len(out.displays)))]
        if one_zone and out.displays
        else [
            (out.displays[w * 4 : w * 4 + 4], [_panel(i % 2, i // 2) for i in range(4)])
            for w in range(len(out.displays) // 4)
        ]
    )
    for w, (members, panels) in enumerate(groups):
        wall = await host.topology.create_wall(
            f"Wall {w + 1}",
            [MonitorSpec(d, g, 1397.0) for d, g in zip(members, panels, strict=True)],
            None,
        )
        zone = await host.topology.create_zone(f"Zone {w + 1}", wall.id, members, None)
        out.walls.append(wall.id)
        out.zones.append(zone.id)
    for s in range(sources):
        source = await host.sources.create(
            f"Page {s + 1}",
            catalogue.WEB_BROWSER,
            [
                Param("URL", catalogue.URL, f"https://example.org/page/{s + 1}"),
                Param("NUMBER", catalogue.REFRESH_INTERVAL, "300"),
            ],
        )
        out.sources.append(source.id)
    if out.sources:
        for zone_id in out.zones:
            await host.playback.switch(Target("zone", host.state.zones[zone_id]), source)
    return out


async def _seed(
    data_dir: Path, displays: int, sources: int, one_zone: bool, database: str | None
) -> Seeded:
    host = await open_host(data_dir, database=database)
    try:
        seeded = await seed_host(host, displays, sources, one_zone)
    finally:
        await host.close()
    (data_dir / SEED_FILE).write_text(json.dumps(asdict(seeded)))
    return seeded


def seed(
    data_dir: Path,
    displays: int,
    sources: int = 20,
    one_zone: bool = False,
    database: str | None = None,
) -> Seeded:
    """A fresh data directory at ``data_dir`` (anything there is removed) with the topology
    (in the empty PostgreSQL database ``database`` if given)."""
    if data_dir.exists():
        shutil.rmtree(data_dir)
    data_dir.mkdir(parents=True)
    return asyncio.run(_seed(data_dir, displays, sources, one_zone, database))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("data_dir", type=Path)
    parser.add_argument("--displays", type=int, default=10)
    parser.add_argument("--sources", type=int, default=20)
    parser.add_argument(
        "--one-zone", action="store_true", help="all displays in one wall with one zone"
    )
    parser.add_argument(
        "--database", help="postgresql://... : seed this (empty) database instead of SQLite"
    )
    args = parser.parse_args()
    seeded = seed(args.data_dir, args.displays, args.sources, args.one_zone, args.database)
    print(
        f"seeded {len(seeded.displays)} displays, {len(seeded.walls)} walls, "
        f"{len(seeded.sources)} sources"
    )


if __name__ == "__main__":
    main()
