"""Switching the real screen on and off, the way the kiosk can:

- ``cec``: HDMI-CEC through libcec's ``cec-client`` (``standby 0`` / ``on 0`` to the TV,
  logical address 0), one command per run (``-s``), errors only (``-d 1``);
- ``ddc``: DDC/CI through ``ddcutil``, VCP feature 0xD6 (power mode) 04 (off) / 01 (on);
- ``dpms``: the display server's DPMS: ``wlopm`` on Wayland, ``xset dpms force`` on X11;
- ``command``: the operator's command with ``{state}`` replaced by ``on`` or ``off``;
- ``none``: the page blanks, the screen is left alone.
"""

import asyncio
import contextlib
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass

log = logging.getLogger(__name__)

METHODS = ("cec", "ddc", "dpms", "command", "none")
TIMEOUT_S = 20.0
#: the packages that bring each tool, for the message when it is missing
PACKAGES = {"cec-client": "cec-utils", "ddcutil": "ddcutil", "xset": "x11-xserver-utils"}


@dataclass(frozen=True)
class Invocation:
    """A command line and what it is given on its standard input."""

    argv: list[str]
    stdin: bytes = b""


class PowerError(Exception):
    """The screen could not be switched; the message is the tool's."""


def invocation(
    method: str, state: str, command: str = "", env: Mapping[str, str] | None = None
) -> Invocation:
    """The command line that switches the screen ``state`` (on or off) by ``method``."""
    if state not in ("on", "off"):
        raise ValueError(f"state is on or off, not {state!r}")
    off = state == "off"
    if method == "cec":
        return Invocation(["cec-client", "-s", "-d", "1"], b"standby 0\n" if off else b"on 0\n")
    if method == "ddc":
        return Invocation(["ddcutil", "setvcp", "d6", "04" if off else "01"])
    if method == "dpms":
        env = os.environ if env is None else env
        if env.get("WAYLAND_DISPLAY"):
            return Invocation(["wlopm", "--off" if off else "--on", "*"])
        if env.get("DISPLAY"):
            return Invocation(["xset", "dpms", "force", state])
        raise PowerError("no display server to ask: neither WAYLAND_DISPLAY nor DISPLAY is set")
    if method == "command":
        if not command.strip():
            raise PowerError("--power command needs --power-command")
        return Invocation(["/bin/sh", "-c", command.replace("{state}", state)])
    raise ValueError(f"no power method {method!r}")


def _failure(output: str) -> str:
    """cec-client says what went wrong on lines starting with ERROR, whatever its code."""
    return "\n".join(line for line in output.splitlines() if line.startswith("ERROR"))


class PowerSwitch:
    def __init__(self, method: str, command: str = "", timeout_s: float = TIMEOUT_S) -> None:
        if method not in METHODS:
            raise ValueError(f"power is one of {', '.join(METHODS)}, not {method!r}")
        self.method = method
        self.command = command
        self.timeout_s = timeout_s

    async def switch(self, state: str) -> None:
        """Switch the screen; raises :class:`PowerError` with the tool's message."""
        if self.method == "none":
            return
        call = invocation(self.method, state, self.command)
        try:
            process = await asyncio.create_subprocess_exec(
                *call.argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT,
            )
        except FileNotFoundError:
            tool = call.argv[0]
            package = PACKAGES.get(tool, tool)
            raise PowerError(f"{tool} is not installed (apt-get install {package})") from None
        except OSError as error:
            raise PowerError(f"{call.argv[0]} cannot be started: {error}") from None
        try:
            out, _ = await asyncio.wait_for(process.communicate(call.stdin), self.timeout_s)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
            raise PowerError(f"{call.argv[0]} did not finish within {self.timeout_s:g} s") from None
        output = out.decode("utf-8", "replace").strip()
        errors = _failure(output) if self.method == "cec" else ""
        if process.returncode != 0 or errors:
            detail = errors or output[-800:] or f"exit status {process.returncode}"
            raise PowerError(f"{call.argv[0]} failed: {detail}")
