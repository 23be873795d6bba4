"""/system/license: the licence the host holds, activation, removal and backup."""

from typing import Annotated

import msgspec
from litestar import MediaType, Response, delete, get, put

from tilewall.api.common import documented, errors
from tilewall.host.host import Host
from tilewall.host.model import Licence

TAGS = ["System"]


class LicenceOut(msgspec.Struct):
    resellerName: str
    #: 0 means unlimited
    numberOfStations: int
    systemId: str
    licenseIssued: str
    licenseExpires: str
    supportExpires: str
    videoWallModule: str
    fastVideoFeature: bool
    sessionManagement: bool
    #: tilewall: the source types the licence allows; absent (null) means all
    allowedSourceTypes: list[str] | None = None


# the lines of a backup as Python splits them: comment ('#') and blank lines around one code
_BREAK = r"\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029"
_SPACE = rf"[^\S{_BREAK}]*"
_OTHER_LINE = rf"{_SPACE}(?:#[^{_BREAK}]*)?"
_CODE_TEXT = (
    rf"^(?:{_OTHER_LINE}[{_BREAK}]+)*{_SPACE}TW1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+{_SPACE}"
    rf"(?:[{_BREAK}]+{_OTHER_LINE})*$"
)


class LicenceIn(msgspec.Struct):
    activationCode: Annotated[
        str,
        documented(
            pattern=_CODE_TEXT,
            description="A signed activation code (TW1.<payload>.<signature>), or the text of "
            "a licence backup holding one: comment lines starting with '#' and the code.",
        ),
    ]
    #: 0 or absent: as many as the code allows
    numberOfStations: (
        Annotated[int, msgspec.Meta(ge=0, extra_json_schema={"extra": {"minimum": 0}})] | None
    ) = None


class LicenceRemoved(msgspec.Struct):
    message: str
    license: LicenceOut


def shape(licence: Licence) -> LicenceOut:
    return LicenceOut(
        resellerName=licence.reseller_name,
        numberOfStations=licence.number_of_stations or 0,
        systemId=licence.system_id,
        licenseIssued=licence.issued,
        licenseExpires=licence.expires,
        supportExpires=licence.support_expires,
        videoWallModule=licence.video_wall_module,
        fastVideoFeature=licence.fast_video_feature,
        sessionManagement=licence.session_management,
        allowedSourceTypes=licence.source_types,
    )


@get(
    "/system/license",
    tags=TAGS,
    summary="The licence",
    description="`numberOfStations` 0 means unlimited. `licenseExpires` empty: never.",
    responses=errors(404),
)
async def get_licence(host: Host) -> LicenceOut:
    return shape(host.licence.require())


@put(
    "/system/license",
    tags=TAGS,
    summary="Claim, raise or replace the licence",
    description=(
        "`activationCode` is a signed tilewall activation code (`TW1.<payload>.<signature>`, "
        "made with `tilewall license issue`) or the whole text of a licence backup from "
        "GET /system/license/download. The same code as the one held changes the number "
        "of stations (raise or lower); another code replaces the licence. "
        "`numberOfStations` 0 or absent takes what the code allows (or what a backup "
        "recorded).\n\n"
        "Errors: 400 when the body or the code cannot be read, or more stations are asked "
        "for than the code allows; 403 when the code is from an issuer this host does not "
        "trust, its signature is forged, it has expired, or it is bound to another system "
        "id; 409 when fewer stations would be licensed than are locked now."
    ),
    responses=errors(403, 404, 409),
)
async def put_licence(host: Host, data: LicenceIn) -> LicenceOut:
    system_id = await host.failover.system_id()
    activation = await host.licence.activate(
        data.activationCode, data.numberOfStations, system_id, host.machine.today()
    )
    return shape(activation.licence)


@delete(
    "/system/license",
    tags=TAGS,
    status_code=200,
    summary="Remove the licence",
    description="A host without a licence is unrestricted until a licence is claimed.",
    responses=errors(404),
)
async def delete_licence(host: Host) -> LicenceRemoved:
    removed = await host.licence.remove()
    return LicenceRemoved("licence removed", shape(removed))


@get(
    "/system/license/download",
    tags=TAGS,
    media_type=MediaType.TEXT,
    summary="Licence backup download",
    description=(
        "A text file: comment lines (`#`) describing the licence, then the activation "
        "code. PUT its whole text back as `activationCode` to restore the licence with "
        "the same number of stations."
    ),
    responses=errors(404),
)
async def download_licence(host: Host) -> Response[str]:
    name, text = host.licence.backup()
    return Response(
        text,
        media_type=MediaType.TEXT,
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


ROUTES = [get_licence, put_licence, delete_licence, download_licence]
