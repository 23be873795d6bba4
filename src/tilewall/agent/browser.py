"""The kiosk browser: Chromium full-screen on the receiver page, kept running.

It is started in its own process group (Chromium starts many processes) with a profile
of its own under the agent's state directory, so the page keeps its storage (its
station key) across restarts. It is started again when it dies (after a pause that
grows while it keeps dying) and restarted when the host resets the display.
"""

import asyncio
import contextlib
import json
import logging
import os
import shutil
import signal
from collections.abc import Callable, Sequence
from pathlib import Path

from tilewall.agent.backoff import Backoff

log = logging.getLogger(__name__)

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
FLAGS = [
    "--kiosk",
    "--start-fullscreen",
    "--no-first-run",
    "--no-default-browser-check",
    "--noerrdialogs",
    "--disable-infobars",
    "--disable-session-crashed-bubble",
    "--disable-features=Translate,MediaRouter",
    "--autoplay-policy=no-user-gesture-required",
    "--check-for-update-interval=31536000",
    "--disable-pinch",
    "--overscroll-history-navigation=0",
    "--password-store=basic",
    "--ozone-platform-hint=auto",
]
#: a browser that ran this long was not "dying": the next death starts from the shortest pause
STABLE_S = 60.0
STOP_GRACE_S = 5.0


def find_browser(given: str | None) -> str | None:
    if given:
        return given
    for name in CANDIDATES:
        path = shutil.which(name)
        if path:
            return path
    return None


def command(browser: str, url: str, profile: Path, extra: Sequence[str] = ()) -> list[str]:
    return [browser, *FLAGS, f"--user-data-dir={profile}", *extra, url]


def mark_clean_exit(profile: Path) -> None:
    """Tell Chromium its last run ended well, so a kill does not leave a "restore pages"
    bubble over the kiosk."""
    prefs = profile / "Default" / "Preferences"
    try:
        data = json.loads(prefs.read_text())
    except (OSError, ValueError):
        return
    profile_prefs = data.setdefault("profile", {})
    profile_prefs["exit_type"] = "Normal"
    profile_prefs["exited_cleanly"] = True
    with contextlib.suppress(OSError):
        prefs.write_text(json.dumps(data))


async def no_screensaver() -> None:
    """On X11, no screensaver and no blanking by timeout (DPMS stays usable for power)."""
    if not os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return
    xset = shutil.which("xset")
    if xset is None:
        log.warning("xset not found: the X screensaver may blank the kiosk")
        return
    for args in (["s", "off"], ["s", "noblank"], ["dpms", "0", "0", "0"]):
        process = await asyncio.create_subprocess_exec(
            xset, *args, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
        )
        await process.wait()


class Browser:
    """Keeps one browser process on ``url()`` running until :meth:`stop`."""

    def __init__(
        self, browser: str, url: Callable[[], str], profile: Path, extra: Sequence[str] = ()
    ) -> None:
        self.browser = browser
        self.url = url
        self.profile = profile
        self.extra = list(extra)
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0
        self._stopping = False
        self._restart = asyncio.Event()

    async def run(self) -> None:
        # pauses between starts of a browser that keeps dying
        backoff = Backoff()
        await no_screensaver()
        while not self._stopping:
            started = asyncio.get_running_loop().time()
            try:
                await self._start()
            except OSError as error:
                log.error("cannot start the browser %s: %s", self.browser, error)
            else:
                assert self.process is not None
                restart = asyncio.create_task(self._restart.wait())
                exited = asyncio.create_task(self.process.wait())
                await asyncio.wait({restart, exited}, return_when=asyncio.FIRST_COMPLETED)
                restart.cancel()
                if self._restart.is_set() or self._stopping:
                    self._restart.clear()
                    await self._terminate()
                    exited.cancel()
                    backoff.reset()
                    continue
                log.warning("the browser exited (status %s); starting it again", exited.result())
            if asyncio.get_running_loop().time() - started > STABLE_S:
                backoff.reset()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._restart.wait(), backoff.pause())
            self._restart.clear()

    async def _start(self) -> None:
        self.profile.mkdir(parents=True, exist_ok=True)
        mark_clean_exit(self.profile)
        argv = command(self.browser, self.url(), self.profile, self.extra)
        self.process = await asyncio.create_subprocess_exec(*argv, start_new_session=True)
        self.starts += 1
        log.info("browser started (pid %d) on %s", self.process.pid, argv[-1].split("#")[0])

    def restart(self, why: str) -> None:
        """Stop the browser and start it again at once."""
        log.info("restarting the browser: %s", why)
        self._restart.set()

    async def stop(self) -> None:
        self._stopping = True
        self._restart.set()
        await self._terminate()

    async def _terminate(self) -> None:
        process = self.process
        if process is None or process.returncode is not None:
            return
        self._signal(process.pid, signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), STOP_GRACE_S)
        except TimeoutError:
            self._signal(process.pid, signal.SIGKILL)
            await process.wait()

    @staticmethod
    def _signal(pid: int, sig: signal.Signals) -> None:
        """The whole process group: Chromium's helpers go with it."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, sig)
