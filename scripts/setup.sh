#!/usr/bin/env bash
# Create .venv and install the project (and, with --test, what the tests need: Chromium, poppler).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
if [ "${1:-}" = "--test" ]; then
  .venv/bin/python -m pip install --quiet -e ".[test]"
  need=()
  command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
  command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
  if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = "0" ]; then
      echo "installing ${need[*]} (Debian packages) for the browser and PDF tests"
      apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
    else
      echo "warning: ${need[*]} missing and not root: the browser/PDF tests will be skipped" >&2
    fi
  fi
else
  .venv/bin/python -m pip install --quiet -e .
fi
# Compile the package once, so that each command starts from bytecode even where PYTHONDONTWRITEBYTECODE is set.
.venv/bin/python -m compileall -q designer >/dev/null || true
