# The README's two commands are `make run` and `make test`; the rest is an operator's day.
SHELL := /bin/bash
.DEFAULT_GOAL := help

# Python 3.12: from PATH (pyenv's shims read .python-version), else pyenv's own install.
PYTHON ?= $(shell command -v python3.12 || ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/3.12*/bin/python3.12 2>/dev/null | sort -V | tail -n 1 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml constraints.txt | sha1sum | cut -c1-12)
HOST ?= 127.0.0.1
PORT ?= 8000
# Some machines set PYTHONDONTWRITEBYTECODE=1: then every process of a test run (pytest, the
# workers and servers it starts, each check in its own interpreter) compiles the project again,
# ~8 s of CPU each. The clone's __pycache__ folders are ignored by git.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: help install messages node-packages run test lint check pytest pytest-sqlite pytest-postgres worker bot-worker beat bench lock demo clean

help:  ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else "error: Python 3.12 or newer is needed (pyenv reads .python-version)")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c constraints.txt -e '.[dev]'
	rm -f $(VENV)/.installed-* && touch $@

install: $(STAMP)  ## Create .venv and install the site with its dev tools

# Compiled catalogues are never committed (.gitignore has *.mo): each is rebuilt from its
# committed .po only when the .po is newer, so the step costs nothing once done.
PO_FILES := $(wildcard locale/*/LC_MESSAGES/*.po)
MO_FILES := $(PO_FILES:.po=.mo)

messages: $(MO_FILES)  ## Compile the translations (locale/*/LC_MESSAGES/*.mo) from the .po files

locale/%.mo: locale/%.po | $(STAMP)
	scripts/system-deps.sh msgfmt
	$(PY) manage.py compilemessages --ignore=.venv --ignore=var -v0
	touch $@

# The browser tests' npm packages (package.json: axe-core, issue 34), at the versions and
# hashes package-lock.json pins; `npm ci` writes node_modules/.package-lock.json, so the step
# costs nothing once done. Node.js and npm come from Debian's packages when missing.
node-packages: node_modules/.package-lock.json  ## Install the browser tests' npm packages (axe-core) into node_modules/

node_modules/.package-lock.json: package.json package-lock.json
	scripts/system-deps.sh npm
	npm ci --ignore-scripts --no-audit --no-fund
	touch $@

run: install messages  ## Set up the embedded mode (SQLite, eager tasks, mail to var/mail) and serve the ASGI app (uvicorn) on :8000 (PORT=…)
	$(PY) manage.py migrate --no-input -v0
	SITE_URL=http://$(HOST):$(PORT) $(PY) manage.py seed_demo
	@# beat's sweeps (deadlines, reminders, batched emails, digests) run beside the server, and
	@# play the bots every second: never in a player's request (README, embedded mode)
	export SITE_URL=http://$(HOST):$(PORT); $(PY) manage.py run_sweeps & sweeps=$$!; \
	trap 'kill $$sweeps 2>/dev/null' EXIT INT TERM; \
	$(VENV)/bin/uvicorn tigris_site.asgi:application --host $(HOST) --port $(PORT) --timeout-graceful-shutdown 2

demo: install messages  ## Create the demo accounts and game without serving
	$(PY) manage.py migrate --no-input -v0
	$(PY) manage.py seed_demo

lint: install  ## ruff (lint and format), mypy, import contracts and the migrations check
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports
	$(PY) manage.py makemigrations --check --dry-run

# Each test runs once, in one of two suites side by side, so both end near the same time;
# only the tests of what SQLite changes run in both. PostgreSQL is production: it runs the
# site's tests (tests/games, tests/site: the translations among them) and the whole game on
# the real services. SQLite is the embedded default (`make run`): it runs the engine, the
# browser tests (each page a newcomer meets, on the database `make run` uses), the leak scans
# (what a page shows: no database feature of their own), and again the site's transactions,
# locks, sweeps, outbox and mail (tests/site, tests/games/play, outbox, mail), where the two
# databases behave differently — but the whole games through the views, played on
# PostgreSQL (SQLite plays whole games in the browser tests and the leak scans).
# A new test directory runs on PostgreSQL; a new browser test on SQLite. The site's tests
# that never read the suite's database run once, on SQLite: the configuration's (each in a
# `manage.py` or Python process of its own, our variables cleared), the import contracts'
# (lint-imports on a copy of the tree), the worker's ping over Redis, the source scan for
# notation taken apart, the deployment checks (settings only).
SITE_IN_BOTH := tests/site tests/games/play tests/games/outbox tests/games/mail
SITE_WITHOUT_DATABASE := $(addprefix tests/site/,test_configuration.py test_import_contracts.py \
	test_celery_worker.py test_no_notation_parsing.py test_deploy_checks.py)
SITE_IN_SQLITE := tests/games/web/test_leaks.py
WHOLE_GAMES_IN_POSTGRES := tests/games/play/test_full_games.py
REAL_SERVICES_GAME := tests/e2e/test_whole_games.py::test_whole_game_on_real_services
EMBEDDED_GAME := tests/e2e/test_whole_games.py::test_whole_game_embedded

pytest-sqlite: install messages node-packages  ## The engine, the browser tests, the leak scans and the site's transactions, sweeps and mail, on SQLite
	scripts/system-deps.sh redis-server chromium emoji-font cjk-font
	$(VENV)/bin/pytest -q --durations=30 tests/engine tests/e2e $(SITE_IN_BOTH) $(SITE_IN_SQLITE) --ignore=$(WHOLE_GAMES_IN_POSTGRES) --deselect $(REAL_SERVICES_GAME)

pytest-postgres: install messages node-packages  ## The site's tests and the whole game on the real services, on a throw-away PostgreSQL cluster
	scripts/system-deps.sh redis-server chromium emoji-font cjk-font
	scripts/with-postgres.sh $(VENV)/bin/pytest -q --durations=30 tests/games tests/site $(addprefix --ignore=,$(SITE_IN_SQLITE) $(SITE_WITHOUT_DATABASE)) tests/e2e/test_whole_games.py --deselect $(EMBEDDED_GAME)

# The two suites run side by side (one core each on a 2-core machine), the lint beside them
# (its half-minute of mypy would otherwise come first): each one's output is printed whole
# when it ends, and the command fails if any does.
test: install  ## Every check: lint, pytest on SQLite and pytest on PostgreSQL, side by side
	scripts/system-deps.sh redis-server chromium npm emoji-font cjk-font
	$(MAKE) --no-print-directory -j3 --output-sync=target lint pytest-sqlite pytest-postgres

worker: install  ## A Celery worker for emails and the default queue (needs CELERY_BROKER_URL)
	$(VENV)/bin/celery -A tigris_site worker -l info -Q celery

bot-worker: install  ## A Celery worker for the bots' queue only (needs CELERY_BROKER_URL)
	$(VENV)/bin/celery -A tigris_site worker -l info -Q bots -n bots@%h

beat: install  ## Celery beat: the deadline and outbox sweeps (needs CELERY_BROKER_URL)
	$(VENV)/bin/celery -A tigris_site beat -l info --schedule var/celerybeat-schedule

bench: install  ## Benchmarks (printed figures, run by hand)
	$(PY) bench/engine_bench.py
	$(PY) bench/page_cost.py
	$(PY) bench/web_load.py

lock: install  ## Regenerate constraints.txt from what is installed
	{ echo "# Exact versions CI and every machine install (pip install -c constraints.txt -e '.[dev]')."; \
	  echo "# Regenerate with: make lock"; $(PY) -m pip freeze --exclude-editable; } > constraints.txt

clean:  ## Remove the virtualenv and runtime files
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
