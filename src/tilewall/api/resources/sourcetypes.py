"""The source-type catalogue (a tilewall extension): every sourceType the host can play,
with its param schema, so clients can build forms for creating and editing sources."""

import msgspec
from litestar import get

from tilewall.api.common import extension
from tilewall.host.content.catalogue import CATALOGUE, ParamSpec, SourceType
from tilewall.host.errors import Forbidden
from tilewall.host.host import Host

TAGS = ["Sources"]


class ParamSchema(msgspec.Struct):
    paramName: str
    type: str
    label: str
    default: str
    required: bool
    options: list[str]
    minimum: float | None
    maximum: float | None
    #: read back hidden (``***``), which sent back keeps it (a VNC password)
    secret: bool = False


class SourceTypeBody(msgspec.Struct):
    sourceType: str
    description: str
    helpUrl: str
    signage: bool
    allowed: bool
    #: made by the host (a screen share while it lasts), never created by a client
    madeByHost: bool
    params: list[ParamSchema]


class SourceTypeList(msgspec.Struct):
    sourceTypes: list[SourceTypeBody]


def _param(spec: ParamSpec) -> ParamSchema:
    return ParamSchema(
        spec.name,
        spec.type,
        spec.label or spec.name,
        spec.default,
        spec.required,
        list(spec.options),
        spec.minimum,
        spec.maximum,
        spec.secret,
    )


def _allowed(host: Host, kind: SourceType) -> bool:
    try:
        host.licence.check_source_type(kind.name)
    except Forbidden:
        return False
    return True


@extension(get, "/sourcetypes", TAGS, "Source types and their param schemas")
async def list_source_types(host: Host) -> SourceTypeList:
    return SourceTypeList(
        [
            SourceTypeBody(
                kind.name,
                kind.description,
                kind.help_url,
                kind.signage,
                _allowed(host, kind),
                kind.made_by_host,
                [_param(p) for p in kind.params],
            )
            for kind in CATALOGUE.values()
        ]
    )


ROUTES = [list_source_types]
