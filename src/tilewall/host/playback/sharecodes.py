"""The short codes with which a guest (no account) shares a screen to one display.

A display shows a code while it waits for a share: on demand (an operator shows it for
a while, from the console or the interface), or always when the display is set to
"presentation" (a meeting room's screen). A code is good for that display only, and
only while it is shown: not once its time is up, nor while a share plays on the display
(the share covers it). A code that started a share is used up: an on-demand code goes,
a presentation display gets a new one. Wrong codes are counted per address by the
login's throttle (:mod:`tilewall.host.access.throttle`): after a few, the address is
refused without checking (429) for a while that doubles.

Codes are a stored setting, so every member of a group shows and accepts the same ones
and a restart keeps them.
"""

import secrets

import msgspec

from tilewall.host.access import scopes
from tilewall.host.access.throttle import LoginThrottle, Policy
from tilewall.host.errors import Forbidden, Invalid, NotFound, TooManyAttempts
from tilewall.host.state import Core

SETTING = "share_codes"
DIGITS = 6
DEFAULT_MINUTES = 10
MAX_MINUTES = 24 * 60
#: the throttle's key for guesses from an address (one "user" for every code)
_GUESSES = "share code"


class ShownCode(msgspec.Struct, frozen=True):
    code: str
    #: host instant it stops being shown; 0: while the display is in presentation mode
    until_ms: int = 0


class CodesState(msgspec.Struct):
    #: displays that always show a code while no share plays on them
    presentation: list[int] = []
    #: the code each display shows (by display id, as text: a JSON object's keys)
    shown: dict[str, ShownCode] = {}
    #: displays a share plays on: their codes are not shown and not good
    covered: list[int] = []


def new_code() -> str:
    return f"{secrets.randbelow(10**DIGITS):0{DIGITS}d}"


class ShareCodes:
    def __init__(self, core: Core, policy: Policy | None = None) -> None:
        self._core = core
        self.throttle = LoginThrottle(policy or Policy(per_user=5, per_address=10))

    def state(self) -> CodesState:
        return self._core.setting(SETTING, CodesState, CodesState())

    def shown(self, display_id: int) -> ShownCode | None:
        """The code ``display_id`` shows now, if any."""
        state = self.state()
        code = state.shown.get(str(display_id))
        if code is None or display_id in state.covered:
            return None
        if code.until_ms and code.until_ms <= self._core.clock.now_ms():
            return None
        return code

    def _display(self, display_id: int) -> None:
        if display_id not in self._core.state.displays:
            raise NotFound(f"display {display_id} not found")

    async def _save(self, state: CodesState, *display_ids: int) -> None:
        async with self._core.change() as tx:
            tx.put_setting(SETTING, state)
            tx.affect(*display_ids)

    async def show(self, display_id: int, minutes: int = DEFAULT_MINUTES) -> ShownCode:
        """Show a new code on ``display_id`` for ``minutes`` (a presentation display: a
        new code, shown as long as it is one)."""
        self._display(display_id)
        scopes.require(self._core.state, [("display", display_id)])
        if not 1 <= minutes <= MAX_MINUTES:
            raise Invalid(f"minutes must be from 1 to {MAX_MINUTES}")
        state = self.state()
        until = (
            0 if display_id in state.presentation else self._core.clock.now_ms() + minutes * 60_000
        )
        code = ShownCode(new_code(), until)
        await self._save(_with(state, display_id, code), display_id)
        return code

    async def hide(self, display_id: int) -> None:
        """Stop showing the code of ``display_id`` (a presentation display gets a new one:
        the one people saw stops working)."""
        self._display(display_id)
        scopes.require(self._core.state, [("display", display_id)])
        state = self.state()
        if display_id in state.presentation:
            await self._save(_with(state, display_id, ShownCode(new_code())), display_id)
        elif str(display_id) in state.shown:
            await self._save(_with(state, display_id, None), display_id)

    async def set_presentation(self, display_id: int, on: bool) -> None:
        self._display(display_id)
        state = self.state()
        ids = [d for d in state.presentation if d != display_id] + ([display_id] if on else [])
        state = msgspec.structs.replace(state, presentation=sorted(ids))
        code = ShownCode(new_code()) if on else None
        await self._save(_with(state, display_id, code), display_id)

    def check(self, code: str, address: str, display_id: int | None = None) -> int:
        """The display whose shown code is ``code`` (it must be ``display_id`` when given).

        Forbidden for a wrong code (counted against ``address``); TooManyAttempts while
        ``address`` is locked for too many wrong ones, without looking at the code."""
        wait = self.throttle.retry_after(address, _GUESSES)
        if wait > 0:
            raise TooManyAttempts(
                f"too many wrong share codes from this address; try again in {round(wait + 0.5)} s",
                max(1, round(wait + 0.5)),
            )
        code = code.strip().replace(" ", "")
        found = [
            int(key)
            for key, shown in self.state().shown.items()
            if secrets.compare_digest(shown.code, code) and self.shown(int(key)) is not None
        ]
        ok = bool(found) and (display_id is None or display_id in found)
        self.throttle.record(address, _GUESSES, ok)
        if not ok:
            where = f"display {display_id}" if display_id is not None else "any display"
            raise Forbidden(f"that is not the code {where} shows now")
        return display_id if display_id is not None else found[0]

    async def used(self, display_id: int) -> None:
        """A guest's share started with the code of ``display_id``: the code is used up."""
        await self.hide(display_id)

    async def cover(self, display_ids: list[int], covered: bool) -> None:
        """A share plays on ``display_ids`` (their codes are neither shown nor good), or no
        longer does."""
        state = self.state()
        keep = [d for d in state.covered if d not in display_ids]
        ids = sorted(keep + (list(display_ids) if covered else []))
        if ids != state.covered:
            await self._save(msgspec.structs.replace(state, covered=ids), *display_ids)


def _with(state: CodesState, display_id: int, code: ShownCode | None) -> CodesState:
    shown = {k: v for k, v in state.shown.items() if k != str(display_id)}
    if code is not None:
        shown[str(display_id)] = code
    return msgspec.structs.replace(state, shown=shown)
