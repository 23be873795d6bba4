"""uvicorn's server, made to stop promptly while the console's event streams are open.

On stopping, uvicorn waits for every open response to end before it runs the app's
shutdown; an event stream (``tilewall.api.console_events``) never ends by itself, so
this server ends them first. ``Server.shutdown`` is uvicorn's public method; the test
``tests/system/test_console_events.py`` stops a host with a stream open and fails if a
new uvicorn stops calling it so.
"""

import socket

import uvicorn
from litestar import Litestar

from tilewall.api.console_events import console_streams


class Server(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, app: Litestar) -> None:
        super().__init__(config)
        self._app = app

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        console_streams(self._app).close()
        await super().shutdown(sockets)
