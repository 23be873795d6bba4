"""The benchmark report writes a run's figures into BENCHMARKS.md's marked block and
nothing else of the page (which is written by hand); run as a person runs it, on copies."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
START = "<!-- latest run: written by bench/report.py; the rest of the page is not -->"
END = "<!-- end latest run -->"


def report(results: Path, page: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "bench" / "report.py"), str(results), "--page", str(page)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def latest_label() -> str:
    """The run BENCHMARKS.md shows."""
    page = (ROOT / "BENCHMARKS.md").read_text()
    return page.split("## Latest run: ", 1)[1].split("\n", 1)[0].strip()


def a_run(tmp_path: Path) -> Path:
    """A copy of the latest results file the page shows, in a folder of its own."""
    label = latest_label()
    results = tmp_path / "results" / f"{label}.json"
    results.parent.mkdir()
    shutil.copy(ROOT / "bench" / "results" / f"{label}.json", results)
    return results


def test_the_report_replaces_the_latest_run_block_and_nothing_else(tmp_path: Path) -> None:
    results = a_run(tmp_path)
    page = tmp_path / "BENCHMARKS.md"
    before = "# A hand-written title\n\nKept *as it is*, byte for byte.  \n\n"
    after = "\n\n## Hand-written after\n\nAlso kept. Trailing spaces too.   \n"
    page.write_text(f"{before}{START}\nan old run\n{END}{after}")

    done = report(results, page)

    assert done.returncode == 0, done.stderr
    text = page.read_text()
    assert text.startswith(before + START + "\n")
    assert text.endswith(END + after)
    block = text[len(before) + len(START) : -len(END + after)]
    assert "an old run" not in block
    label = json.loads(results.read_text())["label"]
    assert f"## Latest run: {label}" in block
    assert "| figure | goal | latest | beside it | met |" in block
    assert f"[results/{label}.md](results/{label}.md)" in block  # links from the page
    assert (results.parent / f"{label}.md").exists()
    for image in (line for line in block.splitlines() if line.startswith("![")):
        assert (tmp_path / image.split("](", 1)[1].rstrip(")")).exists(), image


def test_a_page_without_the_markers_is_refused_and_left_alone(tmp_path: Path) -> None:
    results = a_run(tmp_path)
    page = tmp_path / "BENCHMARKS.md"
    page.write_text("# Benchmarks\n\nNo block here.\n")

    done = report(results, page)

    assert done.returncode != 0
    assert "latest run" in done.stderr and "Traceback" not in done.stderr
    assert page.read_text() == "# Benchmarks\n\nNo block here.\n"


def test_the_page_in_the_tree_has_its_block_once() -> None:
    page = (ROOT / "BENCHMARKS.md").read_text()
    assert page.count(START) == 1 and page.count(END) == 1
    assert page.index(START) < page.index(END)
    assert len(page.splitlines()) < 250
