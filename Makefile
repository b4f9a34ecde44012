# The README's two commands are `make` (set up, then build everything) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: all setup system native build check export test lint bench serve clean lock

all: setup build

setup: system $(STAMP) native

# The simulator's hot modules compiled with mypyc (quick when the sources have not changed since the last build;
# without it, or when stale, the simulator runs its Python sources: see tools/blackpoker/native.py). Without a
# working C compiler it warns once and goes on; BLACKPOKER_NATIVE=require (CI) makes that an error.
native: $(STAMP)
	@$(BIN)/python scripts/build_native.py

system:
	@scripts/setup-system.sh

# Every package at the exact version (and hash) in requirements.lock, then the package itself, editable.
$(STAMP): pyproject.toml requirements.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	@touch $@

# Regenerate requirements.lock from pyproject.toml (runtime + test and cluster extras), keeping the pins it already has;
# `make lock UPGRADE=1` moves every package to the newest version the ranges allow.
LOCK_TOOLS := build/.lock-tools
lock:
	@test -x $(LOCK_TOOLS)/bin/pip-compile || { $(PYTHON) -m venv $(LOCK_TOOLS) && \
		$(LOCK_TOOLS)/bin/python -m pip install --quiet --disable-pip-version-check 'pip-tools>=7.4,<8'; }
	CUSTOM_COMPILE_COMMAND='make lock' $(LOCK_TOOLS)/bin/pip-compile --quiet --extra test --extra cluster --generate-hashes \
		--strip-extras --no-emit-index-url --no-emit-find-links $(if $(UPGRADE),--upgrade) \
		--output-file requirements.lock pyproject.toml

build: setup
	$(BIN)/blackpoker build

check: setup
	$(BIN)/blackpoker check

export: setup
	$(BIN)/blackpoker export -o build/blackpoker-rules.json

test: setup lint
	$(BIN)/python -m pytest

# The code's own checks, before the tests: style and errors (ruff), types (mypy --strict), layers (import-linter).
lint: setup
	$(BIN)/ruff check tools tests scripts source/conf.py
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

bench: setup
	$(BIN)/python scripts/bench.py

serve: setup
	$(BIN)/blackpoker serve

clean:
	rm -rf build dist .pytest_cache .hypothesis tools/blackpoker/native.json
	find tools -name '*.so' -delete
