"""The benchmarks (bench/, `make bench`) still run: every benchmark once, as a command
with tiny settings (a few WebSocket receivers, one Chromium tile for a second or two),
into a temporary directory. No figure is asserted; speed is measured by
`make bench`, never by tests."""

import json
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import CHROMIUM
from tests.support.pgserver import find_bin_dir

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_OK = CHROMIUM is not None and Path(CHROMIUM).exists()
POSTGRES_OK = find_bin_dir() is not None

pytestmark = pytest.mark.skipif(
    shutil.which("wrk") is None, reason="wrk is not installed (make test installs it)"
)


def bench(module: str, *args: str, timeout: float) -> None:
    """``python -m bench.MODULE ARGS`` from the top of the tree; it must succeed."""
    done = subprocess.run(
        [sys.executable, "-m", f"bench.{module}", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def results(path: Path) -> Any:
    return json.loads(path.read_text())


# wrk at full rate for minutes: beside pages being timed it made them miss their marks
@pytest.mark.apart
@pytest.mark.timeout(300)
def test_every_benchmark_runs_with_tiny_settings(tmp_path: Path) -> None:
    out, work = tmp_path / "results", tmp_path / "work"
    bench(
        "run",
        *("--smoke", "--label", "smoke", "--command", "pytest", "--no-benchmarks-md"),
        *("--out", str(out), "--work", str(work)),
        timeout=280,
    )
    stored = results(out / "smoke.json")
    assert stored["label"] == "smoke"
    settings = stored["settings"]
    ops = stored["interface"]["servers"]["granian"]["4"]["ops"]
    for name in settings["ops"]:
        assert ops[name]["runs"][0]["requests"] > 0, name
        assert ops[name]["failed"] == 0, (name, ops[name]["runs"][0]["errors"])
        assert ops[name]["vs_ceiling"]["n"] == 1
    assert ops["zone_switch"]["vs_prism"]["n"] == 1
    assert stored["interface"]["prism"]["zone_switch"]["failed"] == 0
    assert stored["interface"]["ceiling"]["granian"]["failed"] == 0
    startup = stored["startup"]["uvicorn"]["4"]
    assert startup["startup_s"]["median"] > 0 and startup["rss_idle_mb"]["median"] > 0
    durable = stored["durable_writes"]["by_sources"]["3"]["c2"]
    assert durable["runs"][0]["requests"] > 0 and durable["failed"] == 0
    receivers = stored["receivers"]
    fanout = receivers["switch_fanout"]
    assert fanout["status"] == "measured"
    for layout, n in (("one_zone", "3"), ("walls_of_four", "8")):
        entry = fanout["layouts"][layout][n]
        assert "error" not in entry, (layout, entry.get("error"))
        assert entry["switches"] == 2 and entry["last_ms"]["p50"] > 0, (layout, entry)
    assert stored["growth"]["fanout"]["walls_of_four"]["to"] == 8
    memory = receivers["memory_with_receivers"]
    assert memory["status"] == "measured", memory
    assert set(memory["rss_mb"]) == {"0", "8"} and memory["rss_mb"]["8"] > 0
    summary = (out / "smoke.md").read_text()
    assert "Interface throughput and latency" in summary and "not yet measured" not in summary
    assert "Switch fan-out" in summary and "Memory with receivers" in summary
    pg = stored["postgres"]
    if POSTGRES_OK:
        iface = pg["interface"]
        assert iface["status"] == "measured", iface
        for name in ("zones", "display_tag"):
            for store in ("sqlite", "postgres"):
                entry = iface["ops"][name][store]
                assert entry["runs"][0]["requests"] > 0 and entry["failed"] == 0, (name, store)
        takeover = pg["takeover"]["by_receivers"]["4"]
        assert "errors" not in takeover, takeover["errors"]
        run_ = takeover["runs"][0]
        assert run_["back"] == 4 and run_["refused"] == 0 and run_["new_active_role"] == "active"
        assert 0 < run_["first_write_s"] < 30 and run_["all_back_s"] >= run_["first_back_s"]
        assert "Interface on PostgreSQL beside SQLite" in summary
        assert "Takeover of a group of two hosts" in summary
    else:
        assert pg["takeover"]["status"] == "skipped" and "PostgreSQL" in pg["takeover"]["reason"]
    plots = ["latency", "throughput", "durable"]
    assert settings["sync_tiles"] == ([1] if CHROMIUM_OK else [])
    if CHROMIUM_OK:
        sync = receivers["wall_sync"]["by_tiles"]["1"]
        assert "error" not in sync, sync.get("error")
        assert sync["phases"]["play"]["rounds"] > 0
        assert "Wall sync in Chromium" in summary
        plots.append("sync")
    for plot in plots:
        assert (out / f"{plot}-smoke.png").stat().st_size > 0
    assert not list(work.iterdir()), "the work directory is left behind"


@pytest.mark.timeout(120)
@pytest.mark.skipif(not CHROMIUM_OK, reason="Chromium is not installed (make test installs it)")
def test_the_renderer_measurement_runs(tmp_path: Path) -> None:
    out = tmp_path / "renderer.json"
    bench(
        "renderer",
        *("--steps", "5", "--count", "1", "--phases", "1", "--phase-ms", "4"),
        *("--rates", "bias", "--out", str(out)),
        timeout=110,
    )
    result = results(out)
    _, nudged = result["nudges"]["5.0"]
    # the nudge was measured, clock and frames before and after it (its size is a figure
    # of `make bench`: on a loaded machine the page's clock moved -5.3 ms for 5)
    assert isinstance(nudged["clock_moved_ms"], float), nudged
    assert isinstance(nudged["frames_moved_ms"], float), nudged
    [start] = result["starts"]
    assert -5.0 < start["lateMs"] < 100.0  # the clock started when play() was called
    # the frames were measured against the page's own clock from the start: a few
    # refreshes at most (one, quiet; -21.5 ms once on a loaded machine), never seconds off
    assert -100.0 < start["framesMs"] < 100.0
    # under the receiver's rate bias the frames follow the clock through every 2 ms step;
    # under a cadence they would lose each step: a trend of -2 ms a step, 16 ms over the
    # run. A loaded machine adds a few ms to single steps either way, not a trend.
    biased = result["rates"]["bias"]
    errors = [e for e in biased["frames_vs_clock_ms"] if e is not None]
    assert len(errors) == 9, biased
    assert abs(statistics.linear_regression(range(9), errors).slope) < 1.0, biased


@pytest.mark.timeout(120)
@pytest.mark.skipif(not CHROMIUM_OK, reason="Chromium is not installed (make test installs it)")
def test_the_wall_starts_measurement_runs(tmp_path: Path) -> None:
    out = tmp_path / "wallstarts.json"
    bench("wallstarts", "--tiles", "2", "--rounds", "1", "--out", str(out), timeout=110)
    result = results(out)
    assert [s["kind"] for s in result["starts"]] == ["seek", "resume"]
    bins = len(result["starts"][0]["spreads_ms"])
    assert bins > 2
    for start in result["starts"]:
        assert len(start["spreads_ms"]) == bins
        # both tiles showed frames after it (a loaded machine may leave single bins empty)
        assert any(s is not None for s in start["spreads_ms"][2:]), start
        assert all(e is not None for e in start["error_ms"]), start  # and told their start
    summary = result["summary"]
    # a start whose first two bins both tiles drew in has a "first" figure: on a loaded
    # machine a tile may draw its first frame a bin later, and the start has none
    for kind in ("seek", "resume"):
        assert summary[kind]["first"]["n"] in (0, 1), summary
        assert summary[kind]["later"]["n"] >= 1, summary
