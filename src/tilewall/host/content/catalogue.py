"""The source types tilewall can play, each with a parameter schema that is validated
on create and update (``tilewall.host.content.params``)."""

from collections.abc import Callable
from dataclasses import dataclass, field

from tilewall.host.content import live, screens
from tilewall.host.errors import Invalid
from tilewall.host.model import Param

SIGNAGE = "Signage Player"
WEB_BROWSER = "Web Browser"
NETWORK_STREAMER = "Network Streamer"
RTSP_STREAMER = "RTSP Streamer"
COMMAND_AND_CONTROL = "Command and Control"
SCREEN_SHARE = "Screen share"
DESKTOP_VNC = "Desktop Streamer (VNC)"
CAPTURE = "Capture"
#: the types that play a URL as video (the host relays it when ``live.is_live``)
STREAMERS = (NETWORK_STREAMER, RTSP_STREAMER)
#: the types that show a machine's screen, always relayed live (``screens``)
SCREENS = (DESKTOP_VNC, CAPTURE)

# param names, shared with the receiver's render description
MEDIA = "Media"
SLIDE_INTERVAL = "Slide Interval"
SHUFFLE = "Shuffle"
SCALING = "Scaling"
URL = "URL"
REFRESH_INTERVAL = "Refresh Interval"
MUTED = "Muted"
TRANSPORT = "Transport"
KEEP_OPEN = "Keep Open"
LAYOUTS = "Layouts"
SHARED_BY = "Shared By"
SHARE_TARGET = "Target"
HOST = "Host"
PORT = "Port"
PASSWORD = "Password"
DEVICE = "Device"
SEAT = "Seat"
RESOLUTION = "Resolution"
FRAME_RATE = "Frame Rate"

PARAM_TYPES = (
    "HELP",
    "IMAGE_SELECT",
    "FILE_DIR_SELECT",
    "RADIO",
    "NUMBER",
    "CHECKBOX",
    "TEXT",
    "URL",
    "LAYOUT_SELECT",
)


@dataclass(frozen=True)
class ParamSpec:
    name: str
    type: str
    default: str
    required: bool = False
    label: str = ""
    options: tuple[str, ...] = ()
    minimum: float | None = None
    maximum: float | None = None
    #: a URL param that takes live streams (``live.check_stream_url``), not only pages
    stream: bool = False
    #: a TEXT param's own rule: ``check(name, value)`` gives the canonical value or
    #: raises Invalid
    check: Callable[[str, str], str] | None = None
    #: never shown to a client reading the source back (``shown_params``)
    secret: bool = False


@dataclass(frozen=True)
class SourceType:
    name: str
    description: str
    help_url: str
    params: tuple[ParamSpec, ...]
    #: plays a schedule of media files, so seek, forward and rewind apply
    signage: bool = False
    #: made by the host itself (a screen share while it lasts), never by a client
    made_by_host: bool = False
    spec_by_name: dict[str, ParamSpec] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        self.spec_by_name.update({p.name.casefold(): p for p in self.params})


#: of every source the host can hold open for a switch to it (stream sources and desktops)
KEEP_OPEN_PARAM = ParamSpec(
    KEEP_OPEN,
    "CHECKBOX",
    "false",
    label="Keep open while nothing shows it (a switch to it shows at once)",
)

CATALOGUE: dict[str, SourceType] = {
    t.name: t
    for t in (
        SourceType(
            SIGNAGE,
            "A playlist of images and videos from the media library.",
            "/docs/sources#signage-player",
            (
                ParamSpec(MEDIA, "FILE_DIR_SELECT", "[]", label="Files and folders"),
                ParamSpec(
                    SLIDE_INTERVAL,
                    "NUMBER",
                    "10",
                    minimum=1,
                    maximum=86400,
                    label="Seconds each image shows",
                ),
                ParamSpec(SHUFFLE, "CHECKBOX", "false", label="Shuffle"),
                ParamSpec(
                    SCALING, "RADIO", "fit", options=("fit", "fill", "stretch"), label="Scaling"
                ),
            ),
            signage=True,
        ),
        SourceType(
            WEB_BROWSER,
            "A web page.",
            "/docs/sources#web-browser",
            (
                ParamSpec(URL, "URL", "", required=True, label="Address of the page"),
                ParamSpec(
                    REFRESH_INTERVAL,
                    "NUMBER",
                    "0",
                    minimum=0,
                    maximum=86400,
                    label="Reload every N seconds (0: never)",
                ),
            ),
        ),
        SourceType(
            NETWORK_STREAMER,
            "A video stream or file by URL.",
            "/docs/sources#network-streamer",
            (
                ParamSpec(
                    URL, "URL", "", required=True, label="Address of the stream", stream=True
                ),
                ParamSpec(MUTED, "CHECKBOX", "true", label="Muted"),
                KEEP_OPEN_PARAM,
            ),
        ),
        SourceType(
            RTSP_STREAMER,
            "A live stream from a camera or encoder: RTSP, SRT, RTMP, UDP, RTP or HLS.",
            "/docs/sources#rtsp-streamer",
            (
                ParamSpec(
                    URL,
                    "URL",
                    "",
                    required=True,
                    label="Address of the stream (rtsp://user:password@camera/stream, ...)",
                    stream=True,
                ),
                ParamSpec(
                    TRANSPORT,
                    "RADIO",
                    "auto",
                    options=live.TRANSPORTS,
                    label="RTSP transport (auto, tcp or udp)",
                ),
                ParamSpec(MUTED, "CHECKBOX", "true", label="Muted"),
                KEEP_OPEN_PARAM,
            ),
        ),
        SourceType(
            DESKTOP_VNC,
            "A computer's desktop over VNC, view-only: the host connects once for every "
            "display that shows it.",
            "/docs/sources#desktop-streamer-vnc",
            (
                ParamSpec(
                    HOST,
                    "TEXT",
                    "",
                    required=True,
                    label="VNC server (host name or IP address)",
                    check=screens.check_vnc_host,
                ),
                ParamSpec(
                    PORT,
                    "NUMBER",
                    str(screens.DEFAULT_VNC_PORT),
                    minimum=1,
                    maximum=65535,
                    label="Port",
                ),
                ParamSpec(
                    PASSWORD,
                    "TEXT",
                    "",
                    label="Password (never shown again)",
                    check=screens.check_password,
                    secret=True,
                ),
                KEEP_OPEN_PARAM,
            ),
        ),
        SourceType(
            CAPTURE,
            "A capture device (an HDMI capture card, a camera) on the host or on a kiosk "
            "device, encoded once.",
            "/docs/sources#capture",
            (
                ParamSpec(
                    DEVICE,
                    "TEXT",
                    screens.DEFAULT_DEVICE,
                    label="V4L2 device (/dev/videoN)",
                    check=screens.check_device,
                ),
                ParamSpec(
                    SEAT,
                    "TEXT",
                    "",
                    label="On the kiosk device of this seat, through its agent (empty: the host)",
                    check=screens.check_seat,
                ),
                ParamSpec(
                    RESOLUTION,
                    "TEXT",
                    screens.DEFAULT_RESOLUTION,
                    label="Resolution (WIDTHxHEIGHT)",
                    check=screens.check_resolution,
                ),
                ParamSpec(
                    FRAME_RATE, "NUMBER", "30", minimum=1, maximum=60, label="Frames per second"
                ),
            ),
        ),
        SourceType(
            COMMAND_AND_CONTROL,
            "A control-room layout: several sources in windows.",
            "/docs/sources#command-and-control",
            (ParamSpec(LAYOUTS, "LAYOUT_SELECT", "[]", label="Layouts"),),
        ),
        SourceType(
            SCREEN_SHARE,
            "A person's screen, window or tab, shared from a browser at /share/ while they "
            "share it (made by the share, never created by hand).",
            "/docs/sources#screen-share",
            (
                ParamSpec(SHARED_BY, "TEXT", "", label="Who shares"),
                ParamSpec(SHARE_TARGET, "TEXT", "", label="Where it was shared to"),
            ),
            made_by_host=True,
        ),
    )
}


@dataclass(frozen=True)
class Resolvers:
    """What validation needs to know of the rest of the host."""

    #: canonical media name of a file or directory, raising Invalid/NotFound
    media: Callable[[str, str], str]
    #: layout id for a layout id or name, raising Invalid
    layout: Callable[[str], str]


def source_type(name: str) -> SourceType:
    found = CATALOGUE.get(name)
    if found is None:
        known = ", ".join(CATALOGUE)
        raise Invalid(f"unknown sourceType {name!r}; known types: {known}")
    return found


def param(params: list[Param], name: str, default: str = "") -> str:
    """The value of the param named exactly ``name``, else ``default``.

    Exact, because a stored source's params carry the catalogue's names:
    ``validate_params`` matches what clients send case-insensitively and stores the
    schema's spelling."""
    for p in params:
        if p.paramName == name:
            return p.paramValue
    return default
