"""Receiver devices on the network: list, read, lock to the host, unlock, reset, name.
A device is addressed by its IP address as the host sees it, or by its seat id."""

from __future__ import annotations

from tilewall.client.base import Items, Json, Resource, seg


class Network(Resource):
    def list(self) -> Items:
        return self._t.array("GET", "/network", "network")

    def get(self, device: str) -> Json:
        return self._t.json("GET", "/network" + seg(device))

    def usb_devices(self, seat_id: str) -> Items:
        """The USB devices of a seat (404 when it has none)."""
        return self._t.array("GET", f"/network/devices{seg(seat_id)}", "devices")

    def lock(self, device: str) -> Json:
        """Make the device this host's: it gets a display."""
        return self._t.json("PUT", f"/network{seg(device)}/lock")

    def unlock(self, device: str) -> Json:
        return self._t.json("PUT", f"/network{seg(device)}/unlock")

    def reset(self, device: str) -> Json:
        return self._t.json("PUT", f"/network{seg(device)}/reset")

    def rename(self, device: str, name: str | None = None, *, location: str | None = None) -> Json:
        """Set the device's name and where it is; what is None is kept (an extension)."""
        body: Json = {}
        if name is not None:
            body["name"] = name
        if location is not None:
            body["location"] = location
        return self._t.json("PUT", "/network" + seg(device), json=body)
