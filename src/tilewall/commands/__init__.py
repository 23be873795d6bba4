"""The commands that drive a host over its interface: ``tilewall GROUP COMMAND``, one
group per part of the interface. They use :mod:`tilewall.client` only, so they work on
any machine that can reach a host.

The groups (and the HTTP client under them) are imported when first asked for: when one
of them is named on the command line or the commands are listed (:class:`WithGroups`),
or through ``GROUPS``; ``tilewall serve`` never loads them."""

from __future__ import annotations

from typing import Any

import click


def _groups() -> list[click.Group]:
    from tilewall.commands import settings as _settings  # noqa: F401  (adds to system)
    from tilewall.commands.content import media, presets, sources
    from tilewall.commands.devices import network, serial
    from tilewall.commands.displays import displays
    from tilewall.commands.failover import failover, printprofiles
    from tilewall.commands.schedule import playlog, schedule
    from tilewall.commands.system import system
    from tilewall.commands.walls import controlroom, videowalls
    from tilewall.commands.zones import mirrorgroups, zones

    return [
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


def __getattr__(name: str) -> Any:
    if name == "GROUPS":
        return _groups()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class WithGroups(click.Group):
    """A command group (``tilewall``) that adds the interface's groups when one of them
    is named or its commands are listed."""

    _added = False

    def _add_groups(self) -> None:
        if not self._added:
            self._added = True
            for group in _groups():
                self.add_command(group)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None and not self._added:
            self._add_groups()
            command = super().get_command(ctx, cmd_name)
        return command

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._add_groups()
        return super().list_commands(ctx)
