"""Sources: list, create, read, update, delete."""

from typing import Annotated, Any, Literal

import msgspec
from litestar import Response, delete, get, post, put
from litestar.openapi.spec import Discriminator
from litestar.params import Body, Parameter

from tilewall.api.common import Done, NotBlank, errors
from tilewall.api.read_cache import EncodedOnce, answer_early
from tilewall.host.content.catalogue import CATALOGUE, ParamSpec, SourceType
from tilewall.host.content.params import shown_params
from tilewall.host.host import Host
from tilewall.host.model import Param, Source

TAGS = ["Sources"]


#: the source types of the catalogue (GET /sourcetypes has their params)
SourceTypeName = Literal[
    "Signage Player",
    "Web Browser",
    "Network Streamer",
    "RTSP Streamer",
    "Desktop Streamer (VNC)",
    "Capture",
    "Command and Control",
]
#: a param's type: one of the catalogue's, or empty for "the param's own"
ParamType = Annotated[
    str,
    msgspec.Meta(
        pattern="^(?:|HELP|IMAGE_SELECT|FILE_DIR_SELECT|RADIO|NUMBER|CHECKBOX|TEXT|URL|LAYOUT_SELECT)$"
    ),
]


class ParamBody(msgspec.Struct):
    type: ParamType = ""
    paramName: str = ""
    paramValue: str = ""


class SourceIn(msgspec.Struct):
    sourceName: Annotated[NotBlank, msgspec.Meta(description="Not blank; unique among sources.")]
    sourceType: SourceTypeName
    params: Annotated[
        list[ParamBody],
        msgspec.Meta(
            description="The params of the source type (GET /sourcetypes lists them, with their "
            "types, bounds and options); a param left out takes its default, a required one "
            "may not be left out, and references (media files, layouts) must exist."
        ),
    ] = []
    sourceId: str | None = None


def _any_case(name: str) -> str:
    """A pattern of ``name`` whole, in any case (the host matches param names so)."""
    return "^" + "".join(f"[{c.upper()}{c.lower()}]" if c.isalpha() else c for c in name) + "$"


def _named(spec: ParamSpec) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "paramName": {"type": "string", "pattern": _any_case(spec.name)},
            "type": {"enum": ["", spec.type]},
        },
        "required": ["paramName"],
    }


#: a HELP param, whatever its name: the host ignores it (and adds its own)
_HELP = {"type": "object", "properties": {"type": {"const": "HELP"}}, "required": ["type"]}


def _for_type(kind: SourceType) -> dict[str, Any]:
    """The body of a source of ``kind``, from the catalogue the host validates against:
    only its params (each of its type or untyped), its required ones present."""
    params: dict[str, Any] = {
        "type": "array",
        "items": {"anyOf": [_HELP, *(_named(spec) for spec in kind.params)]},
    }
    required = [_named(spec) for spec in kind.params if spec.required]
    if required:
        params["allOf"] = [{"contains": spec} for spec in required]
    return {
        "type": "object",
        "properties": {"sourceType": {"const": kind.name}, "params": params},
        "required": ["params"] if required else [],
    }


#: a body of each source type (the one its sourceType names applies); stated in the
#: document only, the host checks the params itself (in its own order and words)
ByType = Body(
    schema_extra={
        "one_of": [_for_type(kind) for kind in CATALOGUE.values() if not kind.made_by_host],
        "discriminator": Discriminator(property_name="sourceType"),
    }
)


#: what the host checks of a source's params beyond what the schema of its type states
BY_TYPE_RULES = (
    "The sourceType chooses the schema of the params (GET /sourcetypes: their names, "
    "types and which are required). The host also answers 400 for a param given twice, "
    "a value not in the format its type asks, and media files or layouts that do not exist."
)


class SourceOut(msgspec.Struct):
    sourceId: str
    sourceName: str
    sourceType: str
    params: list[ParamBody]


class SourceList(msgspec.Struct):
    sources: list[SourceOut]


def shape(source: Source) -> SourceOut:
    """``source`` as clients read it: secret params (a VNC password) hidden."""
    return SourceOut(
        source.id,
        source.name,
        source.type,
        [
            ParamBody(p.type, p.paramName, p.paramValue)
            for p in shown_params(source.type, source.params)
        ],
    )


def _params(data: SourceIn) -> list[Param]:
    return [Param(p.type, p.paramName, p.paramValue) for p in data.params]


def source_list(host: Host, source_name: str | None = None) -> SourceList:
    return SourceList([shape(s) for s in host.sources.all(source_name)])


#: the whole list; a list filtered by name is built per request
SOURCES = EncodedOnce(source_list)
answer_early("/sources", SOURCES)


@get("/sources", tags=TAGS, summary="List sources", responses=errors())
async def list_sources(
    host: Host,
    source_name: str | None = Parameter(query="sourceName", default=None, required=False),
) -> Response[SourceList]:
    if source_name is None:
        return await SOURCES.response(host)
    return Response(source_list(host, source_name))


@post(
    "/sources",
    status_code=200,
    tags=TAGS,
    summary="Create a source",
    description=BY_TYPE_RULES,
    responses=errors(403, 404, 409),
)
async def create_source(host: Host, data: Annotated[SourceIn, ByType]) -> SourceOut:
    return shape(await host.sources.create(data.sourceName, data.sourceType, _params(data)))


@delete(
    "/sources", status_code=200, tags=TAGS, summary="Delete a source by name", responses=errors(404)
)
async def delete_source_by_name(
    host: Host,
    source_name: str = Parameter(query="sourceName"),
) -> Done:
    source = host.sources.by_name(source_name)
    await host.sources.delete(source)
    return Done(f"source {source.name!r} deleted")


@get("/sources/{sourceId:str}", tags=TAGS, summary="Read a source", responses=errors(404))
async def get_source(host: Host, sourceId: str) -> SourceOut:
    return shape(host.sources.get(sourceId))


@delete(
    "/sources/{sourceId:str}",
    status_code=200,
    tags=TAGS,
    summary="Delete a source",
    responses=errors(404),
)
async def delete_source(host: Host, sourceId: str) -> Done:
    source = host.sources.get(sourceId)
    await host.sources.delete(source)
    return Done(f"source {source.name!r} deleted")


@put(
    "/sources/{sourceId:str}",
    tags=TAGS,
    summary="Update a source",
    description=BY_TYPE_RULES,
    responses=errors(403, 404, 409),
)
async def update_source(host: Host, sourceId: str, data: Annotated[SourceIn, ByType]) -> SourceOut:
    return shape(
        await host.sources.update(sourceId, data.sourceName, data.sourceType, _params(data))
    )


ROUTES = [
    list_sources,
    create_source,
    delete_source_by_name,
    get_source,
    delete_source,
    update_source,
]
