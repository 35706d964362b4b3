# The two commands a newcomer runs: `make run` and `make test`.
# Each creates the virtual environment in .venv when it is missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench screenshots replay clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(PY) -m kiosk --simulator $(ARGS)

replay: $(STAMP)
	$(PY) -m engine.replay --pretty examples/sample-match.json

test: $(STAMP)
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) -m engine.bench
	$(PY) -m hardware.bench
	$(PY) -m kiosk.devtools.bench

screenshots: $(STAMP)
	$(PY) -m kiosk.devtools.screenshots --out screenshots

clean:
	rm -rf $(VENV) build *.egg-info
