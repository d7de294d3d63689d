"""What the real-browser tests share: a Streamlit server of the app on a free local port, started and stopped by
the test module, and Debian's Chromium."""
from __future__ import annotations

import os
import signal
from contextlib import contextmanager
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
needs_chromium = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium "
                                                                   "(apt-get install chromium)")
BROWSER_MARKS = [pytest.mark.browser, needs_chromium]      # a browser test module's ``pytestmark``


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_app(log_dir: Path | None, wait_s: float = 60, env: dict | None = None, info: dict | None = None,
              wrap: list[str] | None = None):
    """Yield the base URL of the app served on 127.0.0.1 (a generator for a pytest fixture); stop it after.

    The server's output goes to ``log_dir/streamlit.log``, or with ``log_dir=None`` to a pipe kept in memory (so
    that the server process itself writes nothing to storage); ``env`` adds to its environment; ``info`` receives
    its process id under ``"pid"``; ``wrap`` is a command the server runs under (e.g. ``strace -f -o FILE``)."""
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""), **(env or {}))
    env.pop("RALLY_APP_RAISE", None)        # the server behaves as a user's does
    command = [sys.executable, "-m", "designer.app.serve", "--server.headless", "true",  # as rally-designer app
               "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
               "--server.fileWatcherType", "none"]
    command = list(wrap or []) + command
    if log_dir is None:
        proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)
        output: list[bytes] = []
        threading.Thread(target=lambda: output.extend(iter(proc.stdout.readline, b"")), daemon=True).start()

        def log() -> str:
            return b"".join(output).decode(errors="replace")
    else:
        path = log_dir / "streamlit.log"
        with open(path, "wb") as out:
            proc = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=env,
                                    start_new_session=True)

        def log() -> str:
            return path.read_text(errors="replace")
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + wait_s
        while True:
            if proc.poll() is not None:
                pytest.fail(f"streamlit stopped (exit {proc.returncode}):\n{log()}")
            try:
                with urllib.request.urlopen(f"{base}/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"streamlit did not answer within {wait_s:.0f} s:\n{log()}")
            time.sleep(0.3)
        if info is not None:
            info["pid"] = proc.pid
        yield base
    finally:
        # The server runs in a session of its own, stopped as a whole: under a wrapper (strace) the server is the
        # wrapper's child, which stopping the wrapper alone would leave running.
        _signal_group(proc, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            _signal_group(proc, signal.SIGKILL)
            proc.wait(timeout=5)
        time.sleep(0.2)
        _signal_group(proc, signal.SIGKILL)        # whatever of the group is still there


def _signal_group(proc, sig) -> None:
    try:
        os.killpg(proc.pid, sig)
    except (ProcessLookupError, PermissionError):
        pass


@contextmanager
def chromium():
    """Debian's Chromium under Playwright (skips the test when Playwright is not installed)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def settle(page, timeout_ms: int = 60_000, pause_ms: int = 300) -> None:
    """Wait until Streamlit has finished the current run (no 'running' status, no stale elements)."""
    page.wait_for_timeout(pause_ms)
    page.wait_for_function("""() => !document.querySelector('[data-testid="stStatusWidget"]')
                                    && !document.querySelector('[data-stale="true"]')""", timeout=timeout_ms)
    page.wait_for_timeout(pause_ms)
