"""The ceiling: the smallest Litestar app answering JSON, on the same server stack with
the same settings as ``tilewall serve`` (tilewall.server.run). What tilewall reaches
divided by what this reaches is the share of the stack's ceiling tilewall keeps.

Keep the server settings below equal to those of tilewall.server.run.
"""

import argparse
import asyncio

from litestar import Litestar, get


@get("/api/ping")
async def ping() -> dict[str, object]:
    return {"ok": True, "service": "ceiling"}


app = Litestar(route_handlers=[ping], debug=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--server", choices=["uvicorn", "granian"], default="uvicorn")
    args = parser.parse_args()
    if args.server == "granian":
        from granian.constants import Interfaces
        from granian.server.embed import Server as Granian

        server = Granian(app, address=args.host, port=args.port, interface=Interfaces.ASGI)
        asyncio.run(server.serve())
        return
    import uvicorn

    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        proxy_headers=False,
        ws_max_size=1024 * 1024,
    )


if __name__ == "__main__":
    main()
