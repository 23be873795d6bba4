"""The switch fan-out and memory-with-receivers benchmarks of ``bench/receivers.py`` on
their own: no interface benchmarks, no wall sync in Chromium.

    python bench/fanout.py                       # 4, 100 and 1,000 receivers, 20 switches
    python bench/fanout.py --sizes 4,100 --switches 5 --out fanout.json

The data directories are seeded once into ``--seeds`` (kept, so that runs of two trees
compare on the same data) and copied for every host. Prints one line per layout and size
(last told, first told and the PUT's answer, p50 and p99, ms) and the host's RSS.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import receivers
from bench.procs import BENCH
from bench.run import seed_all
from bench.settings import FULL


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="4,100,1000", help="receivers, comma separated")
    parser.add_argument("--switches", type=int, default=20)
    parser.add_argument("--seeds", type=Path, default=BENCH / ".work" / "fanout-seeds")
    parser.add_argument("--out", type=Path, help="the results as JSON")
    args = parser.parse_args()
    sizes = [int(n) for n in args.sizes.split(",")]
    settings = replace(
        FULL,
        topologies=[],
        durable_sources=[],
        sync_tiles=[],
        fanout_one_zone=sizes,
        fanout_walls=sizes,
        fanout_switches=args.switches,
        memory_receivers=[n for n in (100, 1000) if n <= max(sizes)],
    )
    jobs = receivers.seed_jobs(settings)
    if any(not (args.seeds / "seed" / key).exists() for key in jobs):
        seed_all(settings, args.seeds)
    seeds = {key: args.seeds / "seed" / key for key in jobs}
    work_parent = BENCH / ".work"
    work_parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="fanout-", dir=work_parent))

    def progress(message: str) -> None:
        print(time.strftime("%H:%M:%S"), message, flush=True)

    try:
        fanout, fleet = receivers.switch_fanout(settings, seeds, work, progress)
        memory = receivers.memory_with_receivers(settings, seeds, work, fleet, progress)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.out:
        args.out.write_text(json.dumps({"switch_fanout": fanout, "memory": memory}, indent=1))
    for layout, by_size in fanout["layouts"].items():
        for n, e in by_size.items():
            figures = " ".join(
                f"{key} {_ms(e[key]['p50'])}/{_ms(e[key]['p99'])}"
                for key in ("last_ms", "first_ms", "ack_ms")
            )
            extra = f" reconnects {e.get('reconnects')}" + (
                f" ({e['error']})" if e.get("error") else ""
            )
            print(f"{layout} {n}: {figures} (p50/p99){extra}")
    print(f"memory MB {memory.get('rss_mb')}, KB per receiver {memory.get('per_receiver_kb')}")


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


if __name__ == "__main__":
    main()
