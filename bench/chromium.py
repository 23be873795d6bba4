"""Debian's Chromium for the benchmarks' receiver pages: where it is, its flags, the pages."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Playwright is imported where a browser is started
    from playwright.sync_api import ViewportSize

CHROMIUM = Path(os.environ.get("TILEWALL_CHROMIUM") or shutil.which("chromium") or "chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--autoplay-policy=no-user-gesture-required",
]
#: small pages keep nine decoding tiles affordable on two CPUs
VIEWPORT: ViewportSize = {"width": 320, "height": 180}


def chromium_available() -> bool:
    return CHROMIUM.exists()


def version() -> str:
    """What Chromium says of its version ("not installed" without one)."""
    if not CHROMIUM.exists():
        return "not installed"
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        done = subprocess.run(
            [str(CHROMIUM), "--version"], capture_output=True, text=True, timeout=30
        )
        return done.stdout.strip() or "unknown"
    return "unknown"


def receiver_pages(
    browser: Any, base_url: str, tiles: int, init_script: str | None = None
) -> list[Any]:
    """``tiles`` receiver pages (seats ``bench-00000`` on), each running ``init_script``
    first if one is given.

    Each page is in a browser context of its own, as each tile is a device of its own:
    the pages of one context other than the last opened or brought to front present
    their video frames about once a second (their media clock runs on), which hides what
    a viewer sees. Playwright's string predicates are eval, which the page's policy
    forbids: bypassed."""
    pages = []
    for n in range(tiles):
        context = browser.new_context(viewport=VIEWPORT, bypass_csp=True)
        if init_script is not None:
            context.add_init_script(init_script)
        page = context.new_page()
        page.goto(f"{base_url}/receiver/?seat=bench-{n:05d}")
        pages.append(page)
    return pages


#: the receiver page shows its tile of a wall
A_TILE = "() => window.tilewall && window.tilewall.state && window.tilewall.state.role === 'tile'"


def wait_for_tiles(pages: list[Any]) -> None:
    """Wait until every one of ``pages`` shows its tile of a wall."""
    for page in pages:
        page.wait_for_function(A_TILE, timeout=30_000)
