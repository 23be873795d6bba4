"""The interface operations the benchmarks load with wrk, written for a seeded host."""

from __future__ import annotations

import json

from bench.loadgen import Operation, Request
from bench.seed import Seeded

PING = Operation("ping", (Request("GET", "/api/ping"),))


def one_client(name: str) -> str:
    """The results key of operation ``name`` measured with one connection."""
    return f"{name}@1"


def operations(seeded: Seeded) -> dict[str, Operation]:
    """The reads and the zone switch of the interface benchmark, by name."""
    zone = seeded.zones[0] if seeded.zones else "no-zone"
    a, b = ([*seeded.sources, "none", "none"])[:2]
    json_headers = {"Content-Type": "application/json"}
    switch = f"/api/zones/{zone}/switch?destinationSourceId="
    return {
        "displays": Operation("displays", (Request("GET", "/api/displays"),)),
        "zones": Operation("zones", (Request("GET", "/api/zones"),)),
        "sources": Operation("sources", (Request("GET", "/api/sources"),)),
        "system": Operation("system", (Request("GET", "/api/system"),)),
        # the body {} is accepted by tilewall and needed by Prism, whose reading of the
        # OpenAPI document makes the switch body required
        "zone_switch": Operation(
            "zone_switch",
            (Request("PUT", switch + a, "{}"), Request("PUT", switch + b, "{}")),
            json_headers,
        ),
    }


def tag_operation(seeded: Seeded) -> Operation:
    """PUT display tag, cycling over the displays and over changing values."""
    reqs = tuple(
        Request("PUT", f"/api/displays/{d}/tag", json.dumps({"displayTag": f"bench tag {i}"}))
        for i, d in enumerate(seeded.displays[:8] * 2)
    )
    return Operation("display_tag", reqs, {"Content-Type": "application/json"})


def store_operations(seeded: Seeded) -> dict[str, Operation]:
    """The operations and the durable write (the interface on either store)."""
    return {**operations(seeded), "display_tag": tag_operation(seeded)}
