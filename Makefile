# tilewall: `make run` serves the demo on port 9000, `make test` runs every test.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 9000
DATA_DIR ?= data

.PHONY: install run test lint system-deps clean bench bench-quick

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

system-deps:
	bash scripts/system-deps

run: install
	$(BIN)/tilewall serve --port $(PORT) --data-dir $(DATA_DIR) --demo

test: install system-deps
	$(BIN)/pytest -q

lint: install
	$(BIN)/ruff check src tests
	$(BIN)/ruff format --check src tests
	$(BIN)/mypy

clean:
	rm -rf $(VENV) $(DATA_DIR) .pytest_cache .mypy_cache .ruff_cache
