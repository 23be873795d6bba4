"""Receivers that come and go (bench/soak.py's), on one host, in a process of their own:
the churn of bench/groupload.py's load.

    python bench/churn.py CONFIG.json   # {"base_url", "seats", "seconds"}; JSON on stdout
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: make the repository root importable
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.soak import Soak

#: how long a receiver stays, as a share of the run (then away 0.2-2 s, as in the soak)
STAY_SHARE = (1 / 20, 1 / 4)


def main() -> None:
    config = json.loads(Path(sys.argv[1]).read_text())
    seconds = float(config["seconds"])
    runner = Soak(config["base_url"], 0, seconds, 0)
    runner.seats = list(config["seats"])
    stay = (max(seconds * STAY_SHARE[0], 2.0), max(seconds * STAY_SHARE[1], 4.0))
    print(json.dumps(asyncio.run(runner.churn(stay))))


if __name__ == "__main__":
    main()
