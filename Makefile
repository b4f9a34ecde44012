# The README's two commands are `make` (set up, then build everything) and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: all setup system native pyodide build check export test test-fast lint bench serve clean lock

all: setup build

setup: system $(STAMP) native pyodide

# The play page's Pyodide runtime: the npm package at the version and integrity hash of
# templates/play/pyodide.lock.json, into ~/.cache/blackpoker/pyodide/VERSION/ (quick when it is there already).
pyodide: $(STAMP)
	@$(BIN)/blackpoker fetch-pyodide

# The simulator's hot modules compiled with mypyc (quick when the sources have not changed since the last build;
# without it, or when stale, the simulator runs its Python sources: see tools/blackpoker/native.py). Without a
# working C compiler it warns once and goes on; BLACKPOKER_NATIVE=require (CI) makes that an error.
native: $(STAMP)
	@$(BIN)/python scripts/build_native.py

system:
	@scripts/setup-system.sh

# pip itself first, at the version (and hash) of requirements-pip.lock: the pip that comes with Python 3.11 (23.2)
# refuses a hashed lock as soon as a package asks for another's extra (weasyprint: fonttools[woff]) and PyPI has a
# newer release of that package than the lock's. Then every package at the exact version (and hash) in
# requirements.lock, then the package itself, editable.
$(STAMP): pyproject.toml requirements.lock requirements-pip.lock
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements-pip.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	@touch $@

# Regenerate the locks from pyproject.toml, keeping the pins they already have (`make lock UPGRADE=1` moves every
# package to the newest version the ranges allow): requirements.lock for development (base, site, test and
# cluster extras: what `make` installs) and requirements-runtime.lock for using the toolkit (base and site only),
# resolved within the development lock so that both pin the same versions; requirements-pip.lock pins the pip that
# installs them.
LOCK_TOOLS := build/.lock-tools
PIP_COMPILE = CUSTOM_COMPILE_COMMAND='make lock' $(LOCK_TOOLS)/bin/pip-compile --quiet --generate-hashes \
	--strip-extras --no-emit-index-url --no-emit-find-links
lock:
	@test -x $(LOCK_TOOLS)/bin/pip-compile || { $(PYTHON) -m venv $(LOCK_TOOLS) && \
		$(LOCK_TOOLS)/bin/python -m pip install --quiet --disable-pip-version-check 'pip-tools>=7.4,<8'; }
	$(PIP_COMPILE) --extra site --extra test --extra cluster $(if $(UPGRADE),--upgrade) \
		--output-file requirements.lock pyproject.toml
	$(PIP_COMPILE) --extra site --constraint requirements.lock --output-file requirements-runtime.lock pyproject.toml
	echo 'pip>=25.3' | $(PIP_COMPILE) --allow-unsafe $(if $(UPGRADE),--upgrade) --output-file requirements-pip.lock -

build: setup
	$(BIN)/blackpoker build

check: setup
	$(BIN)/blackpoker check

export: setup
	$(BIN)/blackpoker export -o build/blackpoker-rules.json

# The whole suite, on every core (pytest-xdist; tests/conftest.py groups the tests that share a build on one worker),
# the slowest tests listed at the end.
# PYTHONDONTWRITEBYTECODE is emptied for the tests: pytest keeps each test module with its assertions rewritten in
# __pycache__ only when Python may write bytecode; without it every worker rewrites all 90 modules (3 s each run).
# scripts/timed.py prints the run's wall and CPU time (pytest and its workers) and the load average under the summary.
TEST_FLAGS := -n auto --dist loadgroup --no-loadscope-reorder --durations=25
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/python scripts/timed.py $(BIN)/python -m pytest
test: setup lint
	$(PYTEST) $(TEST_FLAGS)

# The fast loop while working: no full build, no browser, no long run (the marks in pyproject.toml), its 25 slowest
# tests listed. It needs only the installed venv: a stale compiled simulator is not rebuilt first (its Python sources
# run instead).
test-fast: $(STAMP)
	$(PYTEST) -n auto -m "not build and not browser and not slow" --durations=25

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
