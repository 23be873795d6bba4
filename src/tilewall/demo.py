"""The demo topology (filled in below)."""

from tilewall.host.host import Host


async def seed_demo(host: Host) -> None:
    """Seed the demo topology on an empty host."""
    del host
