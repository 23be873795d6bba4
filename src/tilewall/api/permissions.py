"""The permission each operation needs, keyed by the operation (method and path template,
as the OpenAPI document names it). :func:`tilewall.api.auth.require_session` enforces it
for every operation under /api; who holds which permission is the domain's rule
(:mod:`tilewall.host.access.roles`).

Reads (GET, HEAD, OPTIONS) need :attr:`Permission.READ` and any other operation
:attr:`Permission.ADMINISTER`, unless :data:`REQUIRED` says otherwise: an operation
added without a thought for roles is for administrators only. A public operation (one
that needs no session) is held to its permission when a session comes with it."""

from tilewall.host.access.roles import Permission

READ, OPERATE, ADMINISTER = Permission.READ, Permission.OPERATE, Permission.ADMINISTER

#: what plays content on a target, by its path under the target
_PLAYBACK = ("play", "playVideoList", "pause", "resume", "rewind", "forward", "seek")
_ZONES = ("/api/zones/{zoneId}", "/api/zones/byname/{zoneName}")
_MIRRORS = ("/api/mirrorgroups/{mirrorgroupId}", "/api/mirrorgroups/byname/{mirrorgroupName}")
_DISPLAY = "/api/displays/{displayId}"


def _operate(*paths: str, method: str = "PUT") -> dict[str, Permission]:
    return {f"{method} {path}": OPERATE for path in paths}


REQUIRED: dict[str, Permission] = {
    # everyone logs in (again, with a session already) and out, and changes their own
    # password (another's: administrators, a rule of the domain's)
    "POST /api/session": READ,
    "DELETE /api/session": READ,
    "PUT /api/users/{userName}/password": READ,
    # users and the audit trail are for administrators, even to read
    "GET /api/users": ADMINISTER,
    "GET /api/users/{userName}": ADMINISTER,
    "GET /api/audit": ADMINISTER,
    "GET /api/audit.csv": ADMINISTER,
    "GET /api/audit/settings": ADMINISTER,
    # an operator's playback
    **_operate(*(f"{z}/{verb}" for z in _ZONES for verb in (*_PLAYBACK, "switch", "stop"))),
    **_operate(
        "/api/zones/byname/{zoneName}/playAssignedSource",
        "/api/zones/{zoneId}/playAssignedProfile",
    ),
    **_operate(*(f"{_DISPLAY}/{verb}" for verb in (*_PLAYBACK, "switch"))),
    **_operate(*(f"{m}/{verb}" for m in _MIRRORS for verb in _PLAYBACK)),
    **_operate("/api/presets/byname/{name}/switch", "/api/presets/{id}/switch"),
    # alerts and display ids
    **_operate(
        "/api/system/broadcast/start",
        "/api/system/broadcast/stop",
        "/api/system/showDisplayIds/start",
        "/api/system/showDisplayIds/stop",
    ),
    # control-room layouts: loading them, and changing them
    **_operate(
        "/api/controlroom/{videowallZoneName}/load/{layoutName}",
        "/api/controlroom/layouts/load/{layoutName}",
        "/api/controlroom/layouts/{layoutId}",
    ),
    **_operate("/api/controlroom/layouts", method="POST"),
    **_operate("/api/controlroom/layouts/{layoutId}", method="DELETE"),
    # schedule events
    **_operate("/api/schedule", method="POST"),
    **_operate("/api/schedule/{eventId}"),
    **_operate("/api/schedule/{eventId}", method="DELETE"),
    # serial commands to displays (not the port's settings)
    **_operate("/api/serial/{seatID}", method="POST"),
    # screen shares: starting one (public for a guest with a code; a user's session is
    # held to its role), ending one, showing a display's code (presentation mode is a
    # setting: administrators)
    **_operate("/api/shares", method="POST"),
    **_operate("/api/shares/{shareId}", method="DELETE"),
    **_operate("/api/shares/codes/{displayId}"),
    **_operate("/api/shares/codes/{displayId}", method="DELETE"),
}

_READS = frozenset({"GET", "HEAD", "OPTIONS"})


def required(operation: str) -> Permission:
    """The permission ``operation`` (``METHOD /api/path/{template}``) needs."""
    found = REQUIRED.get(operation)
    if found is not None:
        return found
    return READ if operation.partition(" ")[0] in _READS else ADMINISTER
