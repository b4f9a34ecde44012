# The README's two commands are `make` (set up, then build everything) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: all setup system build check export test bench serve clean

all: setup build

setup: system $(STAMP)

system:
	@scripts/setup-system.sh

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	@touch $@

build: setup
	$(BIN)/blackpoker build

check: setup
	$(BIN)/blackpoker check

export: setup
	$(BIN)/blackpoker export -o build/blackpoker-rules.json

test: setup
	$(BIN)/python -m pytest

bench: setup
	$(BIN)/python scripts/bench.py

serve: setup
	$(BIN)/blackpoker serve

clean:
	rm -rf build .pytest_cache .hypothesis
