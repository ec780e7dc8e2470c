# `make demo` and `make test` are the two entry points; both set up .venv first.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test setup lint browser java bench clean

$(STAMP): pyproject.toml setup.py
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The compiled kernels (mojifix._kernels and mojifix.detect._scoring, optional: without a C compiler the
# install goes on and the pure Python path runs). The editable install compiles them in place; this
# rebuilds them when the C changes.
KERNELS := $(VENV)/.kernels
$(KERNELS): $(STAMP) src/mojifix/_kernels.c src/mojifix/detect/_scoring.c src/mojifix/integrations/_jsonl.c
	rm -f src/mojifix/_kernels.*.so src/mojifix/detect/_scoring.*.so src/mojifix/integrations/_jsonl.*.so
	$(PY) -m pip install --quiet --no-deps -e .
	$(VENV)/bin/mojifix --version
	$(PY) tools/check_kernels.py
	touch $(KERNELS)

setup: $(KERNELS)

# Headless Chromium for the live browser comparison (Debian package; never `playwright install`).
browser:
	bash tools/ensure_chromium.sh

# Java 17+ for the Spark tests (Debian package; PySpark itself comes from the dev extra).
java:
	bash tools/ensure_java.sh

demo: $(KERNELS)
	$(PY) -m mojifix.demo

lint: $(STAMP)
	$(PY) -m ruff check src tests tools benchmarks
	$(PY) -m ruff format --check src tests tools benchmarks

# The suite runs twice: with the compiled kernels, then on the pure-Python reference (MOJIFIX_PURE_PYTHON=1).
test: $(KERNELS) browser java
	bash tools/ensure_fonts.sh
	$(PY) -m ruff check src tests tools benchmarks
	$(PY) -m ruff format --check src tests tools benchmarks
	$(PY) -m pytest
	MOJIFIX_PURE_PYTHON=1 $(PY) -m pytest

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache .ruff_cache src/mojifix/_kernels.*.so src/mojifix/detect/_scoring.*.so \
		src/mojifix/integrations/_jsonl.*.so
