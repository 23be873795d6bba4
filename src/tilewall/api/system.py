"""/system operations."""

from litestar import MediaType, Request, get

from tilewall.api.common import errors, host_of

TAGS = ["System"]


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


ROUTES = [mapping_data_version]
