"""What the kiosk device is, for the station's model string."""

import platform
from pathlib import Path

MODEL_FILES = (Path("/proc/device-tree/model"), Path("/sys/class/dmi/id/product_name"))


def _os_name() -> str:
    try:
        for line in Path("/etc/os-release").read_text().splitlines():
            if line.startswith("PRETTY_NAME="):
                return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return platform.system()


def model() -> str:
    """``Raspberry Pi 4 Model B Rev 1.4 · Debian GNU/Linux 12 (bookworm)``."""
    hardware = ""
    for path in MODEL_FILES:
        try:
            hardware = path.read_text().strip("\x00\n ")
        except OSError:
            continue
        if hardware:
            break
    parts = [hardware or platform.machine(), _os_name()]
    return " · ".join(p for p in parts if p)[:256]
