"""A desktop over VNC on a 2x2 wall of receiver pages (docs/live.md, "Desktops over
VNC"): ``tilewall serve`` in its own process connects to a real VNC server (TigerVNC's
Xvnc with a password, its desktop four quarters of colour drawn by a small X program,
tests/support/vnc_desktop.py) and relays the desktop to the four tiles of one zone, each
a receiver page in a Chromium context of its own.

*Change to tile*: the X program repaints the quarters and notes the instant the X
server has the new picture (a round trip to it after drawing); every tile watches, on
each animation frame after the receiver's own drawing, the pixel of its quarter in the
live canvas and notes the first instant (the page's epoch clock: the same machine's)
it shows the new colour. The figure per change is the last tile's instant less the
X server's; p50 and p95 over the changes. It holds the RFB update, the decode of the
rectangles, the H.264 encode (once), the relay, the receiver's decode and its drawing at
the frame's ``at`` (the host's ``TILEWALL_LIVE_DELAY_MS`` included); a refresh of the
monitor (up to 17 ms) comes on top, as for every figure of the receivers.

*RFB decoding*: the time vncdotool's client takes to take one whole-desktop update in
each encoding (RAW, ZRLE, Hextile) from the same server: why the host asks for RAW.

    PYTHONPATH=src python -m bench.vnc --changes 30 --size 1280x720
"""

from __future__ import annotations

import argparse
import json
import socket
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.support.vnc_desktop import BLUE, GREEN, QUARTERS, RED, YELLOW, VncDesktop
from tests.support.vnc_desktop import PASSWORD as VNC_PASSWORD

from bench.chromium import CHROMIUM, CHROMIUM_ARGS, receiver_pages
from bench.livewall import stats
from bench.procs import tilewall_proc
from bench.seed import ADMIN, PASSWORD, Seeded, seed
from tilewall.client import Client

TILES = 4
#: the other picture: every quarter in another colour than in QUARTERS
TURNED = (YELLOW, BLUE, GREEN, RED)

#: a watcher in each page: the first instant its quarter shows `window.__want`
WATCH_JS = """() => {
  window.__want = null; window.__seen = null;
  const near = (a, b) => Math.abs(a[0] - b[0]) < 40 && Math.abs(a[1] - b[1]) < 40
    && Math.abs(a[2] - b[2]) < 40;
  const look = () => {
    requestAnimationFrame(look);
    if (!window.__want || window.__seen) return;
    const canvas = document.querySelector('canvas.live-picture');
    const tile = window.tilewall.state && window.tilewall.state.tile;
    if (!canvas || !tile || !canvas.width) return;
    const fx = (tile.crop.x + tile.crop.width / 2) / tile.canvas.width;
    const fy = (tile.crop.y + tile.crop.height / 2) / tile.canvas.height;
    const px = canvas.getContext('2d').getImageData(
      Math.floor(fx * canvas.width), Math.floor(fy * canvas.height), 1, 1).data;
    if (near(px, window.__want)) window.__seen = performance.timeOrigin + performance.now();
  };
  requestAnimationFrame(look);
}"""


def _quarter(n: int, quarters: tuple[tuple[int, int, int], ...]) -> tuple[int, int, int]:
    return quarters[n]


def change_to_tile(pages: list[Any], desktop: VncDesktop, changes: int) -> list[float]:
    """The last tile's delay after each of ``changes`` repaints, ms."""
    out = []
    for n in range(changes):
        quarters = TURNED if n % 2 == 0 else QUARTERS
        quadrants = [page.evaluate("() => window.__quadrant") for page in pages]
        for page, quadrant in zip(pages, quadrants, strict=True):
            page.evaluate(
                "(want) => { window.__seen = null; window.__want = want; }",
                list(_quarter(quadrant, quarters)),
            )
        drawn_ms = desktop.paint(quarters) * 1000
        deadline = time.monotonic() + 5
        seen: list[float | None] = [None] * len(pages)
        while None in seen and time.monotonic() < deadline:
            seen = [page.evaluate("() => window.__seen") for page in pages]
            time.sleep(0.01)
        if None not in seen:
            out.append(max(s for s in seen if s is not None) - drawn_ms)
        time.sleep(0.4)
    return out


def quadrant_of(page: Any) -> int:
    """Which quarter of the desktop the tile shows (0 top-left .. 3 bottom-right)."""
    crop = page.evaluate("() => window.tilewall.state.tile")
    fx = (crop["crop"]["x"] + crop["crop"]["width"] / 2) / crop["canvas"]["width"]
    fy = (crop["crop"]["y"] + crop["crop"]["height"] / 2) / crop["canvas"]["height"]
    return int(fx >= 0.5) + 2 * int(fy >= 0.5)


def run_wall(work: Path, size: tuple[int, int], changes: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    data = work / "seed"
    seed(data, TILES, 0, one_zone=True)
    zone = Seeded.read(data).zones[0]
    proc = tilewall_proc(data, work, "uvicorn", "vnc")
    with VncDesktop(*size) as desktop, proc, sync_playwright() as playwright:
        proc.start()
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        host = Client(proc.base_url, ADMIN, PASSWORD)
        host.login()
        pages = receiver_pages(browser, proc.base_url, TILES)
        params = {"Host": "127.0.0.1", "Port": str(desktop.port), "Password": VNC_PASSWORD}
        source = host.sources.create("Bench desktop", "Desktop Streamer (VNC)", params)
        host.zones.switch(zone, source_id=source["sourceId"], by="id")
        for page in pages:
            page.wait_for_selector("canvas.live-picture[data-at]", timeout=60_000)
            page.evaluate(WATCH_JS)
            page.evaluate("(q) => { window.__quadrant = q; }", quadrant_of(page))
        time.sleep(1.0)
        delays = change_to_tile(pages, desktop, changes)
        status = host.sources.status(source["sourceId"], by="id")
        host.close()
        browser.close()
    return {
        "size": f"{size[0]}x{size[1]}",
        "tiles": TILES,
        "changes": changes,
        "seen": len(delays),
        "change_to_tile_ms": stats(delays),
        "status": status,
    }


def rfb_decoding(size: tuple[int, int], rounds: int = 3) -> dict[str, float]:
    """ms for vncdotool's client to take one whole-desktop update, per encoding."""
    from vncdotool import client as vnc_client
    from vncdotool import rfb

    from tilewall.live import vnc

    out: dict[str, float] = {}
    with VncDesktop(*size) as desktop:
        for name, encoding in (
            ("RAW", rfb.Encoding.RAW),
            ("ZRLE", rfb.Encoding.ZRLE),
            ("Hextile", rfb.Encoding.HEXTILE),
        ):
            times = []
            for n in range(rounds):
                desktop.paint(QUARTERS if n % 2 else TURNED)
                times.append(_one_update(desktop, vnc, vnc_client, encoding))
            out[name] = min(times)
    return out


def _one_update(desktop: VncDesktop, vnc: Any, vnc_client: Any, encoding: int) -> float:
    sock = socket.create_connection(("127.0.0.1", desktop.port), timeout=10)
    factory = vnc._Factory(VNC_PASSWORD)
    client = vnc._Desktop()
    client.factory = factory
    client.makeConnection(vnc._Transport(sock))
    try:
        while not factory.ready:
            client.dataReceived(sock.recv(1 << 20))
        client.setEncodings([encoding])
        started = time.perf_counter()
        client.framebufferUpdateRequest(incremental=False)
        before = client.updates
        while client.updates == before:
            client.dataReceived(sock.recv(1 << 20))
        return (time.perf_counter() - started) * 1000
    finally:
        sock.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=30)
    parser.add_argument("--size", default="1280x720", help="the desktop's size")
    parser.add_argument("--out", type=Path, help="results JSON")
    args = parser.parse_args(argv)
    width, height = (int(v) for v in args.size.split("x"))
    result: dict[str, Any] = {"rfb_decoding_ms": rfb_decoding((width, height))}
    with tempfile.TemporaryDirectory(prefix="vnc-bench-") as tmp:
        result |= run_wall(Path(tmp), (width, height), args.changes)
    result["load_average"] = Path("/proc/loadavg").read_text().split()[:3]
    s = result["change_to_tile_ms"]
    print(f"desktop {result['size']}, {result['seen']} of {result['changes']} changes seen")
    print(f"change to tile: p50 {s['p50']:.1f} ms, p95 {s['p95']:.1f} ms, max {s['max']:.1f} ms")
    print("RFB whole-desktop update:", result["rfb_decoding_ms"])
    if args.out:
        args.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
