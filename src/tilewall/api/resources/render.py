"""What a display shows (a tilewall extension): its receiver's render description,
exactly as the receiver hub sends it, so clients can draw the same picture.

The answer carries the host clock in the ``X-Tilewall-Host-Ms`` header (milliseconds
since the epoch, read as the answer is made), so a client can place the timeline's
positions on its own clock."""

from litestar import Response, get
from litestar.datastructures import ResponseHeader

from tilewall.api.common import extension
from tilewall.host.host import Host
from tilewall.host.render.description import RenderState

TAGS = ["Displays"]
HOST_MS_HEADER = "X-Tilewall-Host-Ms"


@extension(
    get,
    "/displays/{displayId:str}/render",
    TAGS,
    "What a display shows: its receiver's render description",
    404,
    description=(
        "The render state the receiver of this display is sent (docs/protocol.md, "
        "'Render state'). The X-Tilewall-Host-Ms header gives the host clock."
    ),
    response_headers=[
        ResponseHeader(
            name=HOST_MS_HEADER,
            value="1700000000000",
            documentation_only=True,
            description="The host clock as the answer was made, milliseconds since the epoch",
        )
    ],
)
async def display_render(host: Host, displayId: str) -> Response[RenderState]:
    display = host.stations.display(displayId)
    rendered = host.descriptions.describe(display.seat_id)
    now = host.core.clock.now_ms()
    return Response(rendered, headers={HOST_MS_HEADER: str(now)})


ROUTES = [display_render]
