"""The OpenAPI document, and JSON 404s for unknown paths under /api."""

from typing import Any

import msgspec
from litestar import HttpMethod, Request, Response, get, route
from litestar.exceptions import NotFoundException


@route(
    "/{path:path}",
    http_method=[
        HttpMethod.GET,
        HttpMethod.POST,
        HttpMethod.PUT,
        HttpMethod.DELETE,
        HttpMethod.PATCH,
    ],
    include_in_schema=False,
    name="api-fallback",
)
async def unknown(request: Request[Any, Any, Any], path: str) -> None:
    raise NotFoundException(f"no operation {request.method} /api{path}")


@get("/openapi.json", include_in_schema=False, opt={"public": True}, name="openapi-json")
async def openapi_document(request: Request[Any, Any, Any]) -> Response[bytes]:
    """The OpenAPI document at /api/openapi.json (the docs page is /api/docs)."""
    document = request.app.openapi_schema.to_schema()
    return Response(msgspec.json.encode(document), media_type="application/json")


ROUTES = [openapi_document, unknown]
