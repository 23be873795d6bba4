"""/system: what the host is, its health, power, software and the interface log."""

import asyncio
from collections.abc import Callable
from typing import Annotated, Any

import msgspec
from litestar import MediaType, Response, delete, get, post, put
from litestar.handlers import HTTPRouteHandler
from litestar.params import Body
from litestar.types import AnyCallable

from tilewall.api import accesslog
from tilewall.api.common import Method, errors
from tilewall.api.read_cache import EncodedOnce, Key, answer_early, state_revision
from tilewall.host.host import Host
from tilewall.host.machine.facts import (
    PACKAGE_CATALOGUE_NAMES,
    CatalogueEntry,
    DiagnosticResult,
    PackageVersion,
)
from tilewall.host.machine.settings import RemoteControl
from tilewall.host.machine.system import PowerOutcome

TAGS = ["System"]
#: the newest part of the interface log that GET /system/apilog returns
MAX_API_LOG_BYTES = 8 * 1024 * 1024


#: names from the catalogue (GET /system/installthirdpartypackage), at least one
PackageNames = Annotated[
    list[str],
    Body(
        schema_extra={
            "min_items": 1,
            "items": {"type": "string", "enum": sorted(PACKAGE_CATALOGUE_NAMES)},
        }
    ),
]


class SystemInfoOut(msgspec.Struct):
    hostName: str
    ipAddress: str
    licenseSystemId: str
    productVersion: str
    productBuildData: str
    linuxDistro: str
    linuxVersion: str
    onboardStations: int
    usbStations: int
    networkStations: int
    unknownStations: int
    version: str


class PowerOut(msgspec.Struct):
    action: str
    performed: bool
    message: str


class ManifestOut(msgspec.Struct):
    installedPackages: list[PackageVersion]


class DiagOut(msgspec.Struct):
    results: list[DiagnosticResult]


class VpnOut(msgspec.Struct):
    running: bool
    #: False when host management is off and remote control is only simulated
    managed: bool
    service: str


def _system(
    method: Method,
    path: str,
    summary: str,
    description: str | None = None,
    *codes: int,
    **extra: Any,
) -> Callable[[AnyCallable], HTTPRouteHandler]:
    """An operation of /system: tagged System, documenting its refusals ``codes``."""
    return method(
        path, tags=TAGS, summary=summary, description=description, responses=errors(*codes), **extra
    )


def _system_key(host: Host) -> Key:
    """The state (stations, the system id, a simulated host name) and the machine facts
    as last read (refreshed on a timer and when the host changes them, see
    ``tilewall.host.machine.system``)."""
    return (state_revision(host), host.machine.facts_version)


async def _system_info(host: Host) -> SystemInfoOut:
    i = await host.machine.info()
    return SystemInfoOut(
        i.host_name,
        i.ip_address,
        i.system_id,
        i.product_version,
        i.product_build_data,
        i.linux_distro,
        i.linux_version,
        i.onboard_stations,
        i.usb_stations,
        i.network_stations,
        i.unknown_stations,
        i.version,
    )


SYSTEM = EncodedOnce(_system_info, _system_key)
answer_early("/system", SYSTEM)


@_system(get, "/system", "Host information")
async def system_info(host: Host) -> Response[SystemInfoOut]:
    return await SYSTEM.response(host)


@_system(
    get,
    "/system/mappingdataversion",
    "Mapping data version (-1 outside a failover group)",
    media_type=MediaType.TEXT,
)
async def mapping_data_version(host: Host) -> str:
    return host.mapping_data_version(host.failover_member())


def _power(outcome: PowerOutcome) -> PowerOut:
    return PowerOut(outcome.action, outcome.performed, outcome.message)


_POWER_DOC = (
    "With host management on, the machine {0} (the answer may be the last one). "
    "With host management off (the default) the request is recorded and nothing "
    "happens; `performed` tells which."
)


@_system(put, "/system/reboot", "Reboot the machine", _POWER_DOC.format("reboots"), 503)
async def reboot(host: Host) -> PowerOut:
    return _power(await host.machine.reboot())


@_system(put, "/system/shutdown", "Shut the machine down", _POWER_DOC.format("shuts down"), 503)
async def shutdown(host: Host) -> PowerOut:
    return _power(await host.machine.shutdown())


@_system(get, "/system/manifest", "Installed packages (Python distributions, then Debian packages)")
async def manifest(host: Host) -> ManifestOut:
    return ManifestOut(await host.machine_settings.manifest())


@_system(
    get,
    "/system/diag",
    "Run the host's self-check",
    "One result per known id. Checks of services tilewall does not have (cloud, TURN, capture "
    "cards) succeed with a param saying they are not used. NETWORK_LATENCY uses the lowest "
    "recent round trip to each locked receiver.",
)
async def diag(host: Host) -> DiagOut:
    return DiagOut(await host.machine.diagnostics())


@_system(
    get,
    "/system/apilog",
    "The interface log",
    "One line per request to the host: time, client address, method, path, status and "
    "milliseconds. Kept in the data directory under logs/api.log, rotated at 5 MiB with three "
    "older files; this returns the current file.",
    media_type=MediaType.TEXT,
)
async def api_log(host: Host) -> Response[str]:
    await asyncio.to_thread(accesslog.flush)
    return Response(await host.machine.api_log_tail(MAX_API_LOG_BYTES), media_type=MediaType.TEXT)


@_system(
    get,
    "/system/installthirdpartypackage",
    "Optional third-party packages and whether they are installed",
)
async def third_party(host: Host) -> list[CatalogueEntry]:
    return await host.machine_settings.package_catalogue()


@_system(
    post,
    "/system/installthirdpartypackage",
    "Install third-party packages by name",
    "Names outside the catalogue refuse the whole request (400). Installs with apt when host "
    "management is on; otherwise the install is simulated. Answers the catalogue afterwards.",
    503,
    status_code=200,
)
async def install_third_party(
    host: Host,
    data: PackageNames,
) -> list[CatalogueEntry]:
    return await host.machine_settings.install_packages(data)


def _vpn(remote: RemoteControl) -> VpnOut:
    return VpnOut(remote.running, remote.performed, remote.service)


_VPN_DOC = (
    "Remote control by a support partner is a systemd service started on demand "
    "(tilewall-remote.service by default). With host management off it is simulated."
)


@_system(get, "/system/vpn", "Remote control status", _VPN_DOC)
async def vpn_status(host: Host) -> VpnOut:
    return _vpn(await host.machine_settings.remote_control())


@_system(put, "/system/vpn", "Start remote control", _VPN_DOC, 503)
async def vpn_start(host: Host) -> VpnOut:
    return _vpn(await host.machine_settings.start_remote_control())


@_system(delete, "/system/vpn", "Stop remote control", _VPN_DOC, 503, status_code=200)
async def vpn_stop(host: Host) -> VpnOut:
    return _vpn(await host.machine_settings.stop_remote_control())


ROUTES = [
    system_info,
    mapping_data_version,
    reboot,
    shutdown,
    manifest,
    diag,
    api_log,
    third_party,
    install_third_party,
    vpn_status,
    vpn_start,
    vpn_stop,
]
