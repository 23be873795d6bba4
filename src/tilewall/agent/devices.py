"""The device's udev devices (usb, input, tty, drm, sound), kept up to date on hot-plug.

Devices are read with pyudev (libudev). Hot-plug events come from udev when its daemon
runs (``/run/udev/control``), else straight from the kernel's uevents. The monitor is
read from the connected DRM connector's EDID (``edid``); sound cards are the station's
media devices, described by their USB device when they are on USB.
"""

import asyncio
import contextlib
import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyudev

from tilewall.agent import edid
from tilewall.agent.wire import DeviceItem, Devices, UdevDevice

log = logging.getLogger(__name__)

SUBSYSTEMS = ("usb", "input", "tty", "drm", "sound")
#: the protocol's bounds on one device
MAX_PROPERTIES = 256
MAX_TEXT = 1024
_CARD = re.compile(r"card\d+")


def _text(value: object) -> str:
    return str(value)[:MAX_TEXT]


def record(device: pyudev.Device) -> UdevDevice:
    """One device as the interface lists it."""
    properties = {}
    for name in list(device.properties)[:MAX_PROPERTIES]:
        properties[name[:256]] = _text(device.properties.get(name, ""))
    return UdevDevice(
        is_initialized=bool(device.is_initialized),
        name=_text(device.sys_name),
        subsystem=_text(device.subsystem or ""),
        sysfs_path=_text(device.sys_path),
        property_keys=properties,
        device_file=device.device_node,
        devtype=device.device_type,
        driver=device.driver,
        number=device.sys_number,
    )


def _attribute(device: pyudev.Device | None, name: str) -> str:
    if device is None:
        return ""
    try:
        value = device.attributes.get(name)
    except (OSError, KeyError):
        return ""
    if value is None:
        return ""
    raw = value if isinstance(value, bytes) else str(value).encode()
    return raw.decode("utf-8", "replace").strip()[:256]


def media_item(seat: str, device: pyudev.Device) -> DeviceItem | None:
    """A sound card as a MEDIA_DEVICE: its USB device's ids and names when on USB."""
    if device.subsystem != "sound" or not _CARD.fullmatch(device.sys_name or ""):
        return None
    try:
        usb = device.find_parent("usb", "usb_device")
    except (OSError, ValueError):
        usb = None
    props = device.properties
    return DeviceItem(
        id=f"{seat}:sound:{device.sys_name}",
        type="MEDIA_DEVICE",
        vid=_attribute(usb, "idVendor") or str(props.get("ID_VENDOR_ID", "")),
        pid=_attribute(usb, "idProduct") or str(props.get("ID_MODEL_ID", "")),
        manufacturer=_attribute(usb, "manufacturer")
        or str(props.get("ID_VENDOR_FROM_DATABASE", props.get("ID_VENDOR", ""))),
        model=_attribute(usb, "product")
        or str(props.get("ID_MODEL_FROM_DATABASE", ""))
        or _attribute(device, "id"),
        serial=_attribute(usb, "serial"),
    )


def display_items(seat: str, monitors: list[edid.Monitor]) -> list[DeviceItem]:
    return [
        DeviceItem(
            id=f"{seat}:{m.connector}",
            type="DISPLAY",
            vid=m.pnp_id,
            pid=f"{m.product_code:04x}",
            manufacturer=m.manufacturer,
            model=m.model,
            serial=m.serial,
        )
        for m in monitors
    ]


class DeviceWatch:
    """The devices of the machine, by sysfs path, updated from hot-plug events.

    ``changed`` is called (at most every ``settle_s``) after devices came or went."""

    def __init__(
        self,
        seat: str,
        sysfs: Path = Path("/sys"),
        changed: Callable[[], Any] | None = None,
        settle_s: float = 0.5,
    ) -> None:
        self.seat = seat
        self.sysfs = sysfs
        self._changed = changed
        self._settle_s = settle_s
        self._context = pyudev.Context()
        self._devices: dict[str, tuple[UdevDevice, DeviceItem | None]] = {}
        self._monitor: pyudev.Monitor | None = None
        self._pending: asyncio.TimerHandle | None = None

    def scan(self) -> None:
        """Read every device of the subsystems afresh."""
        found: dict[str, tuple[UdevDevice, DeviceItem | None]] = {}
        for subsystem in SUBSYSTEMS:
            for device in self._context.list_devices(subsystem=subsystem):
                with contextlib.suppress(OSError, ValueError):
                    found[device.sys_path] = (record(device), media_item(self.seat, device))
        self._devices = found

    def snapshot(self) -> Devices:
        udev = [entry for entry, _ in self._devices.values()]
        media = [item for _, item in self._devices.values() if item is not None]
        displays = display_items(self.seat, edid.connected_monitors(self.sysfs))
        return Devices(udev=udev, items=[*displays, *media])

    # --- hot-plug -------------------------------------------------------------------------

    def start(self) -> None:
        """Follow hot-plug events in the running event loop."""
        self.scan()
        source = "udev" if Path("/run/udev/control").exists() else "kernel"
        try:
            monitor = pyudev.Monitor.from_netlink(self._context, source=source)
            for subsystem in SUBSYSTEMS:
                monitor.filter_by(subsystem)
            monitor.start()
        except (OSError, ValueError) as error:
            log.warning("no hot-plug events (%s); devices are read at each connection", error)
            return
        self._monitor = monitor
        asyncio.get_running_loop().add_reader(monitor.fileno(), self._on_readable)
        log.info("following hot-plug events from %s", source)

    def stop(self) -> None:
        if self._monitor is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self._monitor.fileno())
            self._monitor = None
        if self._pending is not None:
            self._pending.cancel()

    def _on_readable(self) -> None:
        monitor = self._monitor
        if monitor is None:
            return
        while True:
            try:
                device = monitor.poll(timeout=0)
            except (OSError, ValueError) as error:
                log.warning("hot-plug event unreadable: %s", error)
                return
            if device is None:
                break
            self.apply(device.action or "change", device)

    def apply(self, action: str, device: pyudev.Device) -> None:
        """One hot-plug event: a device came, changed or went."""
        if device.subsystem not in SUBSYSTEMS:
            return
        if action in ("remove", "unbind"):
            if action == "remove":
                self._devices.pop(device.sys_path, None)
        else:
            try:
                self._devices[device.sys_path] = (record(device), media_item(self.seat, device))
            except (OSError, ValueError):
                return
        log.debug("%s %s", action, device.sys_path)
        self._schedule()

    def _schedule(self) -> None:
        if self._changed is None or self._pending is not None:
            return
        self._pending = asyncio.get_running_loop().call_later(self._settle_s, self._fire)

    def _fire(self) -> None:
        self._pending = None
        if self._changed is not None:
            self._changed()
