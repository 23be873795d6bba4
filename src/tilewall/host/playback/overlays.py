"""What shows over the content, as the host keeps it: broadcast alert, display ids, DPMS
blanking. What each receiver is told of it is in ``render.overlays``."""

from typing import Literal, get_args

import msgspec

from tilewall.host.access import scopes
from tilewall.host.errors import Invalid, NotFound
from tilewall.host.state import Core

SETTING = "overlays"
AlertLevel = Literal["GREEN_LEVEL", "ORANGE_LEVEL", "RED_LEVEL"]
LEVELS: tuple[AlertLevel, ...] = get_args(AlertLevel)
MAX_ALERT_MS = 7 * 24 * 3600 * 1000


class Alert(msgspec.Struct):
    message: str
    level: str
    started_ms: int
    until_ms: int


class OverlayState(msgspec.Struct):
    alert: Alert | None = None
    ids_all: bool = False
    ids_displays: list[int] = []
    dpms_all_off: bool = False
    dpms_off_displays: list[int] = []


class Overlays:
    def __init__(self, core: Core) -> None:
        self._core = core

    def state(self) -> OverlayState:
        return self._core.setting(SETTING, OverlayState, OverlayState())

    def active_alert(self) -> Alert | None:
        alert = self.state().alert
        if alert is None or alert.until_ms <= self._core.clock.now_ms():
            return None
        return alert

    def shows_id(self, display_id: int) -> bool:
        s = self.state()
        return s.ids_all or display_id in s.ids_displays

    def is_blanked(self, display_id: int) -> bool:
        s = self.state()
        return s.dpms_all_off or display_id in s.dpms_off_displays

    async def _save(self, new: OverlayState) -> None:
        async with self._core.change() as tx:
            tx.put_setting(SETTING, new)
            tx.affect_all()

    def _check_display(self, display_id: int | None) -> None:
        if display_id is not None and display_id not in self._core.state.displays:
            raise NotFound(f"display {display_id} not found")

    async def start_alert(self, message: str, level: str, length_ms: int) -> Alert:
        scopes.require_unlimited("a broadcast alert")
        if not message.strip():
            raise Invalid("message must not be empty")
        if len(message) > 2000:
            raise Invalid("message must be at most 2000 characters")
        if level not in LEVELS:
            raise Invalid(f"alertLevel must be one of {', '.join(LEVELS)}")
        if not 1 <= length_ms <= MAX_ALERT_MS:
            raise Invalid(f"lengthMillisec must be between 1 and {MAX_ALERT_MS}")
        now = self._core.clock.now_ms()
        alert = Alert(message, level, now, now + length_ms)
        await self._save(msgspec.structs.replace(self.state(), alert=alert))
        return alert

    async def stop_alert(self) -> None:
        scopes.require_unlimited("a broadcast alert")
        await self._save(msgspec.structs.replace(self.state(), alert=None))

    async def show_ids(self, display_id: int | None, show: bool) -> OverlayState:
        self._check_display(display_id)
        if display_id is None:
            scopes.require_unlimited("showing display ids on every display")
        else:
            scopes.require(self._core.state, [("display", display_id)])
        s = self.state()
        if display_id is None:
            new = msgspec.structs.replace(s, ids_all=show, ids_displays=[])
        else:
            shown = (
                set(s.ids_displays) | {display_id} if show else set(s.ids_displays) - {display_id}
            )
            new = msgspec.structs.replace(s, ids_displays=sorted(shown))
            if not show and s.ids_all:
                others = set(self._core.state.displays) - {display_id}
                new = msgspec.structs.replace(new, ids_all=False, ids_displays=sorted(others))
        await self._save(new)
        return new

    async def dpms(self, display_id: int | None, off: bool) -> OverlayState:
        self._check_display(display_id)
        s = self.state()
        if display_id is None:
            new = msgspec.structs.replace(s, dpms_all_off=off, dpms_off_displays=[])
        else:
            blanked = set(s.dpms_off_displays)
            if s.dpms_all_off and not off:
                blanked = set(self._core.state.displays)
            blanked = blanked | {display_id} if off else blanked - {display_id}
            new = msgspec.structs.replace(
                s, dpms_all_off=s.dpms_all_off and off, dpms_off_displays=sorted(blanked)
            )
        await self._save(new)
        return new
