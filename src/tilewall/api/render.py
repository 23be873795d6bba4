"""What a display shows (a tilewall extension): its receiver's render description,
exactly as the receiver hub sends it, so clients can draw the same picture.

The answer carries the host clock in the ``X-Tilewall-Host-Ms`` header (milliseconds
since the epoch, read as the answer is made), so a client can place the timeline's
positions on its own clock."""

from typing import Any

from litestar import Request, Response, get
from litestar.datastructures import ResponseHeader

from tilewall.api.common import EXTENSION_TAG, Extension, errors, host_of
from tilewall.host.host import Host
from tilewall.host.playback.render import RenderState, describe
from tilewall.receivers.bridge import HostBridge

TAGS = [EXTENSION_TAG, "Displays"]
HOST_MS_HEADER = "X-Tilewall-Host-Ms"


def describe_seat(state: Any, host: Host, seat_id: str) -> RenderState:
    """The hub's description of ``seat_id``; without a hub (an interface-only app), the
    same description from the same inputs the hub's bridge gives."""
    hub = getattr(state, "hub", None)
    if hub is not None:
        described: RenderState = hub.describe(seat_id)
        return described
    bridge = HostBridge(host)
    return describe(
        host.state,
        seat_id,
        media=bridge.media,
        overlays=bridge.overlays(),
        host=bridge.host_info(),
        now_ms=bridge.now_ms(),
    )


@get(
    "/displays/{displayId:str}/render",
    tags=TAGS,
    summary="What a display shows: its receiver's render description",
    description=(
        "The render state the receiver of this display is sent (docs/protocol.md, "
        "'Render state'). The X-Tilewall-Host-Ms header gives the host clock."
    ),
    responses=errors(404),
    operation_class=Extension,
    response_headers=[
        ResponseHeader(
            name=HOST_MS_HEADER,
            value="1700000000000",
            documentation_only=True,
            description="The host clock as the answer was made, milliseconds since the epoch",
        )
    ],
)
async def display_render(request: Request, displayId: str) -> Response[RenderState]:  # type: ignore[type-arg]
    host = host_of(request.app.state)
    display = host.stations.display(displayId)
    rendered = describe_seat(request.app.state, host, display.seat_id)
    now = host.core.clock.now_ms()
    return Response(rendered, headers={HOST_MS_HEADER: str(now)})


ROUTES = [display_render]
