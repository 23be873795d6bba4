"""tilewall network ...: the receiver devices."""

from __future__ import annotations

import click

from tilewall.commands.base import Column, client, interface_group, show, show_list

network = interface_group("network", "Receiver devices: list, lock to the host, unlock, name.")


DEVICE = click.argument("device", metavar="DEVICE")
DEVICE_HELP = "DEVICE is the receiver's IP address or its seat id."


@network.command("list")
def list_devices() -> None:
    """List the receiver devices."""
    columns: list[Column] = [
        ("Seat", "seatId"),
        ("Name", "name"),
        ("Location", "location"),
        ("Address", "ip"),
        ("Status", "status"),
        ("Online", "isOnline"),
        ("Display", "displayId"),
        ("Model", "model"),
    ]
    show_list(client().network.list(), columns, "network")


@network.command("show", epilog=DEVICE_HELP)
@DEVICE
def show_device(device: str) -> None:
    """Show one receiver device."""
    show(client().network.get(device))


@network.command("devices")
@click.argument("seat")
def usb_devices(seat: str) -> None:
    """The USB devices of SEAT."""
    columns: list[Column] = [
        ("Name", "name"),
        ("Subsystem", "subsystem"),
        ("Type", "devtype"),
        ("Driver", "driver"),
        ("File", "device_file"),
    ]
    show_list(client().network.usb_devices(seat), columns, "devices")


@network.command("lock", epilog=DEVICE_HELP)
@DEVICE
def lock(device: str) -> None:
    """Lock a receiver to the host: it becomes a display."""
    show(client().network.lock(device))


@network.command("unlock", epilog=DEVICE_HELP)
@DEVICE
def unlock(device: str) -> None:
    """Unlock a receiver."""
    show(client().network.unlock(device))


@network.command("reset", epilog=DEVICE_HELP)
@DEVICE
def reset(device: str) -> None:
    """Reload a receiver."""
    show(client().network.reset(device))


@network.command("rename", epilog=DEVICE_HELP)
@DEVICE
@click.argument("name", required=False)
@click.option("--location", help="Where the device is.")
def rename(device: str, name: str | None, location: str | None) -> None:
    """Name a receiver device, and say where it is."""
    show(client().network.rename(device, name, location=location))
