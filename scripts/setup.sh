#!/usr/bin/env bash
# Create .venv and install the project (and, with --test, what the tests need: Chromium, poppler, strace).
# The install (which also compiles the expected-time solver's .pyx files) runs again only when pyproject.toml,
# setup.py or a .pyx/.pxd file has changed since the last one; its output is shown only when it fails.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
mode=app
[ "${1:-}" = "--test" ] && mode=test
digest=$(cat pyproject.toml setup.py designer/systems/dirt/dice/*.pyx designer/systems/dirt/dice/*.pxd designer/systems/dirt/driving/*.pyx | sha256sum | cut -d' ' -f1)
done_as() { [ -f ".venv/.installed-$1" ] && [ "$(cat ".venv/.installed-$1")" = "$digest" ]; }
if done_as test || { [ "$mode" = app ] && done_as app; }; then
  :
else
  .venv/bin/python -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
  target="."
  [ "$mode" = test ] && target=".[test]"
  echo "installing the project into .venv (a minute or two the first time)"
  if ! .venv/bin/python -m pip install --quiet -e "$target" > .venv/install.log 2>&1; then
    cat .venv/install.log >&2
    echo "the install failed (above)" >&2
    exit 1
  fi
  echo "$digest" > ".venv/.installed-$mode"
fi
if [ "$mode" = test ]; then
  need=()
  command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
  command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
  command -v strace >/dev/null 2>&1 || need+=(strace)
  if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = "0" ]; then
      echo "installing ${need[*]} (Debian packages) for the browser and PDF tests"
      apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
    else
      echo "warning: ${need[*]} missing and not root: the browser/PDF tests will be skipped" >&2
    fi
  fi
fi
# Compile the package once, so that each command starts from bytecode even where PYTHONDONTWRITEBYTECODE is set.
.venv/bin/python -m compileall -q designer >/dev/null || true
