"""Licence rules: how many stations may be locked, which source types may be used.

A host without a licence is unrestricted; a licence, once held, limits both.
"""

from tilewall.host.errors import Forbidden
from tilewall.host.model import Licence
from tilewall.host.state import Core, Transaction

SETTING = "licence"


class LicenceRules:
    def __init__(self, core: Core) -> None:
        self._core = core

    def current(self) -> Licence | None:
        raw = self._core.state.settings.get(SETTING)
        return None if raw is None else self._core.setting(SETTING, Licence, Licence())

    def set(self, tx: Transaction, licence: Licence | None) -> None:
        tx.put_setting(SETTING, licence)

    def check_source_type(self, source_type: str) -> None:
        licence = self.current()
        if licence is None or licence.source_types is None:
            return
        if source_type not in licence.source_types:
            raise Forbidden(f"the licence does not allow sources of type {source_type!r}")

    def check_station_capacity(self, locked_now: int) -> None:
        licence = self.current()
        if licence is None or licence.number_of_stations is None:
            return
        if locked_now >= licence.number_of_stations:
            raise Forbidden(
                f"the licence allows {licence.number_of_stations} stations and "
                f"{locked_now} are locked"
            )
