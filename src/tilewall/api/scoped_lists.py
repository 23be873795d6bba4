"""Lists as an operator who sees only its scope gets them: the list operations, keyed by
operation as :mod:`tilewall.api.permissions` keys them, and the one hook that leaves out
of their answers what the scope does not cover (:func:`tilewall.host.access.scopes.shows`).
Everyone else gets every item (reads are not secret)."""

from contextvars import ContextVar
from typing import Any

import msgspec
from litestar import MediaType, Request, Response

from tilewall.api.common import provide_host
from tilewall.host.access import scopes
from tilewall.host.memory import State

#: list operation -> (the answer's list, the items' id field, the kind of object)
LISTS: dict[str, tuple[str, str, str]] = {
    "GET /api/zones": ("zones", "zoneId", "zone"),
    "GET /api/zones/byvideowallid/{videoWallId}": ("zones", "zoneId", "zone"),
    "GET /api/videowalls": ("videowalls", "id", "wall"),
    "GET /api/mirrorgroups": ("mirrorgroups", "id", "mirror"),
    "GET /api/displays": ("displays", "displayId", "display"),
    "GET /api/sources": ("sources", "sourceId", "source"),
}


def _body(content: Any) -> Any:
    if isinstance(content, bytes | bytearray | memoryview):
        return msgspec.json.decode(content)
    return msgspec.to_builtins(content)


#: the list being answered to an operator that sees only its scope: what to filter by
_listing: ContextVar[tuple[State, str, str, str] | None] = ContextVar(
    "tilewall_listing", default=None
)


def note(request: Request[Any, Any, Any], operation: str) -> None:
    """Called for every operation once its user is known (``require_session``)."""
    listed = LISTS.get(operation)
    if listed is not None and scopes.sees_only_scope():
        _listing.set((provide_host(request.app.state).state, *listed))


async def only_the_scope(response: Response[Any]) -> Response[Any]:
    """An ``after_request`` hook: a list answered to an operator that sees only its
    scope holds only what the scope covers."""
    listing = _listing.get()
    if listing is None or response.status_code not in (None, 200):
        return response
    state, key, id_field, kind = listing
    body = _body(response.content)
    body[key] = [item for item in body[key] if scopes.shows(state, kind, item[id_field])]
    return Response(body, status_code=200, media_type=MediaType.JSON)
