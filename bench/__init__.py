"""tilewall benchmarks: see BENCHMARKS.md and bench/run.py."""
