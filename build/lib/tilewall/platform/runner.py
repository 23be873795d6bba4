"""Running commands on the machine: the one door every adapter goes through."""

import asyncio
import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from tilewall.platform.errors import CommandFailed

log = logging.getLogger(__name__)

#: returncode reported when the program does not exist, as a shell would
NOT_FOUND = 127


@dataclass(frozen=True)
class CommandResult:
    returncode: int
    stdout: str = ""
    stderr: str = ""

    @property
    def ok(self) -> bool:
        return self.returncode == 0


class Runner(Protocol):
    async def run(self, argv: Sequence[str], *, timeout: float = 60.0) -> CommandResult:
        """Run ``argv`` (no shell) and return its exit status and decoded output."""
        ...


class SubprocessRunner:
    """Runs commands as child processes.

    The environment is pinned to the C locale and a non-interactive Debian frontend,
    because adapters parse command output and no one can answer a prompt.
    """

    def __init__(self) -> None:
        self._env = {**os.environ, "LC_ALL": "C", "DEBIAN_FRONTEND": "noninteractive"}

    async def run(self, argv: Sequence[str], *, timeout: float = 60.0) -> CommandResult:
        try:
            proc = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=self._env,
            )
        except FileNotFoundError:
            return CommandResult(NOT_FOUND, "", f"{argv[0]}: command not found")
        try:
            out, err = await asyncio.wait_for(proc.communicate(), timeout)
        except TimeoutError:
            proc.kill()
            await proc.wait()
            return CommandResult(-9, "", f"{argv[0]}: timed out after {timeout:g} s")
        assert proc.returncode is not None
        return CommandResult(
            proc.returncode,
            out.decode(errors="replace"),
            err.decode(errors="replace"),
        )


Responder = Callable[[list[str]], CommandResult]


@dataclass
class RecordingRunner:
    """Records every command and answers from a script instead of running it.

    ``responses`` maps a command prefix (joined by spaces) to its result; the longest
    matching prefix wins, and anything unmatched succeeds with empty output.
    """

    responses: dict[str, CommandResult] = field(default_factory=dict)
    commands: list[list[str]] = field(default_factory=list)

    async def run(self, argv: Sequence[str], *, timeout: float = 60.0) -> CommandResult:
        command = list(argv)
        self.commands.append(command)
        joined = " ".join(command)
        best = ""
        for prefix in self.responses:
            if (joined == prefix or joined.startswith(prefix + " ")) and len(prefix) > len(best):
                best = prefix
        return self.responses[best] if best else CommandResult(0)


async def check(runner: Runner, argv: list[str], *, timeout: float = 60.0) -> CommandResult:
    """Run a command that changes the machine; log it and raise if it fails."""
    log.info("running %s", " ".join(argv))
    result = await runner.run(argv, timeout=timeout)
    if not result.ok:
        raise CommandFailed(argv, result.returncode, result.stderr)
    return result
