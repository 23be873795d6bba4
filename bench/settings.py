"""The benchmark run's settings (full, quick, smoke) and the command line that changes them."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field, replace
from pathlib import Path

from bench.chromium import chromium_available
from bench.procs import BENCH

RESULTS = BENCH / "results"
OPS = ("displays", "zones", "sources", "system", "zone_switch")
SERVERS = ("uvicorn", "granian")
#: the server ``tilewall serve`` uses when --server is not given
DEFAULT_SERVER = "uvicorn"


@dataclass
class Settings:
    topologies: list[int] = field(default_factory=lambda: [10, 100, 1000])
    servers: list[str] = field(default_factory=lambda: list(SERVERS))
    ops: list[str] = field(default_factory=lambda: list(OPS))
    #: repetitions of every measurement; figures are medians over these
    runs: int = 3
    duration_s: int = 4
    warmup_s: int = 1
    connections: int = 16
    #: operations also measured with one connection (one client, one request at a time)
    one_client_ops: list[str] = field(default_factory=lambda: ["zone_switch"])
    sources: int = 20
    ceiling: bool = True
    prism: bool = True
    startup_runs: int = 3
    durable_sources: list[int] = field(default_factory=lambda: [10, 100, 1000])
    durable_connections: list[int] = field(default_factory=lambda: [1, 16])
    durable_duration_s: int = 3
    durable_displays: int = 10
    #: servers of the start-up benchmark (None: the same as ``servers``)
    startup_servers: list[str] | None = None
    #: operations run against Prism (None: the same as ``ops``)
    prism_ops: list[str] | None = None
    #: receiver benchmarks (bench/receivers.py)
    receivers: bool = True
    #: switch fan-out: receivers in one zone, and receivers in walls of four
    fanout_one_zone: list[int] = field(default_factory=lambda: [4, 100, 1000])
    fanout_walls: list[int] = field(default_factory=lambda: [4, 100, 1000])
    fanout_switches: int = 20
    fanout_connect_timeout_s: float = 90.0
    #: connected receivers count as settled (switches start, memory is sampled) when
    #: none reconnected for this long
    fanout_stable_s: float = 3.0
    #: one zone of many receivers may never connect (docs/performance-notes.md): give up sooner
    fanout_one_zone_timeout_s: float = 30.0
    #: host RSS with this many receivers connected (and with none)
    memory_receivers: list[int] = field(default_factory=lambda: [100, 1000])
    #: wall sync in Chromium: tiles of one zone, seconds sampled while playing, after a
    #: seek and after resuming, and how long tiles may take to settle
    sync_tiles: list[int] = field(default_factory=lambda: [4, 9])
    sync_play_s: float = 30.0
    sync_after_s: float = 6.0
    sync_settle_timeout_s: float = 8.0
    #: PostgreSQL (bench/postgres.py): the interface on PostgreSQL beside SQLite, on the
    #: default server, at ``store_displays`` displays, operations ``store_ops``
    postgres: bool = True
    store_displays: int = 100
    store_ops: list[str] = field(
        default_factory=lambda: ["displays", "zones", "zone_switch", "display_tag"]
    )
    #: the takeover of a group of two hosts, with this many receivers, runs of each
    takeover_receivers: list[int] = field(default_factory=lambda: [100, 1000])
    takeover_runs: int = 3
    takeover_timeout_s: float = 60.0
    #: the same after a freeze (SIGSTOP) of the active host, with this many receivers
    freeze_receivers: list[int] = field(default_factory=lambda: [1000])
    #: a group of two under wrk at full rate on both hosts and this many churning
    #: receivers, for this long (bench/groupload.py; 0 receivers: not run)
    load_receivers: int = 1000
    load_s: int = 60
    quick: bool = False


FULL = Settings()
QUICK = Settings(
    runs=1,
    duration_s=2,
    warmup_s=1,
    startup_runs=1,
    durable_duration_s=2,
    fanout_switches=5,
    fanout_connect_timeout_s=60.0,
    sync_play_s=8.0,
    sync_after_s=3.0,
    takeover_runs=1,
    load_s=20,
    quick=True,
)
#: every benchmark once with tiny settings, to check that they all still run (the tests'
#: tests/system/test_bench_smoke.py); its figures mean nothing
SMOKE = Settings(
    topologies=[4],
    servers=["granian"],
    startup_servers=["uvicorn"],
    ops=["displays", "zone_switch"],  # the other GETs run the same Lua as displays
    prism_ops=["zone_switch"],
    runs=1,
    duration_s=1,
    warmup_s=0,
    connections=2,
    sources=2,
    startup_runs=1,
    durable_sources=[3],
    durable_connections=[2],
    durable_duration_s=1,
    durable_displays=4,
    fanout_one_zone=[3],
    fanout_walls=[3, 8],
    fanout_switches=2,
    fanout_connect_timeout_s=20,
    fanout_stable_s=0.3,
    memory_receivers=[8],
    sync_tiles=[1],  # none where Chromium is missing (settings_from)
    sync_play_s=1.0,
    sync_after_s=0.3,
    sync_settle_timeout_s=1.0,
    store_displays=4,
    store_ops=["zones", "display_tag"],
    takeover_receivers=[4],
    takeover_runs=1,
    takeover_timeout_s=30.0,
    freeze_receivers=[],  # the freeze waits for a whole lease: left out of the smoke
    load_receivers=0,  # as the group's load, whose figures need seconds of load
    quick=True,
)


def parse_args(
    argv: list[str] | None, description: str | None = None
) -> tuple[Settings, argparse.Namespace]:
    """The settings ``argv`` asks for; ``description`` heads ``--help``."""
    args = _parser(description).parse_args(argv)
    return settings_from(args), args


def _parser(description: str | None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="one run each, shorter loads")
    parser.add_argument(
        "--smoke", action="store_true", help="every benchmark once, tiny: do they still run?"
    )
    parser.add_argument("--runs", type=int, help="repetitions of each measurement")
    parser.add_argument("--duration", type=int, help="seconds of load per measurement")
    parser.add_argument("--connections", type=int, help="wrk connections")
    parser.add_argument("--topologies", help="display counts, comma separated (10,100,1000)")
    parser.add_argument("--servers", help="uvicorn,granian")
    parser.add_argument("--ops", help=",".join(OPS))
    parser.add_argument("--no-prism", action="store_true", help="skip the Prism comparison")
    parser.add_argument("--no-receivers", action="store_true", help="skip the receiver benchmarks")
    parser.add_argument(
        "--no-postgres",
        action="store_true",
        help="skip the PostgreSQL benchmarks (interface beside SQLite, takeover)",
    )
    parser.add_argument(
        "--takeover-receivers", help="receiver counts of the takeover, comma separated (100,1000)"
    )
    parser.add_argument(
        "--only-receivers",
        action="store_true",
        help="only the receiver benchmarks (the interface benchmarks with tiny settings)",
    )
    parser.add_argument("--out", type=Path, default=RESULTS, help="results directory")
    parser.add_argument("--label", help="results file name (default: the date)")
    parser.add_argument(
        "--no-benchmarks-md", action="store_true", help="leave BENCHMARKS.md as it is"
    )
    parser.add_argument("--command", default=None, help="command recorded in the results")
    parser.add_argument("--work", type=Path, help="where the run's data directories go")
    return parser


def settings_from(args: argparse.Namespace) -> Settings:
    """The run's settings: the full, quick or smoke ones, changed as ``args`` say."""
    settings = replace(SMOKE if args.smoke else QUICK if args.quick else FULL)
    if args.smoke and not chromium_available():
        settings.sync_tiles = []
    if args.runs:
        settings.runs = args.runs
        settings.startup_runs = args.runs
    if args.duration:
        settings.duration_s = args.duration
        settings.durable_duration_s = args.duration
    if args.connections:
        settings.connections = args.connections
    if args.topologies:
        settings.topologies = [int(x) for x in args.topologies.split(",")]
    if args.servers:
        settings.servers = args.servers.split(",")
    if args.ops:
        settings.ops = args.ops.split(",")
    if args.no_prism:
        settings.prism = False
    if args.no_receivers:
        settings.receivers = False
    if args.no_postgres:
        settings.postgres = False
    if args.takeover_receivers:
        settings.takeover_receivers = [int(x) for x in args.takeover_receivers.split(",")]
    if args.only_receivers:
        settings = replace(
            settings,
            topologies=[4],
            servers=[DEFAULT_SERVER],
            startup_servers=[DEFAULT_SERVER],
            ops=["zones"],
            runs=1,
            duration_s=1,
            warmup_s=0,
            startup_runs=1,
            durable_sources=[2],
            durable_connections=[1],
            durable_duration_s=1,
            ceiling=False,
            prism=False,
            store_displays=4,
            store_ops=["zones"],
        )
    return settings
