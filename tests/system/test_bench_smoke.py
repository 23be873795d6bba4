"""The benchmarks (bench/, `make bench`) still run: every benchmark once, with tiny
settings (a few WebSocket receivers, one Chromium tile for a second or two), into a
temporary directory. No figure is asserted; speed is measured by
`make bench`, never by tests."""

import json
import shutil
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.postgres import missing as postgres_missing  # noqa: E402
from bench.wallsync import chromium_available  # noqa: E402

CHROMIUM_OK = chromium_available()
POSTGRES_OK = postgres_missing() is None

pytestmark = pytest.mark.skipif(
    shutil.which("wrk") is None, reason="wrk is not installed (make test installs it)"
)


@pytest.mark.timeout(300)
def test_every_benchmark_runs_with_tiny_settings(tmp_path: Path) -> None:
    from bench import run

    t0 = time.monotonic()

    settings = run.Settings(
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
        sync_tiles=[1] if CHROMIUM_OK else [],
        sync_play_s=1.0,
        sync_after_s=0.3,
        sync_settle_timeout_s=1.0,
        store_displays=4,
        store_ops=["zones", "display_tag"],
        takeover_receivers=[4],
        takeover_runs=1,
        takeover_timeout_s=30.0,
    )
    run.run(
        settings,
        out_dir=tmp_path / "results",
        label="smoke",
        command="pytest",
        update_benchmarks_md=False,
        work_parent=tmp_path / "work",
        progress=lambda message: print(f"{time.monotonic() - t0:6.1f} {message}"),
    )

    stored = json.loads((tmp_path / "results" / "smoke.json").read_text())
    assert stored["label"] == "smoke"
    ops = stored["interface"]["servers"]["granian"]["4"]["ops"]
    for name in settings.ops:
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
    summary = (tmp_path / "results" / "smoke.md").read_text()
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
    if CHROMIUM_OK:
        sync = receivers["wall_sync"]["by_tiles"]["1"]
        assert "error" not in sync, sync.get("error")
        assert sync["phases"]["play"]["rounds"] > 0
        assert "Wall sync in Chromium" in summary
        plots.append("sync")
    for plot in plots:
        assert (tmp_path / "results" / f"{plot}-smoke.png").stat().st_size > 0
    assert not list((tmp_path / "work").iterdir()), "the work directory is left behind"


@pytest.mark.timeout(120)
@pytest.mark.skipif(not CHROMIUM_OK, reason="Chromium is not installed (make test installs it)")
def test_the_renderer_measurement_runs() -> None:
    from bench import renderer

    result = renderer.measure([5.0], 1, [4], ["bias"])
    _, nudged = result["nudges"]["5.0"]
    assert abs(nudged["clock_moved_ms"] - 5.0) < 2.0  # 200 ms played at rate 1.025
    assert abs(nudged["frames_moved_ms"]) < 30.0  # frames were seen before and after
    [start] = result["starts"]
    assert -5.0 < start["lateMs"] < 100.0  # the clock started when play() was called
    assert -20.0 < start["framesMs"] < 20.0  # within about a refresh of its own clock
    # under the receiver's rate bias the frames follow the clock through every 2 ms step
    # (under a cadence they would lose each step, 16 ms over the run)
    biased = result["rates"]["bias"]
    assert len([e for e in biased["frames_vs_clock_ms"] if e is not None]) == 9, biased
    assert biased["range_ms"] < 8.0, biased


@pytest.mark.timeout(120)
@pytest.mark.skipif(not CHROMIUM_OK, reason="Chromium is not installed (make test installs it)")
def test_the_wall_starts_measurement_runs() -> None:
    from bench import wallstarts

    result = wallstarts.run(2, 1)
    assert [s["kind"] for s in result["starts"]] == ["seek", "resume"]
    for start in result["starts"]:
        assert len(start["spreads_ms"]) == wallstarts.BINS
        assert start["spreads_ms"][2] is not None, start  # both tiles showed frames
        assert all(e is not None for e in start["error_ms"]), start  # and told their start
    summary = wallstarts.summary(result["starts"])
    assert summary["seek"]["first"]["n"] == summary["resume"]["first"]["n"] == 1, summary
