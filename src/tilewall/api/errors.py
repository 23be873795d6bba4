"""Every failure answers JSON ``{status, message}``: host errors by kind, framework
errors with their status, anything unexpected as a 500 without internals."""

import logging
from typing import Any

from litestar import MediaType, Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.types import ExceptionHandlersMap

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


def validation_error(
    _request: Request[Any, Any, Any], exc: Exception
) -> Response[dict[str, object]]:
    assert isinstance(exc, ValidationException)
    details = []
    for item in exc.extra or []:
        if isinstance(item, dict):
            where = item.get("key") or item.get("source") or ""
            text = item.get("message", "")
            details.append(f"{where}: {text}" if where else str(text))
    message = "; ".join(details) or str(exc.detail)
    return _body(400, message)


def http_error(_request: Request[Any, Any, Any], exc: Exception) -> Response[dict[str, object]]:
    assert isinstance(exc, HTTPException)
    response = _body(exc.status_code, str(exc.detail))
    if exc.headers:
        response.headers.update(exc.headers)
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
