"""Feeds the frame-numbered pattern (framecode) to an ``ffmpeg`` publisher in real time.

``python live_pattern.py --width W --height H --fps F --origin T [--respawn] -- ffmpeg
ARGS...`` starts ``ffmpeg ARGS`` reading raw I420 frames on its standard input (add
``-f rawvideo -pix_fmt yuv420p -s WxH -framerate F -i pipe:0`` to ARGS) and writes frame
``n`` at ``origin + n / fps``. A publisher that fell behind (waiting for a caller, say)
skips to the frame due now, as a camera does. ``--respawn`` starts ffmpeg again whenever
it ends (an SRT listener serves one caller and then exits). Runs under any Python 3.11.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # run as a program
from tests.support.framecode import FrameMaker, Pattern


def feed(maker: FrameMaker, command: list[str]) -> int:
    """Runs ``command`` once, writing frames to it until it ends; its exit status."""
    pattern = maker.pattern
    child = subprocess.Popen(command, stdin=subprocess.PIPE)
    assert child.stdin is not None
    number = pattern.number_at()
    try:
        while True:
            delay = pattern.origin + number / pattern.fps - time.time()
            if delay > 0:
                time.sleep(delay)
            child.stdin.write(maker.frame(number))
            child.stdin.flush()
            number = max(number + 1, pattern.number_at() - 1)
    except (BrokenPipeError, OSError):
        pass
    return child.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--width", type=int, default=640)
    parser.add_argument("--height", type=int, default=360)
    parser.add_argument("--fps", type=int, default=30)
    parser.add_argument("--origin", type=float, default=time.time())
    parser.add_argument("--respawn", action="store_true")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    maker = FrameMaker(Pattern(args.width, args.height, args.fps, args.origin))
    while True:
        status = feed(maker, command)
        if not args.respawn:
            return status
        time.sleep(0.2)


if __name__ == "__main__":
    sys.exit(main())
