"""What answers where no operation does: JSON 404s for unknown paths under /api, and which
methods a path allows (for ``Allow`` on OPTIONS and 405 answers)."""

from typing import Any

from litestar import HttpMethod, Litestar, Request, route
from litestar.exceptions import MethodNotAllowedException, NotFoundException
from litestar.utils.path import normalize_path

FALLBACK = "api-fallback"
#: the methods whose answer on an unknown path is 404, and the ones ``Allow`` may list
METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE")


@route(
    "/{path:path}",
    http_method=[HttpMethod(m) for m in METHODS],
    include_in_schema=False,
    name=FALLBACK,
)
async def unknown(request: Request[Any, Any, Any], path: str) -> None:
    raise NotFoundException(f"no operation {request.method} /api{path}")


def allowed_methods(app: Litestar, path: str) -> list[str]:
    """The methods an operation (not the fallback) answers at ``path``, sorted; OPTIONS is
    among them whenever any other is. Empty for a path no operation has."""
    methods = []
    path = normalize_path(path)
    for method in METHODS:
        try:
            _, handler, *_ = app.asgi_router.handle_routing(path=path, method=method)
        except (MethodNotAllowedException, NotFoundException):
            continue
        if getattr(handler, "name", None) != FALLBACK:
            methods.append(method)
    return methods if set(methods) - {"OPTIONS"} else []


ROUTES = [unknown]
