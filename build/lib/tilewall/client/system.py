"""/system: what the host is, its licence, power, software, logs, reports, remote
control, machine settings, and what shows over every display (alerts, display ids,
DPMS)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from tilewall.client.base import Items, Json, Resource

AlertLevel = Literal["GREEN_LEVEL", "ORANGE_LEVEL", "RED_LEVEL"]


def _display(display_id: int | None) -> dict[str, str | int | bool] | None:
    return None if display_id is None else {"displayId": display_id}


class System(Resource):
    def info(self) -> Json:
        """Host name, address, versions and station counts."""
        return self._t.json("GET", "/system")

    def mapping_data_version(self) -> str:
        """'-1' outside a failover group, else an opaque value that changes with the
        station-to-source mapping; compare it for equality only."""
        return self._t.text("GET", "/system/mappingdataversion")

    # licence

    def license(self) -> Json:
        return self._t.json("GET", "/system/license")

    def set_license(self, activation_code: str, stations: int | None = None) -> Json:
        """Claim a licence, change its display count, or replace it. ``stations`` None:
        what the code allows."""
        body: Json = {"activationCode": activation_code}
        if stations is not None:
            body["numberOfStations"] = stations
        return self._t.json("PUT", "/system/license", json=body)

    def delete_license(self) -> Json:
        return self._t.json("DELETE", "/system/license")

    def download_license(self) -> str:
        """The licence backup (text; give it back to :meth:`set_license` to restore)."""
        return self._t.text("GET", "/system/license/download")

    # power, software, logs

    def reboot(self) -> Json:
        return self._t.json("PUT", "/system/reboot")

    def shutdown(self) -> Json:
        return self._t.json("PUT", "/system/shutdown")

    def manifest(self) -> Items:
        """The installed packages, ``{name, version}``."""
        return self._t.array("GET", "/system/manifest", "installedPackages")

    def diagnostics(self) -> Items:
        """The host's self-check: ``{id, success, params}`` per check."""
        return self._t.array("GET", "/system/diag", "results")

    def api_log(self) -> str:
        """The interface log: one line per request."""
        return self._t.text("GET", "/system/apilog")

    def packages(self) -> Items:
        """Optional third-party packages and whether they are installed."""
        return self._t.array("GET", "/system/installthirdpartypackage")

    def install_packages(self, names: Sequence[str]) -> Items:
        return self._t.array("POST", "/system/installthirdpartypackage", json=list(names))

    def submit_report(
        self,
        *,
        name: str = "",
        email: str = "",
        category: str = "",
        what_doing: str = "",
        description: str = "",
        additional_text: str = "",
    ) -> Json:
        """Build a troubleshooting report from the form (the interface spells the
        category field ``catagory``)."""
        body = {
            "name": name,
            "email": email,
            "catagory": category,
            "whatDoing": what_doing,
            "description": description,
            "additionalText": additional_text,
        }
        return self._t.json("POST", "/system/submittroubleshootingreport", json=body)

    def download_report(self) -> bytes:
        """The last troubleshooting report, a tar.bz2 archive."""
        return self._t.raw("GET", "/system/downloadtroubleshootingreport")

    # remote control

    def vpn(self) -> Json:
        return self._t.json("GET", "/system/vpn")

    def start_vpn(self) -> Json:
        return self._t.json("PUT", "/system/vpn")

    def stop_vpn(self) -> Json:
        return self._t.json("DELETE", "/system/vpn")

    # machine settings

    def hostname(self) -> Json:
        return self._t.json("GET", "/system/hostname")

    def set_hostname(self, hostname: str) -> Json:
        return self._t.json("PUT", "/system/hostname", json={"hostName": hostname})

    def timezone(self) -> Json:
        """``{currentTimeZone: {timezone, offset}, availableTimeZones}``."""
        return self._t.json("GET", "/system/timezone")

    def set_timezone(self, timezone: str) -> Json:
        return self._t.json("PUT", "/system/timezone", json={"timezone": timezone})

    def network_interfaces(self) -> Items:
        return self._t.array("GET", "/system/networkinterfaces")

    def set_network_interface(self, interface: Json) -> None:
        """Change one interface: ``interface`` holds ``id`` and the interface's fields
        (usesDHCP, ipAddress, subnetMask, defaultGateway, preferredDNSAddress,
        alternateDNSAddress, runningDhcpd). Accepted is not yet in effect."""
        self._t.request("PUT", "/system/networkinterfaces", json=interface)

    def partner_access(self) -> Json:
        return self._t.json("GET", "/system/partneraccess")

    def set_partner_access(self, allowed: bool) -> Json:
        return self._t.json("PUT", "/system/partneraccess", json={"partnerAccess": allowed})

    def receiver_assignment(self) -> Json:
        return self._t.json("GET", "/system/receiverdeviceassignmentsettings")

    def set_receiver_assignment(
        self, *, auto_assign: bool | None = None, auto_inherit: bool | None = None
    ) -> Json:
        """What is None is kept."""
        body: dict[str, Any] = {}
        if auto_assign is not None:
            body["autoAssign"] = auto_assign
        if auto_inherit is not None:
            body["autoInherit"] = auto_inherit
        return self._t.json("PUT", "/system/receiverdeviceassignmentsettings", json=body)

    # over every display

    def broadcast(self) -> Json:
        """Whether an alert shows, and which."""
        return self._t.json("GET", "/system/broadcast")

    def start_broadcast(
        self, message: str, level: AlertLevel = "GREEN_LEVEL", length_ms: int = 60_000
    ) -> Json:
        """Show ``message`` on every display for ``length_ms`` milliseconds."""
        body = {"message": message, "alertLevel": level, "lengthMillisec": length_ms}
        return self._t.json("PUT", "/system/broadcast/start", json=body)

    def stop_broadcast(self) -> Json:
        return self._t.json("PUT", "/system/broadcast/stop")

    def show_display_ids(self, display_id: int | None = None) -> Json:
        """Show each display's id on it (every display, or only ``display_id``)."""
        return self._t.json("PUT", "/system/showDisplayIds/start", params=_display(display_id))

    def hide_display_ids(self, display_id: int | None = None) -> Json:
        return self._t.json("PUT", "/system/showDisplayIds/stop", params=_display(display_id))

    def dpms_off(self, display_id: int | None = None) -> Json:
        """Put every display, or one, to sleep."""
        return self._dpms("forceoff", display_id)

    def dpms_on(self, display_id: int | None = None) -> Json:
        return self._dpms("forceon", display_id)

    def _dpms(self, action: str, display_id: int | None) -> Json:
        path = f"/system/dpms/{action}"
        if display_id is None:
            return self._t.json("PUT", path)
        return self._t.json("PUT", path, json={"displayID": str(display_id)})
