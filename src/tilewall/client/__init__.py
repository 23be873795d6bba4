"""A typed Python client for a tilewall host: every operation of the display and video
wall control interface (version 1.9) and tilewall's own extensions.

    from tilewall.client import Client, ApiError

    with Client("http://wall-host:9000", "admin", "secret") as host:
        for display in host.displays.list():
            print(display["displayId"], display["playingSourceId"])
        host.zones.switch("Lobby Top", source="Welcome Slides")
        host.presets.recall("Morning")

Operations are grouped as the interface groups them: ``displays``, ``zones``,
``mirrorgroups``, ``presets``, ``sources``, ``media``, ``network``, ``videowalls``,
``system``, ``failover``, ``printprofiles``, ``serial``, ``controlroom``, ``schedule``,
``playlog``, ``audit``, ``users``. Answers are the
host's JSON decoded (dicts; list operations return the items of the host's list).

Zones, mirror groups, presets, sources, video walls and control-room layouts are named
by name or id: ``by="id"`` and ``by="name"`` say which, and ``by="auto"`` (the default)
asks the host for an object with that id first and otherwise takes the key as a name.

Every failure raises :class:`ApiError` with the HTTP ``status`` and the host's
``message``; when the host cannot be reached it is a :class:`HostUnreachable`, status 0.
"""

from __future__ import annotations

from types import TracebackType

import httpx

from tilewall.client.audit import Audit
from tilewall.client.base import (
    DEFAULT_URL,
    ApiError,
    By,
    HostUnreachable,
    Items,
    Json,
    Transport,
)
from tilewall.client.controlroom import ControlRoom, window
from tilewall.client.displays import Displays
from tilewall.client.failover import Failover
from tilewall.client.media import Media
from tilewall.client.mirrorgroups import MirrorGroups
from tilewall.client.network import Network
from tilewall.client.presets import Presets
from tilewall.client.printprofiles import PrintProfiles
from tilewall.client.schedule import PlayLog, Schedule
from tilewall.client.serial import Serial
from tilewall.client.sources import Sources
from tilewall.client.system import System
from tilewall.client.users import Users
from tilewall.client.videowalls import VideoWalls, geometry, grid, monitor
from tilewall.client.zones import Zones

__all__ = [
    "DEFAULT_URL",
    "ApiError",
    "By",
    "Client",
    "HostUnreachable",
    "Items",
    "Json",
    "geometry",
    "grid",
    "monitor",
    "window",
]


class Client:
    """A session with one host.

    ``url`` is the host's address (``http://host:9000``; a trailing ``/api`` is fine),
    by default ``http://localhost:9000``. With ``user`` and ``password`` the client logs
    in on its first call, and again if the host ends the session. ``http`` is an
    ``httpx.Client`` to send requests with instead of one of its own (for example
    Litestar's ``TestClient``); without ``url`` the paths are relative to its base URL,
    which may or may not end in ``/api``. ``session`` is the id of a session opened
    elsewhere (another client's :attr:`token`) to use until it ends.
    """

    def __init__(
        self,
        url: str | None = None,
        user: str | None = None,
        password: str | None = None,
        *,
        http: httpx.Client | None = None,
        timeout: float = 30.0,
        session: str | None = None,
    ) -> None:
        self.transport = Transport(url, user, password, http, timeout)
        self.transport.token = session
        self.displays = Displays(self.transport)
        self.zones = Zones(self.transport)
        self.mirrorgroups = MirrorGroups(self.transport)
        self.presets = Presets(self.transport)
        self.sources = Sources(self.transport)
        self.media = Media(self.transport)
        self.network = Network(self.transport)
        self.videowalls = VideoWalls(self.transport)
        self.system = System(self.transport)
        self.failover = Failover(self.transport)
        self.printprofiles = PrintProfiles(self.transport)
        self.serial = Serial(self.transport)
        self.controlroom = ControlRoom(self.transport)
        self.schedule = Schedule(self.transport)
        self.playlog = PlayLog(self.transport)
        self.audit = Audit(self.transport)
        self.users = Users(self.transport)

    @property
    def url(self) -> str:
        """The interface root the client talks to, ``http://host:9000/api``."""
        return self.transport.url

    @property
    def token(self) -> str | None:
        """The session id, once logged in."""
        return self.transport.token

    @property
    def cookie(self) -> str | None:
        """The ``Cookie`` header value of the session, for other HTTP tools."""
        token = self.transport.token
        return None if token is None else f"JSESSIONID={token}"

    def login(self, keep_logged_in: bool = False) -> Json:
        """Log in now (calls log in by themselves): the host's session object.
        ``keep_logged_in``: a session that never expires."""
        return self.transport.login(keep_logged_in)

    def logout(self) -> Json:
        """End the session on the host."""
        return self.transport.logout()

    def openapi(self) -> Json:
        """The host's OpenAPI document."""
        return self.transport.json("GET", "/openapi.json", public=True)

    def close(self) -> None:
        """Close the client's own connections (a given ``http`` client is left open);
        the session stays valid until :meth:`logout` or it expires."""
        self.transport.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
