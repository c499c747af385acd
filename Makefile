# The two commands of README.md: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test soak bench clean chromium messages

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.dev-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

run: $(VENV)/.installed
	$(BIN)/python -m app serve

# The browser tests drive Debian's Chromium (tests/test_ui_browser.py); install it once.
chromium:
	@command -v chromium >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) || echo "chromium could not be installed: the browser tests will be skipped"

test: $(VENV)/.dev-installed chromium
	$(BIN)/python -m pytest

# Re-extract the texts of the pages (templates/, app/web/) into the Serbian catalog;
# the catalog is compiled in memory when the app starts (app/web/i18n.py).
messages: $(VENV)/.installed
	$(BIN)/pybabel extract -F babel.cfg -k N_ -k tr -o app/locale/messages.pot .
	$(BIN)/pybabel update -i app/locale/messages.pot -d app/locale -l sr_Latn

bench: $(VENV)/.installed
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV)

# The long fault and leak runs (README.md, "Soak"): 1,000 audited parties,
# 50 SIGKILLs, longer fuzzing. .ci/run runs it after `make test` (about 10 minutes here).
soak: $(VENV)/.dev-installed
	KLUB_AUDIT_PARTIES=1000 KLUB_CRASH_KILLS=50 KLUB_CRASH_PARTIES=8 KLUB_FUZZ_EXAMPLES=100 \
	$(BIN)/python -m pytest -s tests/test_audit_leaks.py tests/test_faults_crash.py tests/test_faults_input.py tests/test_faults_concurrency.py
