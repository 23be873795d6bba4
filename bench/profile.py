"""Profile the interface's hot paths in process with pyinstrument.

    python bench/profile.py --displays 1000 --op displays --requests 300
    python bench/profile.py --displays 10 --sources 100 --op display_tag --concurrency 16

Seeds a topology (bench/seed.py) in a temporary directory, opens the app the way
``tilewall serve`` does (tilewall.server.make_app) and calls it through httpx's ASGI
transport in the profiler's own thread and event loop (no server, no sockets), logs in,
warms up, then profiles ``--requests`` requests of one operation and
prints the call tree. ``--concurrency N`` keeps N requests under way at once (writes
are then committed in batches, as under load). ``--html FILE`` also writes
pyinstrument's HTML view. The access log is set to INFO as ``tilewall serve`` sets it,
written to a null stream.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.operations import store_operations
from bench.seed import ADMIN, PASSWORD, Seeded, seed


async def profile(
    data_dir: Path,
    op_name: str,
    requests: int,
    html: Path | None,
    interval: float,
    concurrency: int = 1,
) -> None:
    import httpx
    from pyinstrument import Profiler

    from tilewall.server import make_app

    op = store_operations(Seeded.read(data_dir))[op_name]
    app = make_app(data_dir)
    # Litestar declares its ASGI callable with its own, narrower, scope and event types
    transport = httpx.ASGITransport(app=cast(Any, app), client=("127.0.0.1", 50000))
    async with (
        app.lifespan(),
        httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client,
    ):
        r = await client.post("/api/session", json={"user": ADMIN, "password": PASSWORD})
        client.cookies.set("JSESSIONID", r.json()["session"]["value"])

        async def one(i: int) -> None:
            req = op.requests[i % len(op.requests)]
            resp = await client.request(
                req.method, req.path, content=req.body, headers=op.headers or None
            )
            assert resp.status_code < 300, resp.text

        async def some(first: int) -> None:
            for i in range(first, requests, concurrency):
                await one(i)

        for i in range(20):
            await one(i)
        profiler = Profiler(interval=interval, async_mode="disabled", use_timing_thread=True)
        started = time.perf_counter()
        profiler.start()
        await asyncio.gather(*(some(n) for n in range(concurrency)))
        profiler.stop()
        seconds = time.perf_counter() - started
    print(
        f"{op_name} at {ARGS.displays} displays: {requests} requests in {seconds:.2f} s "
        f"({requests / seconds:.0f} req/s in process, {concurrency} at a time, profiler on)"
    )
    print(profiler.output_text(unicode=True, color=False, show_all=ARGS.all))
    if html is not None:
        html.write_text(profiler.output_html())


def main() -> None:
    global ARGS
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--displays", type=int, default=1000)
    parser.add_argument("--sources", type=int, default=20)
    parser.add_argument(
        "--op",
        default="displays",
        choices=["displays", "zones", "sources", "system", "zone_switch", "display_tag"],
    )
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--requests", type=int, default=50)
    parser.add_argument("--interval", type=float, default=0.001)
    parser.add_argument("--html", type=Path)
    parser.add_argument("--all", action="store_true", help="show library frames too")
    ARGS = parser.parse_args()
    with (
        tempfile.TemporaryDirectory(prefix="tilewall-profile-") as tmp,
        open(os.devnull, "w") as null,
    ):
        data_dir = Path(tmp) / "data"
        seed(data_dir, displays=ARGS.displays, sources=ARGS.sources)
        logging.basicConfig(level=logging.INFO, stream=null, force=True)
        asyncio.run(
            profile(data_dir, ARGS.op, ARGS.requests, ARGS.html, ARGS.interval, ARGS.concurrency)
        )


ARGS: argparse.Namespace

if __name__ == "__main__":
    main()
