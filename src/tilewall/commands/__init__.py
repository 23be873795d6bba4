"""The commands that drive a host over its interface: ``tilewall GROUP COMMAND``, one
group per part of the interface. They use :mod:`tilewall.client` only, so they work on
any machine that can reach a host."""

from __future__ import annotations

import click

from tilewall.commands import settings as _settings  # noqa: F401  (adds to system)
from tilewall.commands.content import media, presets, sources
from tilewall.commands.devices import network, serial
from tilewall.commands.displays import displays
from tilewall.commands.failover import failover, printprofiles
from tilewall.commands.schedule import playlog, schedule
from tilewall.commands.system import system
from tilewall.commands.walls import controlroom, videowalls
from tilewall.commands.zones import mirrorgroups, zones

GROUPS: list[click.Group] = [
    displays,
    zones,
    mirrorgroups,
    presets,
    sources,
    media,
    network,
    videowalls,
    controlroom,
    system,
    failover,
    printprofiles,
    serial,
    schedule,
    playlog,
]
