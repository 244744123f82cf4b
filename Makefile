# Two commands for a fresh machine: `make run` (the site on SQLite) and `make test` (the whole suite).
VENV := .venv
BIN := $(VENV)/bin
PYTHON := $(BIN)/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test test-fast check install migrate check-format bench messages sandbox

$(PYTHON):
	@if command -v uv >/dev/null 2>&1; then uv venv --quiet $(VENV); else python3 -m venv $(VENV); fi

# The site with its dev tools, and the command-line client (its own distribution, cli/) beside it.
$(VENV)/.installed: pyproject.toml cli/pyproject.toml | $(PYTHON)
	@if command -v uv >/dev/null 2>&1; then \
		uv pip install --quiet --python $(PYTHON) '.[dev]' ./cli; \
	else \
		$(PYTHON) -m pip install --quiet --upgrade pip && $(PYTHON) -m pip install --quiet '.[dev]' ./cli; \
	fi
	@touch $@

install: $(VENV)/.installed

# The server checks submitted kernels inside Debian's bubblewrap (practice/sandbox.py). Installed
# here when missing and apt-get may run; elsewhere it says how, and checks are refused saying why.
sandbox:
	@command -v bwrap >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			apt-get install -y -qq bubblewrap >/dev/null; \
		else \
			echo "bubblewrap is missing: the server will refuse kernel checks (Debian: sudo apt-get install bubblewrap)"; \
		fi; }

migrate: install
	DEBUG=1 $(PYTHON) manage.py migrate --no-input

# The task worker (digest e-mails) runs in the background beside the server and stops with it.
# Links in mails start with SITE_URL: by default the address the server listens on.
run: migrate sandbox
	DEBUG=1 $(PYTHON) manage.py load_curriculum
	DEBUG=1 $(PYTHON) manage.py load_exercises
	@export SITE_URL="$${SITE_URL:-http://$(HOST):$(PORT)}"; \
	DEBUG=1 $(PYTHON) manage.py db_worker --no-reload --no-startup-delay & worker=$$!; \
	trap 'kill $$worker 2>/dev/null' EXIT INT TERM; \
	DEBUG=1 $(PYTHON) manage.py runserver $(HOST):$(PORT)

# SECRET_KEY is only a placeholder for the test run; the suite runs with DEBUG off, as production does.
# The suite runs in TEST_WORKERS processes (pytest-xdist; each has its own test database, and
# coverage follows them as subprocesses); the tests that share the Redis server run in one of them.
# TEST_TIMELINE=/tmp/timeline writes each worker's tests with their start and end (tests/conftest.py):
# `tail -n1 /tmp/timeline.gw*` shows whether one worker idled at the end.
TEST_WORKERS ?= 2
test: install sandbox
	@rm -f .coverage .coverage.*
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	SECRET_KEY=$${SECRET_KEY:-insecure-key-for-the-test-suite-only} $(BIN)/coverage run -m pytest \
		--numprocesses $(TEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)
	@$(BIN)/coverage combine --quiet
	$(BIN)/coverage report

# Seconds, no database: lint, format, types (mypy with django-stubs; settings in pyproject.toml) and
# migrations that the models need but nobody made. CI runs it before the suite.
CHECK_ENV := SECRET_KEY=$${SECRET_KEY:-insecure-key-for-checks-only} DATABASE_URL=
check: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(CHECK_ENV) $(BIN)/mypy .
	$(CHECK_ENV) $(PYTHON) manage.py makemigrations --check --dry-run

# The suite without the browser journeys, on SQLite (the PostgreSQL-only tests skip themselves):
# what to run while working; `make test` before landing.
test-fast: install
	SECRET_KEY=$${SECRET_KEY:-insecure-key-for-the-test-suite-only} DATABASE_URL= $(BIN)/pytest \
		--numprocesses $(TEST_WORKERS) --dist loadgroup -m "not browser" $(PYTEST_ARGS)

# The benchmark (PostgreSQL, gunicorn, wrk): see bench/run.py. BENCH_ARGS="--learners 500" for a quick run.
bench: install
	@command -v wrk >/dev/null 2>&1 || (apt-get update -qq && apt-get install -y -qq wrk)
	$(PYTHON) bench/run.py $(BENCH_ARGS)

# The catalogues without source locations or wrapping, so that two branches adding strings merge cleanly.
messages: install
	DEBUG=1 $(PYTHON) manage.py makemessages -l fr -l en --ignore=.venv --ignore=build --no-location --no-wrap
	DEBUG=1 $(PYTHON) manage.py compilemessages --ignore=.venv
