#!/usr/bin/env bash
# Install (first run) and start the stage designer on the bundled tilesets and stages.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/rally-designer app "$@"
