"""Running many independent jobs (analyses of stages, batches of generator candidates) in parallel.

Locally on the machine's cores (processes: each job is CPU-bound pure Python; the pool is
:mod:`designer.core.parallel_pool`), never more processes than the cores this process may use; on a Dask cluster
when a scheduler address is given (``scheduler="tcp://host:8786"``, or the ``RALLY_DASK_SCHEDULER`` environment
variable). An address is checked
before use, and the scheduler must answer as a Dask scheduler within :data:`CONNECT_SECONDS` (a port that accepts
and stays silent, or another kind of server, is a :class:`DesignerError` naming the scheduler, not a hang). The
job function must live in an importable module and take and return plain data, so the same call runs in a local
process or on a remote worker. Results come back in the order of the items.

>>> run(abs, [-1, 2, -3], jobs=1)
[1, 2, 3]
>>> check_scheduler("tcp://[::1")
Traceback (most recent call last):
...
designer.core.errors.DesignerError: --scheduler: the Dask scheduler address 'tcp://[::1' is malformed (an unclosed [)
hint: give it as tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786
"""
from __future__ import annotations

import os
import re
from typing import Any, Callable, Iterable, Sequence

from designer.core.errors import DesignerError

SCHEDULER_ENV = "RALLY_DASK_SCHEDULER"
CONNECT_SECONDS = 5.0                  # to connect to a scheduler and hear it answer
WORKERS_SECONDS = 30.0                 # to wait for a first worker on a scheduler that has none
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
Progress = Callable[[int, int], None]
_HOST = re.compile(r"^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_]([A-Za-z0-9_.-]{0,252}))$")


def cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it, else every core)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def default_jobs(jobs: int | None) -> int:
    """Processes to start for ``jobs``: None or 0 is every core, -1 every core, -2 all but one...; never more
    than :func:`cores`."""
    n = cores()
    if jobs is None or jobs == 0:
        return n
    if jobs < 0:
        return max(1, n + 1 + jobs)
    return min(jobs, n)


def jobs_note(jobs: int | None) -> str | None:
    """A line telling the user that ``--jobs`` was cut to the cores, or None when it was not."""
    if jobs is not None and jobs > cores():
        return (f"note: --jobs {jobs} is more than the {cores()} cores this machine gives; using {cores()} "
                "(more processes than cores only slow the work down)")
    return None


def scheduler_address(scheduler: str | None = None) -> str | None:
    """The Dask scheduler to use: the argument, else ``$RALLY_DASK_SCHEDULER``, else None (local cores); checked
    by :func:`check_scheduler`."""
    if scheduler:
        return check_scheduler(scheduler)
    env = os.environ.get(SCHEDULER_ENV)
    if env and env.strip():
        return check_scheduler(env, where=SCHEDULER_ENV)
    return None


def check_scheduler(address: str, where: str = "--scheduler") -> str:
    """``address`` when it is a well-formed Dask scheduler address (``tcp://HOST:PORT``, ``tls://``, ``ws://``,
    ``wss://``, ``ucx://``, ``HOST:PORT`` for tcp, or an in-process ``inproc://`` one); a DesignerError otherwise."""
    text = address.strip()
    hint = "give it as tcp://HOST:PORT, e.g. tcp://127.0.0.1:8786"

    def bad(why: str) -> DesignerError:
        shown = text if len(text) <= 80 else text[:77] + "..."
        return DesignerError(f"the Dask scheduler address {shown!r} is malformed ({why})", where=where, hint=hint)

    if not text or len(text) > 300 or any(c.isspace() or not c.isprintable() for c in text):
        raise bad("empty, too long, or with spaces")
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    scheme = scheme.lower()
    if scheme == "inproc":
        if not re.fullmatch(r"[^/\s]+/\d+/\d+", rest):
            raise bad("an in-process address is inproc://HOST/PID/N")
        return text
    if scheme in ("http", "https"):
        raise bad(f"{scheme}:// is the dashboard's web address; the scheduler listens on tcp://, port 8786 by "
                  "default")
    if scheme not in SCHEMES:
        raise bad(f"unknown scheme {scheme}://; one of {', '.join(s + '://' for s in SCHEMES)}")
    if "/" in rest or "?" in rest or "#" in rest or "@" in rest:
        raise bad("a path or user name after the host")
    if rest.startswith("[") and "]" not in rest:
        raise bad("an unclosed [")
    host, colon, port = rest.rpartition(":")
    if not colon or not host:
        raise bad("no port: HOST:PORT")
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise bad(f"the port {port!r} is not a number from 1 to 65535")
    if not _HOST.match(host) or (host.startswith("[") and ":" not in host):
        raise bad(f"{host!r} is not a host name or an IP address")
    return f"{scheme}://{host}:{int(port)}"


def _host_port(address: str) -> tuple[str, int]:
    rest = address.split("://", 1)[1]
    host, _, port = rest.rpartition(":")
    return host.strip("[]"), int(port)


def probe_scheduler(address: str, seconds: float = CONNECT_SECONDS) -> None:
    """Connect to the scheduler at ``address`` and ask who it is, within ``seconds``; a DesignerError saying
    "cannot reach the Dask scheduler at ADDRESS: why" when nothing answers, or something else answers."""
    if address.startswith("inproc://"):
        return
    import asyncio
    import socket

    host, port = _host_port(address)
    try:                                               # a plain connection first: says at once what is wrong
        socket.create_connection((host, port), timeout=seconds).close()
    except socket.gaierror as exc:
        _unreachable(address, f"the host name {host!r} is not known ({exc.strerror})")
    except ConnectionRefusedError:
        _unreachable(address, f"nothing listens on port {port} there (connection refused)")
    except (TimeoutError, socket.timeout):
        _unreachable(address, f"no connection within {seconds:g} s (a wrong or unroutable address, or a firewall)")
    except OSError as exc:
        _unreachable(address, exc.strerror or str(exc))

    from distributed.comm import connect

    async def ask():
        comm = await asyncio.wait_for(connect(address, timeout=seconds), seconds)
        try:
            await asyncio.wait_for(comm.write({"op": "identity"}), seconds)
            return await asyncio.wait_for(comm.read(), seconds)
        finally:
            comm.abort()

    from concurrent.futures import ThreadPoolExecutor

    try:            # in a thread of its own, so that a caller with an event loop running (a notebook) may call it
        with ThreadPoolExecutor(1) as pool:
            reply = pool.submit(asyncio.run, asyncio.wait_for(ask(), seconds + 1)).result()
    except (asyncio.TimeoutError, TimeoutError):
        why = f"no answer within {seconds:g} s (is it a Dask scheduler, and is the port right?)"
    except MemoryError:
        why = "the server there does not speak Dask's protocol (another kind of server?)"
    except OSError as exc:                             # refused, unreachable, unknown host, timed out connecting
        why = (str(exc) or type(exc).__name__)[:300]
    except Exception as exc:                           # a garbled reply: not Dask at the other end
        why = f"the server there does not answer as a Dask scheduler ({type(exc).__name__})"
    else:
        if isinstance(reply, dict) and reply.get("type") == "Scheduler":
            return
        why = "the server there answers, but not as a Dask scheduler"
    _unreachable(address, why)


def _unreachable(address: str, why: str):
    raise DesignerError(f"cannot reach the Dask scheduler at {address}: {why}",
                        hint=f"start one with `dask scheduler` and give its tcp:// address, or unset {SCHEDULER_ENV} "
                             "and leave out --scheduler to use this machine")


def run(fn: Callable[[Any], Any], items: Sequence[Any], *, jobs: int | None = None, scheduler: str | None = None,
        progress: Progress | None = None, cost: Sequence[float] | None = None, preload: Sequence[str] = (),
        usage: list | None = None) -> list:
    """``[fn(item) for item in items]``, in parallel; ``progress(done, total)`` is called as results arrive.

    ``cost``: a guess of each item's work; the costliest are handed out first (a long job handed out last keeps
    one worker busy while the others wait), and the results still come back in the order of ``items``.
    ``preload``: the modules the jobs need, imported once before the local workers start (see
    :mod:`designer.core.parallel_pool`). ``usage``: a list that gets, per job, ``{"index", "pid", "cpu",
    "worker_cpu", "start", "end"}``: the item, the process that ran it, the job's CPU seconds, that process's CPU
    seconds when the job ended (its start included) and the job's wall clock (``time.time()``) at its start and
    end; in one process the process is this one.
    """
    items = list(items)
    order = list(range(len(items)))
    if cost is not None:
        if len(cost) != len(items):
            raise ValueError("one cost per item")
        order.sort(key=lambda k: -cost[k])             # stable: equal costs keep the items' order
    address = scheduler_address(scheduler)
    if address:
        return _run_dask(fn, items, order, address, progress, usage)
    n = min(default_jobs(jobs), max(1, len(items)))
    if n == 1:
        from designer.core.parallel_pool import Timed, usage_entry

        timed = Timed(fn)
        out = []
        for k, item in enumerate(items, start=1):
            result, *timing = timed(item)
            out.append(result)
            if usage is not None:
                usage.append(usage_entry(k - 1, *timing))
            if progress:
                progress(k, len(items))
        return out
    from designer.core.parallel_pool import run_local

    return run_local(fn, items, order, n, tuple(preload), progress, usage)


def _run_dask(fn, items: list, order: list[int], address: str, progress: Progress | None,
              usage: list | None) -> list:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise DesignerError("running on a Dask cluster needs the `distributed` package",
                            hint="pip install 'rally-designer[cluster]'") from None
    from concurrent.futures import CancelledError

    from distributed.scheduler import KilledWorker

    probe_scheduler(address)
    lost = f"the run on the Dask scheduler at {address} stopped"
    try:
        client = Client(address, timeout=f"{CONNECT_SECONDS}s")
    except Exception as exc:
        raise DesignerError(f"cannot reach the Dask scheduler at {address}: {type(exc).__name__}: {exc}"[:400],
                            hint="check the scheduler is running and its address") from None
    try:
        if not address.startswith("inproc://"):
            try:
                client.wait_for_workers(1, timeout=WORKERS_SECONDS)
            except (TimeoutError, OSError):
                raise DesignerError(f"the Dask scheduler at {address} has no worker (waited {WORKERS_SECONDS:g} s)",
                                    hint="start workers with `dask worker " + address + "`") from None
        from designer.core.parallel_pool import Timed, usage_entry

        timed = Timed(fn)
        # submitted costliest first, each with a priority that says so (Dask runs the higher priorities first)
        futures = [client.submit(timed, items[k], pure=False, priority=len(order) - rank)
                   for rank, k in enumerate(order)]
        index = {f.key: k for f, k in zip(futures, order)}
        out: list = [None] * len(items)
        try:
            for done, future in enumerate(as_completed(futures), start=1):
                k = index[future.key]
                out[k], *timing = future.result()
                if usage is not None:
                    usage.append(usage_entry(k, *timing))
                if progress:
                    progress(done, len(items))
        except (OSError, KilledWorker, CancelledError) as exc:   # the connection closed, or workers died
            raise DesignerError(f"{lost} ({type(exc).__name__}: {exc})"[:400],
                                hint="run again, or leave out --scheduler to use this machine") from None
        return out
    finally:
        try:
            client.close(timeout=CONNECT_SECONDS)
        except Exception:
            pass


def chunks(items: Iterable[Any], size: int) -> list[list]:
    """Items in lists of ``size`` (the last may be shorter): fewer, larger jobs when each item is quick."""
    out, cur = [], []
    for item in items:
        cur.append(item)
        if len(cur) == size:
            out.append(cur)
            cur = []
    if cur:
        out.append(cur)
    return out
