# Two commands for a fresh machine with Python 3.11:
#   make run   - create .venv, install, start Yardstick on the bundled sample collection
#   make test  - create .venv with the test extra, run the whole suite headless
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e ".[test]"
	touch $@ $(VENV)/.installed

run: $(VENV)/.installed
	$(BIN)/yardstick

test: $(VENV)/.installed-test
	@# pdftoppm renders report PDFs in the tests (skipped when it cannot be installed)
	@command -v pdftoppm >/dev/null || (apt-get install -y -qq poppler-utils >/dev/null 2>&1 \
	  || (apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq poppler-utils >/dev/null 2>&1) || true)
	@# pdflatex + booktabs/longtable compile the LaTeX tables in the tests (skipped when they
	@# cannot be installed; about 40 s with apt-get update, ~150 MB on disk)
	@(command -v pdflatex >/dev/null && kpsewhich booktabs.sty >/dev/null) \
	  || (apt-get install -y -qq --no-install-recommends texlive-latex-base texlive-latex-recommended >/dev/null 2>&1 \
	  || (apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq --no-install-recommends \
	      texlive-latex-base texlive-latex-recommended >/dev/null 2>&1) || true)
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
