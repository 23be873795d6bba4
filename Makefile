# tilewall: `make run` serves the demo on port 9000, `make test` runs every test.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The versions the tests pass with (Python 3.11 on Linux), with their hashes: `make lock`
# refreshes it after a change to pyproject.toml's dependencies (see the README).
LOCK := requirements/dev.lock
UV_VERSION := 0.13.9
PORT ?= 9000
DATA_DIR ?= data

.PHONY: install lock run test lint system-deps clean bench bench-quick bench-deps bench-soak

$(STAMP): pyproject.toml $(LOCK)
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q --require-hashes -r $(LOCK)
	$(BIN)/python scripts/check-lock pyproject.toml $(LOCK)
	$(BIN)/pip install -q --no-deps --no-build-isolation -e .
	touch $(STAMP)

install: $(STAMP)

# Resolves tilewall[dev] again from PyPI, keeping the versions the lock has where they
# still fit; LOCK_ARGS="--upgrade-package litestar" (or --upgrade) moves them on.
LOCK_ARGS ?=
lock:
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q uv==$(UV_VERSION)
	$(BIN)/uv pip compile pyproject.toml --extra dev --generate-hashes --python-version 3.11 \
		--custom-compile-command "make lock" --quiet $(LOCK_ARGS) -o $(LOCK)

system-deps:
	bash scripts/system-deps

run: install
	$(BIN)/tilewall serve --port $(PORT) --data-dir $(DATA_DIR) --demo

# The interface suite (tests/api, in-process apps, twice: SQLite and PostgreSQL) runs on
# several workers, each with a PostgreSQL of its own; the rest (real processes, Chromium,
# timings: mostly waiting) on 4 workers, a module's tests on one worker, the modules that
# must not run beside one another taking turns and the longest handed out first
# (tests/support/groups.py); the tests marked ``apart`` in a pytest of their own beside the
# interface suite (their output after that suite's): the schema-driven run, as
# pytest-xdist gives all its cases one node id, and the benchmarks' smoke, whose minutes
# at full rate made the pages timed beside it miss their marks. A test of that second run
# that fails is run once more (pytest-rerunfailures; shown as R and listed in the summary):
# its pages, processes and clocks on two loaded cores miss a mark now and then, and each
# such miss is fixed by its cause when seen (the summary gives each rerun's first error,
# tests/conftest.py); one that fails twice fails the run. The checks come first: a tree
# that fails them is not tested.
test: lint system-deps bench-deps
	@apart=$$(mktemp); \
	$(BIN)/pytest -q -n 0 -m apart tests/system > $$apart 2>&1 & pid=$$!; \
	$(BIN)/pytest -q -n auto --maxprocesses 4 tests/api; api=$$?; \
	wait $$pid; run=$$?; echo "--- the tests marked apart"; cat $$apart; \
	rm -f $$apart; test $$api -eq 0 && test $$run -eq 0
	$(BIN)/pytest -q -n 4 --dist loadscope --no-loadscope-reorder --durations=25 \
		--ignore=tests/api -m "not apart" --reruns 1 --reruns-delay 2 -rfER
	$(MAKE) test-js

# ruff over the Python; mypy strict over src/ and bench/ and, with the settings of
# pyproject.toml's tests.* override, over tests/
lint: install
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy
	$(MAKE) lint-js

# The pages' JavaScript (src/tilewall/web): TypeScript's checker over its JSDoc types and
# ESLint, with the versions package-lock.json pins; unit tests with Node's test runner.
JS_STAMP := node_modules/.installed
.PHONY: lint-js test-js

$(JS_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(JS_STAMP)

lint-js: system-deps $(JS_STAMP)
	node_modules/.bin/tsc -p tsconfig.json
	node_modules/.bin/tsc -p tsconfig.sw.json
	node_modules/.bin/eslint

test-js: system-deps
	node --test tests/web/

clean:
	rm -rf $(VENV) node_modules $(DATA_DIR) .pytest_cache .mypy_cache .ruff_cache bench/node_modules bench/.work

# Benchmarks (BENCHMARKS.md): wrk and Prism are installed by scripts/bench-deps.
bench-deps:
	bash scripts/bench-deps

bench: install bench-deps
	BENCH_COMMAND="make bench" $(BIN)/python bench/run.py
	$(BIN)/python bench/audit.py --together
	$(BIN)/python -m bench.follow

bench-quick: install bench-deps
	BENCH_COMMAND="make bench-quick" $(BIN)/python bench/run.py --quick
	$(BIN)/python bench/audit.py --quick --together
	$(BIN)/python -m bench.follow --writes 10 --label quick

# Soak (bench/soak.py): 1,000 churning receivers for 30 minutes; SOAK_ARGS to change that,
# e.g. make bench-soak SOAK_ARGS="--receivers 200 --seconds 600"
SOAK_ARGS ?=
bench-soak: install
	$(BIN)/python bench/soak.py $(SOAK_ARGS)
