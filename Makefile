# Two commands do everything on a fresh machine: `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PIP := $(BIN)/pip install -c constraints.txt

.PHONY: install demo test lint bench clean

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(PIP) --upgrade pip
	$(PIP) -e '.[all]'
	touch $(STAMP)

install: $(STAMP)

demo: install
	$(BIN)/byokg stats --graph memory:demo
	$(BIN)/byokg demo

test: install
	$(BIN)/python -m pytest -q

lint: install
	$(BIN)/ruff check .

bench: install
	$(BIN)/python -m benchmarks.perf --scale 1500000 --json bench-out/perf.json

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
