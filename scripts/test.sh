#!/usr/bin/env bash
# Install (first run) and run the whole test suite, browser test included.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
exec .venv/bin/python -m pytest "$@"
