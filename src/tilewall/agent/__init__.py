"""``tilewall agent``: the kiosk agent, a small service beside the receiver page.

It keeps the kiosk browser on the receiver page, reports the device's udev devices and
its monitor, switches the screen on and off, writes serial commands to a local port and
restarts the browser on a reset. It talks to the host over the receiver WebSocket as the
agent role of its station (``docs/protocol.md``, "Kiosk agent") and imports nothing of
the server: a kiosk installs ``tilewall[agent]`` only.
"""

from tilewall import __version__

FIRMWARE = f"tilewall-agent/{__version__}"
