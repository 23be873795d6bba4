"""Wall-clock times of a time zone as the host's milliseconds, and a host's scheduler
run at one of them."""

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from tests.support.app import host_of, run

NY = "America/New_York"


def local_ms(text: str, zone: str = NY) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(zone)).timestamp() * 1000)


def at(api: Any, local: str) -> None:
    """Set the manual clock of ``api``'s host to ``local`` (New York time) and let its
    scheduler act on it."""
    host = host_of(api)
    host.core.clock.ms = local_ms(local)
    run(api, host.scheduler.tick)
