# The two commands: `make run` and `make test`. Both set up everything they need on a fresh machine.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
FLASK := $(VENV)/bin/flask --app app.py
HOST ?= 127.0.0.1
PORT ?= 5000

# The suite runs on every core (pytest-xdist); `make test PYTEST_WORKERS=0` runs it in one process.
PYTEST_WORKERS ?= auto
XDIST := $(if $(filter 0,$(PYTEST_WORKERS)),,-n $(PYTEST_WORKERS) --dist loadgroup)

.PHONY: run install test test-fast test-sqlite test-postgres lint lock wheel bench demo browser-deps clean help \
	translations translations-extract translations-update

# The interface's languages (tournament/i18n): the gettext catalogues, edited by hand (README "Languages").
TRANSLATIONS := tournament/translations
PYBABEL := $(VENV)/bin/pybabel
CATALOGUES := $(wildcard $(TRANSLATIONS)/*/LC_MESSAGES/messages.po)

help:
	@echo "make run    set up and serve on http://$(HOST):$(PORT) (SQLite in instance/)"
	@echo "make test   set up, ruff, the whole suite on SQLite, the tests marked postgres on TEST_DATABASE_URL if set"
	@echo "make install  the app alone in .venv (no dev tools) and the database migrated (DATABASE_URL)"
	@echo "make test-fast  the suite without the tests marked slow (browser, deploy, long runs), SQLite only"
	@echo "make test-sqlite | test-postgres  the whole suite on SQLite | the tests marked postgres on PostgreSQL"
	@echo "make translations-update  the catalogues follow the wrapped texts (then translate, see README)"
	@echo "make lock   requirements.lock and requirements-dev.lock again from pyproject.toml (UPGRADE=1: newest)"
	@echo "make wheel  dist/mcr_tournament-*.whl: the app with its templates, static files, migrations, catalogues"
	@echo "make lint | bench | demo | clean"

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Every install takes the versions of the lock files (pinned, with their hashes): requirements.lock (the app),
# requirements-dev.lock (the app, the tests and the tools). `make lock` writes both again from pyproject.toml,
# keeping every pin that still fits; `make lock UPGRADE=1` takes the newest versions pyproject.toml allows.
LOCK := requirements.lock
DEV_LOCK := requirements-dev.lock
UV_COMPILE = $(VENV)/bin/uv pip compile pyproject.toml --universal --python-version 3.11 --generate-hashes \
	--quiet --custom-compile-command "make lock" $(if $(UPGRADE),--upgrade)

$(VENV)/.installed: pyproject.toml $(LOCK) | $(VENV)/bin/python
	$(PY) -m pip install --quiet --require-hashes -r $(LOCK)
	$(PY) -m pip install --quiet --no-deps -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml $(DEV_LOCK) $(VENV)/.installed
	$(PY) -m pip install --quiet --require-hashes -r $(DEV_LOCK)
	touch $@

# The dev lock is constrained by the app's, so that both hold the same version of every package they share.
lock: $(VENV)/.installed-dev
	$(UV_COMPILE) -o $(LOCK)
	$(UV_COMPILE) --extra dev -c $(LOCK) -o $(DEV_LOCK)
	$(PY) -m pip install --quiet --require-hashes -r $(DEV_LOCK)
	touch $(VENV)/.installed $(VENV)/.installed-dev

# The compiled catalogues (.mo) are committed, so any clone serves every language; rebuilt here when a .po
# is newer. `make translations-update` after wrapping new texts: the template and every .po follow them.
translations: $(CATALOGUES:.po=.mo)

$(TRANSLATIONS)/%/LC_MESSAGES/messages.mo: $(TRANSLATIONS)/%/LC_MESSAGES/messages.po | $(VENV)/.installed
	$(PYBABEL) compile --statistics -l $* -i $< -o $@

translations-extract: $(VENV)/.installed
	$(PYBABEL) extract -F babel.cfg --sort-by-file --add-location=file --no-wrap \
	  --project "MCR Tournament" -o $(TRANSLATIONS)/messages.pot .

translations-update: translations-extract
	$(PYBABEL) update -i $(TRANSLATIONS)/messages.pot -d $(TRANSLATIONS) --no-wrap --no-fuzzy-matching
	$(MAKE) --no-print-directory translations

# The app for serving (gunicorn included, no dev extras) and its database brought up to date.
install: $(VENV)/.installed translations
	$(FLASK) db upgrade

run: $(VENV)/.installed translations
	$(FLASK) db upgrade
	$(FLASK) demo --if-empty
	$(FLASK) run --host $(HOST) --port $(PORT)

# Debian's chromium for the browser tests (Playwright never downloads a browser here) and the PDFs' fonts.
browser-deps:
	@{ command -v chromium >/dev/null 2>&1 && test -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf \
	  && test -f /usr/share/fonts/truetype/freefont/FreeSans.ttf && test -f /usr/share/fonts/truetype/tlwg/Loma.ttf \
	  && test -f /usr/share/fonts/truetype/wqy/wqy-microhei.ttc && test -x /usr/sbin/nginx; } || { \
	  echo "Installing Debian's chromium (browser tests) and the fonts of every script (PDFs)"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium nginx \
	    fonts-dejavu-core fonts-freefont-ttf fonts-tlwg-loma-ttf fonts-wqy-microhei >/dev/null; }

# ruff, the whole suite on SQLite, then the tests marked postgres again on PostgreSQL (TEST_DATABASE_URL).
test: $(VENV)/.installed-dev browser-deps
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(MAKE) --no-print-directory test-sqlite
	@if [ -n "$$TEST_DATABASE_URL" ]; then $(MAKE) --no-print-directory test-postgres; \
	 else echo "TEST_DATABASE_URL not set: PostgreSQL run skipped"; fi

# Every test, on SQLite.
test-sqlite: $(VENV)/.installed-dev translations
	env -u TEST_DATABASE_URL $(PY) -m pytest $(XDIST)

# The quick loop while working, on SQLite: no test marked slow (every browser and deploy test, the long
# differential, property and simulation runs).
test-fast: $(VENV)/.installed-dev translations
	env -u TEST_DATABASE_URL $(PY) -m pytest $(XDIST) -m "not slow"

# The tests whose outcome depends on the database engine (marked postgres: see pyproject.toml), on PostgreSQL.
# Exit 5 (no test selected) fails too: the marker lost would otherwise pass unseen.
test-postgres: $(VENV)/.installed-dev translations
	@test -n "$$TEST_DATABASE_URL" || { echo "set TEST_DATABASE_URL"; exit 2; }
	REQUIRE_POSTGRES=1 $(PY) -m pytest $(XDIST) -m postgres || { status=$$?; \
	  [ $$status -ne 5 ] || echo "no test is marked postgres: nothing ran on PostgreSQL"; exit $$status; }

# ruff, and import-linter's contracts (.importlinter): the layers, the pure modules, no import circle at any level.
lint: $(VENV)/.installed-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

# The wheel (dist/): the app with its templates, static files, migrations and compiled catalogues, installable
# anywhere (`pip install dist/mcr_tournament-*.whl`, then `mcr-tournament db upgrade`); its dependencies'
# versions are requirements.lock's (`pip install -r requirements.lock dist/...whl`).
wheel: $(VENV)/.installed translations
	rm -rf build dist/mcr_tournament-*.whl
	$(PY) -m pip wheel --quiet --no-deps --wheel-dir dist .

bench: $(VENV)/.installed-dev
	$(PY) bench/fan_engine.py
	$(PY) bench/draws.py
	$(PY) bench/standings.py
	$(PY) bench/exports.py

demo: $(VENV)/.installed
	$(FLASK) db upgrade
	$(FLASK) demo

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
