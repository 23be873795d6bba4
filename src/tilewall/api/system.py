"""/system: what the host is, its health, power, software and the interface log."""

import asyncio
from typing import Annotated

import msgspec
from litestar import MediaType, Request, Response, delete, get, post, put
from litestar.params import Body

from tilewall.api.common import errors, host_of
from tilewall.host.errors import Invalid
from tilewall.host.system.machine import PowerOutcome
from tilewall.platform.diagnostics import DiagnosticResult
from tilewall.platform.packages import CATALOGUE_NAMES, CatalogueEntry, PackageVersion

TAGS = ["System"]
#: the newest part of the interface log that GET /system/apilog returns
MAX_API_LOG_BYTES = 8 * 1024 * 1024


#: names from the catalogue (GET /system/installthirdpartypackage), at least one
PackageNames = Annotated[
    list[str],
    Body(
        schema_extra={
            "min_items": 1,
            "items": {"type": "string", "enum": sorted(CATALOGUE_NAMES)},
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


@get("/system", tags=TAGS, summary="Host information", responses=errors())
async def system_info(request: Request) -> SystemInfoOut:  # type: ignore[type-arg]
    i = await host_of(request.app.state).machine.info()
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


@get(
    "/system/mappingdataversion",
    tags=TAGS,
    media_type=MediaType.TEXT,
    summary="Mapping data version (-1 outside a failover group)",
    responses=errors(),
)
async def mapping_data_version(request: Request) -> str:  # type: ignore[type-arg]
    host = host_of(request.app.state)
    return host.mapping_data_version(host.failover_member())


def _power(outcome: PowerOutcome) -> PowerOut:
    return PowerOut(outcome.action, outcome.performed, outcome.message)


_POWER_DOC = (
    "With host management on, the machine {0} (the answer may be the last one). "
    "With host management off (the default) the request is recorded and nothing "
    "happens; `performed` tells which."
)


@put(
    "/system/reboot",
    tags=TAGS,
    summary="Reboot the machine",
    description=_POWER_DOC.format("reboots"),
    responses=errors(503),
)
async def reboot(request: Request) -> PowerOut:  # type: ignore[type-arg]
    return _power(await host_of(request.app.state).machine.reboot())


@put(
    "/system/shutdown",
    tags=TAGS,
    summary="Shut the machine down",
    description=_POWER_DOC.format("shuts down"),
    responses=errors(503),
)
async def shutdown(request: Request) -> PowerOut:  # type: ignore[type-arg]
    return _power(await host_of(request.app.state).machine.shutdown())


@get(
    "/system/manifest",
    tags=TAGS,
    summary="Installed packages (Python distributions, then Debian packages)",
    responses=errors(),
)
async def manifest(request: Request) -> ManifestOut:  # type: ignore[type-arg]
    return ManifestOut(await host_of(request.app.state).platform.packages.manifest())


@get(
    "/system/diag",
    tags=TAGS,
    summary="Run the host's self-check",
    description=(
        "One result per known id. Checks of services tilewall does not have (cloud, "
        "TURN, capture cards) succeed with a param saying they are not used. "
        "NETWORK_LATENCY uses the lowest recent round trip to each locked receiver."
    ),
    responses=errors(),
)
async def diag(request: Request) -> DiagOut:  # type: ignore[type-arg]
    return DiagOut(await host_of(request.app.state).machine.diagnostics())


def _read_tail(path_text: str) -> str:
    with open(path_text, "rb") as f:
        f.seek(0, 2)
        size = f.tell()
        f.seek(max(0, size - MAX_API_LOG_BYTES))
        return f.read().decode("utf-8", errors="replace")


@get(
    "/system/apilog",
    tags=TAGS,
    media_type=MediaType.TEXT,
    summary="The interface log",
    description=(
        "One line per request to the host: time, client address, method, path, status "
        "and milliseconds. Kept in the data directory under logs/api.log, rotated at "
        "5 MiB with three older files; this returns the current file."
    ),
    responses=errors(),
)
async def api_log(request: Request) -> Response[str]:  # type: ignore[type-arg]
    path = host_of(request.app.state).machine.api_log_path()
    text = ""
    if path is not None and path.exists():
        text = await asyncio.to_thread(_read_tail, str(path))
    return Response(text, media_type=MediaType.TEXT)


@get(
    "/system/installthirdpartypackage",
    tags=TAGS,
    summary="Optional third-party packages and whether they are installed",
    responses=errors(),
)
async def third_party(request: Request) -> list[CatalogueEntry]:  # type: ignore[type-arg]
    return await host_of(request.app.state).platform.packages.catalogue()


@post(
    "/system/installthirdpartypackage",
    tags=TAGS,
    status_code=200,
    summary="Install third-party packages by name",
    description=(
        "Names outside the catalogue refuse the whole request (400). Installs with apt "
        "when host management is on; otherwise the install is simulated. Answers the "
        "catalogue afterwards."
    ),
    responses=errors(503),
)
async def install_third_party(
    request: Request,  # type: ignore[type-arg]
    data: PackageNames,
) -> list[CatalogueEntry]:
    if not data:
        raise Invalid("give the names of the packages to install")
    packages = host_of(request.app.state).platform.packages
    await packages.install(data)
    return await packages.catalogue()


async def _vpn(request: Request) -> VpnOut:  # type: ignore[type-arg]
    platform = host_of(request.app.state).platform
    service = str(getattr(platform.remote, "service", ""))
    return VpnOut(await platform.remote.status(), platform.host_management, service)


_VPN_DOC = (
    "Remote control by a support partner is a systemd service started on demand "
    "(tilewall-remote.service by default). With host management off it is simulated."
)


@get(
    "/system/vpn",
    tags=TAGS,
    summary="Remote control status",
    description=_VPN_DOC,
    responses=errors(),
)
async def vpn_status(request: Request) -> VpnOut:  # type: ignore[type-arg]
    return await _vpn(request)


@put(
    "/system/vpn",
    tags=TAGS,
    summary="Start remote control",
    description=_VPN_DOC,
    responses=errors(503),
)
async def vpn_start(request: Request) -> VpnOut:  # type: ignore[type-arg]
    await host_of(request.app.state).platform.remote.start()
    return await _vpn(request)


@delete(
    "/system/vpn",
    tags=TAGS,
    status_code=200,
    summary="Stop remote control",
    description=_VPN_DOC,
    responses=errors(503),
)
async def vpn_stop(request: Request) -> VpnOut:  # type: ignore[type-arg]
    await host_of(request.app.state).platform.remote.stop()
    return await _vpn(request)


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
