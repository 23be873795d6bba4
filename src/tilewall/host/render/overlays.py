"""What a receiver is told to show over its content: the broadcast alert, its display id,
DPMS blanking. The host keeps these as one stored value (``playback.overlays``); here
they are the host-wide switches a description is computed from, and the part of each
receiver's description they become."""

from dataclasses import dataclass, field
from typing import cast

import msgspec

from tilewall.host.playback import overlays as stored
from tilewall.host.playback.overlays import AlertLevel
from tilewall.host.playback.sharecodes import CodesState


class AlertOverlay(msgspec.Struct, frozen=True, rename="camel"):
    message: str
    level: AlertLevel
    until_ms: int


class DisplayIdOverlay(msgspec.Struct, frozen=True, rename="camel"):
    display_id: int


class ShareCodeOverlay(msgspec.Struct, frozen=True, rename="camel"):
    """The code a guest shares a screen to this display with (docs/share.md); shown
    until ``until_ms`` (0: for as long as it is in the description)."""

    code: str
    until_ms: int


class ReceiverOverlays(msgspec.Struct, frozen=True, rename="camel"):
    """What one receiver shows over its content."""

    alert: AlertOverlay | None = None
    display_id: DisplayIdOverlay | None = None
    dpms_off: bool = False
    share_code: ShareCodeOverlay | None = None


@dataclass(frozen=True)
class OverlaySwitches:
    """Host-wide overlay switches; a display shows an overlay if ``*_all`` or listed."""

    alert: AlertOverlay | None = None
    display_ids_all: bool = False
    display_ids: frozenset[int] = field(default_factory=frozenset)
    dpms_off_all: bool = False
    dpms_off: frozenset[int] = field(default_factory=frozenset)
    #: the share code each display shows, by display id
    share_codes: dict[int, ShareCodeOverlay] = field(default_factory=dict)

    @classmethod
    def of(cls, state: stored.OverlayState, codes: CodesState | None = None) -> "OverlaySwitches":
        """The switches of the host's stored overlay state and share codes."""
        codes = codes or CodesState()
        alert = state.alert
        return cls(
            # the host stores only levels it accepted (``stored.LEVELS``)
            alert=AlertOverlay(alert.message, cast(AlertLevel, alert.level), alert.until_ms)
            if alert is not None
            else None,
            display_ids_all=state.ids_all,
            display_ids=frozenset(state.ids_displays),
            dpms_off_all=state.dpms_all_off,
            dpms_off=frozenset(state.dpms_off_displays),
            share_codes={
                int(key): ShareCodeOverlay(shown.code, shown.until_ms)
                for key, shown in codes.shown.items()
                if int(key) not in codes.covered
            },
        )


def overlays_of(display_id: int, switches: OverlaySwitches, now_ms: int) -> ReceiverOverlays:
    """The overlays ``display_id`` shows at host instant ``now_ms``."""
    alert = switches.alert if switches.alert and switches.alert.until_ms > now_ms else None
    shown = switches.display_ids_all or display_id in switches.display_ids
    return ReceiverOverlays(
        alert=alert,
        display_id=DisplayIdOverlay(display_id) if shown else None,
        dpms_off=switches.dpms_off_all or display_id in switches.dpms_off,
        share_code=_share_code(switches.share_codes.get(display_id), now_ms),
    )


def _share_code(code: ShareCodeOverlay | None, now_ms: int) -> ShareCodeOverlay | None:
    return code if code is not None and (not code.until_ms or code.until_ms > now_ms) else None
