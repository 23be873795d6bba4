"""How long the host's logs keep what they hold (the play log, the audit trail): a
number of days, a setting of each, bounded and stored the same way."""

from tilewall.host.errors import Invalid
from tilewall.host.state import Core

MAX_RETENTION_DAYS = 3660
DAY_MS = 24 * 3600 * 1000


async def keep_days(core: Core, setting: str, days: int) -> None:
    """Store ``days`` as the retention ``setting``; 400 outside 1 to MAX_RETENTION_DAYS.
    What is older is for the log to remove."""
    if not 1 <= days <= MAX_RETENTION_DAYS:
        raise Invalid(f"retentionDays: between 1 and {MAX_RETENTION_DAYS}")
    async with core.change() as tx:
        tx.put_setting(setting, days)
