# Planspiel: the two commands a fresh machine needs are `make play` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: play test soak lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

play: $(STAMP)  ## set up and start the game
	$(BIN)/planspiel

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy engine saves
	$(BIN)/lint-imports --no-logo

test: lint  ## set up, lint, type-check and run the tests (not the soak runs), on every core
	$(BIN)/python -m pytest -q -n auto

soak: $(STAMP)  ## the long random-playout runs
	$(BIN)/python -m pytest -q -n auto -m soak -p no:doctest

bench: $(STAMP)  ## speed figures for benchmarks/RESULTS.md
	$(BIN)/python -m pytest benchmarks -q --benchmark-enable --benchmark-columns=median,mean,min,rounds -o addopts=""

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache .benchmarks .import_linter_cache
