#!/usr/bin/env bash
# Install (first run) and run the whole test suite, browser tests included, on two processes (pytest-xdist;
# a file's tests stay together on one process).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
exec .venv/bin/python -m pytest -n "${RALLY_TEST_PROCESSES:-2}" --dist loadfile "$@"
