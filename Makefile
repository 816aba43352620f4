# The two-command contract: `make run` plays, `make test` checks everything.
# Both bootstrap .venv on a fresh machine with Python 3.11.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp

.PHONY: run play test lint typecheck unit bench install browser proxies clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/erebus serve --host 127.0.0.1 --port 8000 --db sqlite:///var/erebus.db

play: $(STAMP)
	$(BIN)/erebus play --players 3 --humans 1

# Browser tests drive Debian's chromium (no browser downloads).  Installed with apt
# when we are root (CI, project machines); elsewhere the browser tests skip.
browser:
	@if [ ! -x /usr/bin/chromium ] && [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null; then \
		(apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium) >/dev/null 2>&1 \
		|| echo "could not install chromium; browser tests will skip"; \
	fi

# The reverse-proxy tests run the README's nginx and Caddy examples (deploy/) for real;
# installed like chromium, and skipped where they are missing.
proxies:
	@if { [ ! -x /usr/sbin/nginx ] || ! command -v caddy >/dev/null; } && [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null; then \
		(apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx-light caddy) >/dev/null 2>&1 \
		|| echo "could not install nginx and caddy; the proxy tests will skip"; \
	fi

lint: $(STAMP)
	$(BIN)/ruff check src tests tools bench
	$(BIN)/ruff format --check src tests tools bench

typecheck: $(STAMP)
	$(BIN)/mypy

# The browser tests run on their own: Playwright's sync API keeps an event loop
# running in its worker for the whole session, which breaks asyncio.run() in
# any other test that lands on that worker.  They could run two at a time (each
# worker starts its own server and chromium: `pytest -n 2 tests/browser`, ~3 min
# instead of ~5), but on 2 cores that exposed timing races in the tests, so CI runs
# them one at a time; worksteal keeps the unit tests' long ones from piling up.
unit: $(STAMP) browser proxies
	$(BIN)/pytest -n 2 --dist worksteal --ignore=tests/browser
	$(BIN)/pytest tests/browser

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/erebus bench

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
