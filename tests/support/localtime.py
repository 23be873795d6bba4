"""Wall-clock times of a time zone as the host's milliseconds."""

from datetime import datetime
from zoneinfo import ZoneInfo

NY = "America/New_York"


def local_ms(text: str, zone: str = NY) -> int:
    return int(datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(zone)).timestamp() * 1000)
