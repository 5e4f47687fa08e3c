# Every target creates (once) and reuses a local virtual environment in .venv.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: play serve test lint typecheck tests-compiled unit bench clean

# The last step writes the sources' bytecode: an editable install writes none, and where
# PYTHONDONTWRITEBYTECODE is set Python never does, so every start of a program (the Austerity
# hub, say) would compile its modules again.
$(STAMP): pyproject.toml setup.py examples/plugins/kuhn_poker/pyproject.toml \
          $(wildcard src/cardtable/games/*/_core.c) \
          $(wildcard src/cardtable/games/*/_*.h) \
          src/cardtable/engine/xoshiro.h
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,web,tournament,dist,rl]'
	$(BIN)/python -m pip install --quiet -e examples/plugins/kuhn_poker
	$(BIN)/python -m compileall -q src
	touch $(STAMP)

# The training libraries docs/rl.md shows, whose snippets the tests run
# (tests/envs/test_training_docs.py); cardtable itself does not need them. PyTorch is pinned to
# the release whose CPU build the project's machines hold.
TRAINING := $(VENV)/.training
$(TRAINING): $(STAMP)
	$(BIN)/python -m pip install --quiet 'torch==2.13.0' 'sb3-contrib>=2.3,<3' 'ray[rllib]>=2.9,<3'
	touch $(TRAINING)

play: $(STAMP)
	$(BIN)/caravan $(ARGS)

# Starts the web server (lobby at http://127.0.0.1:8000/); ARGS='--port 9000 --db URL'.
serve: $(STAMP)
	$(BIN)/cardtable serve $(ARGS)

# The checks first, side by side (the type checker takes one core), then the tests.
test:
	$(MAKE) --no-print-directory -j3 lint typecheck tests-compiled
	$(MAKE) --no-print-directory unit

lint: $(STAMP)
	$(BIN)/ruff check src tests examples/plugins

typecheck: $(STAMP) $(TRAINING)
	$(BIN)/mypy --strict src/cardtable
	$(BIN)/mypy --strict examples/plugins/kuhn_poker/src

# pytest rewrites the assertions of each test module as it imports it, and keeps the result as
# bytecode unless bytecode is not to be written (PYTHONDONTWRITEBYTECODE, set on some machines):
# then each worker would rewrite every module again, about 10 s of CPU apiece. Collecting the
# tests once with bytecode written lets them read it. (A collection error is left to `unit`
# to report.)
tests-compiled: $(STAMP) $(TRAINING)
	-env -u PYTHONDONTWRITEBYTECODE $(BIN)/pytest --collect-only -q -p no:cacheprovider >/dev/null 2>&1

# The tests run on WORKERS processes (pytest-xdist): four on the two cores the suite is kept
# fast on, since many tests spend their time waiting (for a browser, a server, a database, a
# terminal) rather than computing; an idle worker takes tests queued for a busy one
# (worksteal), so that a few long tests at the end do not leave the others waiting.
# WORKERS=0 runs them in this process. The 25 slowest are listed at the end.
WORKERS ?= 4

unit: $(STAMP) $(TRAINING)
	$(BIN)/pytest -n $(WORKERS) $(if $(filter 0,$(WORKERS)),,--dist worksteal) --durations=25 $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/cardtable bench caravan

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
