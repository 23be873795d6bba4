"""The rules of the sources that show a machine's screen rather than a stream's URL: a
desktop over VNC ("Desktop Streamer (VNC)") and a capture device ("Capture"), and the
:class:`LiveInput` the host opens for each.

- A desktop names a host (a name or an IP address), a port and a password. The password
  is a secret: it reaches the VNC server and nothing else (never a receiver, a log, a
  status, or a client reading the source back, which is shown :data:`HIDDEN`).
- A capture device is a V4L2 device, ``/dev/videoN`` and nothing else: no other file of
  the host (or of a kiosk device) can be named. It is on the host, or on a kiosk device
  (``Seat``) whose agent encodes it and sends its frames to the host.
"""

import ipaddress
import re

from tilewall.host.content.live import HIDDEN, LiveInput
from tilewall.host.errors import Invalid

#: the schemes of the inputs built here (never accepted in a URL param)
VNC_SCHEME = "vnc"
CAPTURE_SCHEME = "v4l2"
AGENT_SCHEME = "agent"
DEFAULT_VNC_PORT = 5900
DEFAULT_DEVICE = "/dev/video0"
DEFAULT_RESOLUTION = "1280x720"

_HOST_NAME = re.compile(
    r"^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$"
)
_DEVICE = re.compile(r"^/dev/video[0-9]{1,3}$")
_RESOLUTION = re.compile(r"^([0-9]{2,5})x([0-9]{2,5})$")
_SEAT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
_PRINTABLE_ASCII = re.compile(r"[\x20-\x7e]{0,256}")
MAX_WIDTH, MAX_HEIGHT = 7680, 4320


def check_vnc_host(name: str, value: str) -> str:
    """``value`` stripped, if it is a host name or an IP address (brackets around IPv6
    dropped); else :class:`Invalid`."""
    value = value.strip()
    bare = value[1:-1] if value.startswith("[") and value.endswith("]") else value
    try:
        return str(ipaddress.ip_address(bare))
    except ValueError:
        pass
    if _HOST_NAME.match(value):
        return value
    raise Invalid(
        f"param {name!r} must be a host name or an IP address (no scheme, port or path), "
        f"not {value[:80]!r}"
    )


def check_password(name: str, value: str) -> str:
    """A VNC password: printable ASCII, as RFB's DES challenge takes it (it uses the
    first 8 characters)."""
    if not _PRINTABLE_ASCII.fullmatch(value):
        raise Invalid(
            f"param {name!r} must be printable ASCII (letters, digits, punctuation, spaces) "
            "of at most 256 characters"
        )
    return value


def check_device(name: str, value: str) -> str:
    """``value`` stripped, if it names a V4L2 device ``/dev/videoN``; nothing else of the
    machine's files may be named."""
    value = value.strip()
    if _DEVICE.match(value):
        return value
    raise Invalid(f"param {name!r} must be a V4L2 device /dev/videoN, not {value[:80]!r}")


def check_resolution(name: str, value: str) -> str:
    """``WIDTHxHEIGHT`` (even sizes, up to 7680x4320)."""
    value = value.strip().lower()
    found = _RESOLUTION.match(value)
    if found:
        width, height = int(found[1]), int(found[2])
        if 16 <= width <= MAX_WIDTH and 16 <= height <= MAX_HEIGHT and not (width | height) & 1:
            return f"{width}x{height}"
    raise Invalid(
        f"param {name!r} must be WIDTHxHEIGHT in even pixels up to {MAX_WIDTH}x{MAX_HEIGHT} "
        f"(1920x1080), not {value[:40]!r}"
    )


def check_seat(name: str, value: str) -> str:
    """Empty (the host's own device) or a kiosk device's seat."""
    value = value.strip()
    if not value or _SEAT.match(value):
        return value
    raise Invalid(f"param {name!r} must be empty (the host) or a seat name, not {value[:80]!r}")


def vnc_input(host: str, port: int, password: str) -> LiveInput:
    """The input of a desktop over VNC; the password rides beside the URL, never in it."""
    where = f"[{host}]" if ":" in host else host
    return LiveInput(f"{VNC_SCHEME}://{where}:{port}", secret=password)


def capture_input(device: str, resolution: str, fps: float, seat: str = "") -> LiveInput:
    """The input of a capture device on the host, or on the kiosk device ``seat``."""
    width, _, height = resolution.partition("x")
    url = f"{AGENT_SCHEME}://{seat}{device}" if seat else f"{CAPTURE_SCHEME}://{device}"
    return LiveInput(url, width=int(width), height=int(height), fps=fps)


def shown_secret(value: str) -> str:
    """A secret as a client reading it back sees it: :data:`HIDDEN` when there is one."""
    return HIDDEN if value else ""


def kept_secret(given: str, stored: str) -> str:
    """A secret as updated: :data:`HIDDEN` given back (as it was read) keeps the stored
    one."""
    return stored if given == HIDDEN else given
