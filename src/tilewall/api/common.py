"""What every resource module shares: the error body, documented error responses, and
the plain acknowledgement of operations whose body the specification leaves open."""

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

import msgspec
from litestar.datastructures import ResponseHeader, State
from litestar.di import Provide
from litestar.handlers import HTTPRouteHandler
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example, Operation
from litestar.types import AnyCallable, Scope

from tilewall.host.host import Host

EXTENSION_TAG = "tilewall extensions"

#: a name clients address in URL paths (zones, mirror groups, presets, layouts)
PathName = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=200,
        pattern=r"^[^/]*[^\s/][^/]*$",
        description="Not blank and without '/' (it is addressed in URL paths); "
        "at most 200 characters.",
    ),
]


def documented(**schema: Any) -> msgspec.Meta:
    """Constraints the document states and the host checks itself, in its own order and
    words (keys are those of litestar's ``Schema``: min_length, maximum, pattern...)."""
    return msgspec.Meta(extra_json_schema={"extra": schema})


#: text with at least one character that is not white space
NotBlank = Annotated[str, msgspec.Meta(min_length=1, pattern=r"\S", description="Not blank.")]


@dataclass
class Extension(Operation):
    """An operation tilewall adds to the interface; marked so in the OpenAPI document."""

    def to_schema(self) -> dict[str, Any]:
        schema = super().to_schema()
        schema["x-tilewall-extension"] = True
        return schema


class ErrorBody(msgspec.Struct):
    status: int
    message: str


class Done(msgspec.Struct):
    """The answer to an operation whose response body the interface does not define."""

    message: str


_DESCRIPTIONS = {
    400: "Body format wrong, or a required parameter missing (message says which)",
    401: "Session id missing, unknown, expired or logged out; or invalid credentials",
    403: "The licence does not allow it",
    404: "The addressed object does not exist",
    409: "The object's current state does not allow it (message says why)",
    413: "The upload is too large",
    416: "The requested byte range lies outside the file",
    429: "Too many failed logins from this address: try again after Retry-After seconds",
    500: "The change could not be applied (message says why)",
    503: "A device the operation needs cannot be reached",
}


@functools.cache
def _error_response(code: int) -> ResponseSpec:
    # one per status, shared by every operation (the framework copies the routes when
    # the app is built, and copies a shared object once)
    return ResponseSpec(
        data_container=ErrorBody,
        description=_DESCRIPTIONS[code],
        examples=[Example(value={"status": code, "message": _DESCRIPTIONS[code]})],
        generate_examples=False,
    )


def errors(*codes: int) -> dict[int, ResponseSpec]:
    """Documented error responses of an operation; 400 and 401 are always possible."""
    return {code: _error_response(code) for code in sorted({400, 401, *codes})}


#: a file download's Last-Modified is an HTTP date (RFC 9110), not an ISO date-time as the
#: framework documents it
FILE_HEADERS = [
    ResponseHeader(
        name="last-modified",
        value="Sun, 06 Nov 1994 08:49:37 GMT",
        documentation_only=True,
        description="When the file last changed, as an HTTP date",
    )
]


def provide_host(state: State) -> Host:
    """The host the app serves."""
    host: Host = state.host
    return host


def host_of_scope(scope: Scope) -> Host:
    """The dependency ``host``: a handler that declares ``host: Host`` is given the host
    the app serves (read from the scope, which costs no copy of the app's state)."""
    host: Host = scope["app"].state.host
    return host


#: litestar's get, post, put or delete: a route decorator's factory
Method = Callable[..., Callable[[AnyCallable], HTTPRouteHandler]]


def extension(
    method: Method,
    path: str,
    tags: list[str],
    summary: str,
    *codes: int,
    status_code: int = 200,
    operation_class: type[Extension] = Extension,
    **options: Any,
) -> Callable[[AnyCallable], HTTPRouteHandler]:
    """An operation tilewall adds to the interface: tagged and marked as one in the
    OpenAPI document (``operation_class``: an :class:`Extension` that documents more),
    documenting its refusals ``codes``; it answers 200, a POST or a DELETE too (as the
    interface's own do), not litestar's 201 and 204, unless ``status_code`` says."""
    return method(
        path,
        status_code=status_code,
        tags=[EXTENSION_TAG, *tags],
        summary=summary,
        responses=errors(*codes),
        operation_class=operation_class,
        **options,
    )


#: a resource's path parameter, taken by its name in the path (``zoneName``, ``zoneId``)
PathKey = Callable[..., str]


def keyed_by(path_key: PathKey) -> dict[str, Provide]:
    """The dependency ``key``: the path parameter a by-name or a by-id route names its
    object with, so one handler serves both routes."""
    return {"key": Provide(path_key, sync_to_thread=False)}
