"""Every failure answers JSON ``{status, message}``: host errors by kind, framework
errors with their status, anything unexpected as a 500 without internals."""

import logging
from typing import Any

from litestar import MediaType, Request, Response
from litestar.exceptions import HTTPException, MethodNotAllowedException, ValidationException
from litestar.types import ExceptionHandlersMap

from tilewall.api.routing import allowed_methods
from tilewall.host import errors

log = logging.getLogger(__name__)

STATUS = {
    errors.Invalid: 400,
    errors.Forbidden: 403,
    errors.NotFound: 404,
    errors.Conflict: 409,
    errors.Busy: 500,
    errors.Failed: 500,
    errors.Unavailable: 503,
    errors.TooManyAttempts: 429,
}


def _body(status: int, message: str) -> Response[dict[str, object]]:
    return Response(
        {"status": status, "message": message}, status_code=status, media_type=MediaType.JSON
    )


def host_error(_request: Request[Any, Any, Any], exc: Exception) -> Response[dict[str, object]]:
    if isinstance(exc, errors.TooManyAttempts):
        response = _body(429, str(exc))
        response.headers["Retry-After"] = str(exc.retry_after_s)
        return response
    for kind, status in STATUS.items():
        if isinstance(exc, kind):
            return _body(status, str(exc))
    return _body(400, str(exc))


def _wire_name(request: Request[Any, Any, Any], key: str) -> str:
    """The name a client gives a parameter whose handler argument is ``key``."""
    handler = request.scope.get("route_handler")
    parameters = getattr(getattr(handler, "parsed_fn_signature", None), "parameters", {})
    kwarg = getattr(parameters.get(key), "kwarg_definition", None)
    for alias in ("query", "header", "cookie"):
        if name := getattr(kwarg, alias, None):
            return str(name)
    return key


def validation_error(
    request: Request[Any, Any, Any], exc: Exception
) -> Response[dict[str, object]]:
    assert isinstance(exc, ValidationException)
    details = []
    for item in exc.extra or []:
        if isinstance(item, dict):
            key = item.get("key")
            where = _wire_name(request, key) if isinstance(key, str) else item.get("source") or ""
            text = item.get("message", "")
            details.append(f"{where}: {text}" if where else str(text))
    message = "; ".join(details) or str(exc.detail)
    return _body(400, message)


def http_error(request: Request[Any, Any, Any], exc: Exception) -> Response[dict[str, object]]:
    assert isinstance(exc, HTTPException)
    if isinstance(exc, MethodNotAllowedException):
        return method_not_allowed(request)
    response = _body(exc.status_code, str(exc.detail))
    if exc.headers:
        response.headers.update(exc.headers)
    return response


def method_not_allowed(request: Request[Any, Any, Any]) -> Response[dict[str, object]]:
    """405 with ``Allow`` listing exactly the methods of the path; 404 for a path that
    only the fallback answers (no operation has it)."""
    path = request.scope["path"]
    allowed = allowed_methods(request.app, path)
    if not allowed:
        return _body(404, f"no operation {request.method} {path}")
    response = _body(405, f"{request.method} is not allowed here; allowed: {', '.join(allowed)}")
    response.headers["Allow"] = ", ".join(allowed)
    return response


def internal_error(request: Request[Any, Any, Any], exc: Exception) -> Response[dict[str, object]]:
    log.exception("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
    return _body(500, "internal error; the host log has details")


HANDLERS: ExceptionHandlersMap = {
    errors.HostError: host_error,
    ValidationException: validation_error,
    HTTPException: http_error,
    Exception: internal_error,
}
