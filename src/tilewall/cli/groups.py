"""The command groups of ``tilewall`` (``tilewall GROUP COMMAND``), listed once in
``GROUPS``: those that drive a host's interface are in :mod:`tilewall.commands`, one
module each named as its group (``tilewall printprofiles ...`` in
``commands/printprofiles.py``); ``user`` and ``license``, which work on this machine
(the data directory, signing keys), beside this module. A group (and the HTTP client
under it) is imported when it is named on the command line, or when the commands are
listed (:class:`WithGroups`): ``tilewall serve`` loads none of them."""

from __future__ import annotations

import importlib

import click

#: every command group: its name on the command line, and where it is defined
#: (``module:attribute``)
GROUPS: dict[str, str] = {
    "audit": "tilewall.cli.audit:audit",
    "controlroom": "tilewall.commands.controlroom:controlroom",
    "displays": "tilewall.commands.displays:displays",
    "failover": "tilewall.commands.failover:failover",
    "license": "tilewall.cli.license:license_group",
    "media": "tilewall.commands.media:media",
    "mirrorgroups": "tilewall.commands.mirrorgroups:mirrorgroups",
    "network": "tilewall.commands.network:network",
    "playlog": "tilewall.commands.playlog:playlog",
    "presets": "tilewall.commands.presets:presets",
    "printprofiles": "tilewall.commands.printprofiles:printprofiles",
    "schedule": "tilewall.commands.schedule:schedule",
    "serial": "tilewall.commands.serial:serial",
    "sources": "tilewall.commands.sources:sources",
    "system": "tilewall.commands.system:system",
    "user": "tilewall.cli.user:user",
    "users": "tilewall.commands.users:users",
    "videowalls": "tilewall.commands.videowalls:videowalls",
    "zones": "tilewall.commands.zones:zones",
}


def command_group(name: str) -> click.Group | None:
    """The group called ``name`` on the command line, imported now; None if none is."""
    where = GROUPS.get(name)
    if where is None:
        return None
    module, attribute = where.split(":")
    group = getattr(importlib.import_module(module), attribute)
    if not isinstance(group, click.Group) or group.name != name:
        raise TypeError(f"{where} is not the command group {name!r}")
    return group


def command_groups() -> list[click.Group]:
    """Every command group, imported now."""
    return [group for name in GROUPS if (group := command_group(name)) is not None]


class WithGroups(click.Group):
    """A command group (``tilewall``) that adds the groups of ``GROUPS`` when one of them
    is named (that one only) or its commands are listed (all)."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is None:
            command = command_group(cmd_name)
            if command is not None:
                self.add_command(command)
        return command

    def list_commands(self, ctx: click.Context) -> list[str]:
        for group in command_groups():
            if group.name not in self.commands:
                self.add_command(group)
        return super().list_commands(ctx)
