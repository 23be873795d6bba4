"""Receiver pages drawing live sources without a host: a small HTTP server gives the
receiver's own files and an empty page (``/receiver/live-harness.html``, in the service
worker's scope) in which a test draws render descriptions with the receiver's
``screen.js``, on this machine's clock (the host clock of a host on this machine, which
is the clock of ``tests.support.live_wire``)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from functools import partial
from typing import Any

from tests.support.live_sources import HttpServer, QuietHandler
from tilewall.receivers.routes import RECEIVER_PAGE_DIR

HARNESS = b"""<!doctype html>
<html><head><meta charset="utf-8">
<link rel="stylesheet" href="/receiver/screen.css">
<style>html, body { margin: 0; background: #000; } #screen { position: fixed; inset: 0; }</style>
</head><body><div id="screen"></div></body></html>"""

#: draws ``description`` into #screen; window.picture is the screen (screen.js)
DRAW = """async (description) => {
  const { render } = await import('/receiver/screen.js');
  const clock = () => performance.timeOrigin + performance.now();
  if (window.picture) window.picture.update(description);
  else window.picture = render(document.getElementById('screen'), description, clock);
  if (!window.ticking) window.ticking = setInterval(() => window.picture.tick(), 100);
}"""

MONITOR_W, MONITOR_H = 1920, 1080


class _Files(QuietHandler):
    def do_GET(self) -> None:
        if self.path.split("?")[0] == "/receiver/live-harness.html":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(HARNESS)))
            self.end_headers()
            self.wfile.write(HARNESS)
            return
        if self.path.startswith("/receiver/"):
            self.path = self.path[len("/receiver") :]
            super().do_GET()
            return
        self.send_error(404)


def receiver_files() -> Iterator[str]:
    """Body of a fixture: the origin serving the receiver's files."""
    with HttpServer(partial(_Files, directory=str(RECEIVER_PAGE_DIR))) as web:
        yield web.url


def timeline(state: str = "playing") -> dict[str, Any]:
    now = time.time() * 1000
    return {"state": state, "anchorMs": now, "anchorPositionMs": 0, "repeat": True, "startMs": now}


def live_source(url: str, name: str = "Camera") -> dict[str, Any]:
    return {"type": "live", "sourceId": "cam", "name": name, "url": url, "muted": True}


def content(source: dict[str, Any], state: str = "playing") -> dict[str, Any]:
    return {"welcome": False, "timeline": timeline(state), "source": source}


def standalone(source: dict[str, Any], state: str = "playing") -> dict[str, Any]:
    """The description of a display showing ``source`` on its own."""
    return {
        "role": "standalone",
        "hostName": "wallhost",
        "displayId": 1,
        "resolution": {"width": MONITOR_W, "height": MONITOR_H},
        "content": content(source, state),
        "overlays": {"alert": None, "displayId": None, "dpmsOff": False},
    }


def wall_tile(
    source: dict[str, Any], col: int, row: int, state: str = "playing", gap: int = 0
) -> dict[str, Any]:
    """The description of the tile at (``col``, ``row``) of a 2x2 wall of 1920x1080
    monitors, ``gap`` canvas units apart (bezels), one zone over all of it."""
    zone_w, zone_h = 2 * MONITOR_W + gap, 2 * MONITOR_H + gap
    x, y = col * (MONITOR_W + gap), row * (MONITOR_H + gap)
    return {
        **standalone(source, state),
        "role": "tile",
        "displayId": 1 + col + 2 * row,
        "tile": {
            "wallId": "wall",
            "zoneId": "zone",
            "canvas": {"width": zone_w, "height": zone_h},
            "monitor": {
                "width": MONITOR_W,
                "height": MONITOR_H,
                "centerX": x + MONITOR_W / 2,
                "centerY": y + MONITOR_H / 2,
                "rotationDegrees": 0,
            },
            "zoneBox": {"x": 0, "y": 0, "width": zone_w, "height": zone_h},
            "crop": {"x": x, "y": y, "width": MONITOR_W, "height": MONITOR_H, "rotationDegrees": 0},
        },
    }


def open_harness(context: Any, origin: str, description: dict[str, Any]) -> Any:
    """A page drawing ``description``."""
    page = context.new_page()
    page.goto(f"{origin}/receiver/live-harness.html")
    page.evaluate(DRAW, description)
    return page


def draw(page: Any, description: dict[str, Any]) -> None:
    page.evaluate(DRAW, description)


def shown_at(page: Any) -> float | None:
    """The instant (host ms) of the live frame on the page's canvas."""
    value = page.evaluate(
        "() => { const c = document.querySelector('canvas.live-picture'); return c && c.dataset.at; }"
    )
    return float(value) if value else None


def mark(page: Any) -> str | None:
    """The "no signal" mark's text, or None when it is hidden."""
    return page.evaluate(
        "() => { const m = document.querySelector('.live .nosignal');"
        " return m && !m.hidden ? m.textContent : null; }"
    )
