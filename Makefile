# Two commands do everything on a fresh machine: `make demo` and `make test`.
#   make demo  installs the core only (what `pip install byokg` pulls) and runs the offline demo;
#   make test  installs every extra (.[all]) and Chromium for the browser test, then the suite.
# Each install has its own stamp, so both work in one .venv in either order.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/pip install -c constraints.txt
CORE_STAMP := $(VENV)/.stamp-core
ALL_STAMP := $(VENV)/.stamp-all

.PHONY: install install-core demo test browser lint bench clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(CORE_STAMP): pyproject.toml constraints.txt | $(BIN)/python
	$(PIP) -e .
	touch $@

$(ALL_STAMP): pyproject.toml constraints.txt | $(BIN)/python
	$(PIP) -e '.[all]'
	touch $@ $(CORE_STAMP)

install-core: $(CORE_STAMP)

install: $(ALL_STAMP)

demo: install-core
	$(BIN)/byokg stats --graph memory:demo
	$(BIN)/byokg demo

# The evidence-picture test opens pages in a real headless Chromium (Debian package). Installed
# when missing and we are root (CI); otherwise a note, and that one test skips.
browser:
	@if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then \
	  :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y \
	    --no-install-recommends chromium fonts-dejavu-core) \
	  || echo "note: apt-get could not install chromium; the browser test will skip"; \
	else \
	  echo "note: chromium is not installed and this is not root; the browser test will skip" \
	       "(apt-get install chromium)"; \
	fi

test: install browser
	$(BIN)/python -m pytest -q

lint: install
	$(BIN)/ruff check .

bench: install
	$(BIN)/python -m benchmarks.perf --scale 1500000 --json bench-out/perf.json

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
