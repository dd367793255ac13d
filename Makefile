# Two commands for a fresh machine with Python 3.11:
#   make run   - create .venv, install with the window (".[gui]"), start Yardstick
#   make test  - create .venv with the test extra, run the whole suite headless
#   make lint  - ruff over core, gui, tests and benchmarks
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# the window: the core plus the gui extra (PySide6, pyqtgraph)
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e ".[gui]"
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e ".[test]"
	touch $@ $(VENV)/.installed

run: $(VENV)/.installed
	$(BIN)/yardstick

test: $(VENV)/.installed-test
	@# installs nothing system-wide: the tests that need pdflatex (texlive-latex-base,
	@# texlive-latex-recommended) or poppler-utils (pdftoppm, pdftotext, pdffonts) skip,
	@# saying so, where these are absent; .ci/run installs them first
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -n 2 -q -p no:cacheprovider -m "not serial"
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q -p no:cacheprovider -m serial

# ruff with the rule set in pyproject.toml; installed into the venv when missing
lint: | $(BIN)/python
	@test -x $(BIN)/ruff || $(BIN)/pip install -q ruff
	$(BIN)/ruff check core gui tests benchmarks

bench: $(VENV)/.installed-test
	$(BIN)/pip install -q -e ".[bench]"
	$(BIN)/python benchmarks/bench_eval.py
	$(BIN)/python benchmarks/bench_stability.py
	$(BIN)/python benchmarks/bench_pool.py

clean:
	rm -rf $(VENV) build *.egg-info
