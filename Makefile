# `make demo` and `make test` are the two entry points; both set up .venv first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test setup lint browser java bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

# Headless Chromium for the live browser comparison (Debian package; never `playwright install`).
browser:
	bash tools/ensure_chromium.sh

# Java 17+ for the Spark tests (Debian package; PySpark itself comes from the dev extra).
java:
	bash tools/ensure_java.sh

demo: $(STAMP)
	$(PY) -m mojifix.demo

lint: $(STAMP)
	$(PY) -m ruff check src tests tools benchmarks
	$(PY) -m ruff format --check src tests tools benchmarks

test: $(STAMP) browser java
	bash tools/ensure_fonts.sh
	$(PY) -m ruff check src tests tools benchmarks
	$(PY) -m ruff format --check src tests tools benchmarks
	$(PY) -m pytest

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .ruff_cache
