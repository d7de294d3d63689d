"""The command line against hostile and careless input: the disk cache trusts only what it wrote, the parallel and
cluster options are bounded, a batch survives its bad files, generate and import refuse nonsense with exit 2, and
the tables it writes carry no live spreadsheet formula.

Every case runs the real command (a subprocess, with a timeout, or click's runner) and checks what a user sees."""
from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from designer.core import diskcache

ROOT = Path(__file__).resolve().parent.parent
CORE = ROOT / "tilesets" / "dirt-core.yaml"


def _cli(*args, env: dict | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    e = dict(os.environ)
    e.pop("RALLY_CACHE", None)
    e.pop("RALLY_DASK_SCHEDULER", None)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "designer.cli", *map(str, args)], capture_output=True, text=True,
                          env=e, cwd=ROOT, timeout=timeout, stdin=subprocess.DEVNULL)


# --- the disk cache ---------------------------------------------------------------------------------------------

class _Planted:
    """A pickle that, once loaded, writes a marker file: what an attacker would plant as a cache entry."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.touch, (self.marker,))


def _tiles(cache: Path) -> subprocess.CompletedProcess:
    return _cli("tiles", "--tileset", CORE, env={"RALLY_CACHE_DIR": str(cache)}, timeout=30)


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> tuple[str, str]:
    """The listing of the core box and the name of its cache entry (names can be computed in advance)."""
    cache = tmp_path_factory.mktemp("trusted")
    out = _tiles(cache)
    assert out.returncode == 0 and out.stderr == "", out.stderr
    (entry,) = (cache / diskcache.SUBFOLDER).glob("tileset-*.pickle")
    return out.stdout, entry.name


def _plant(folder: Path, name: str, marker: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(pickle.dumps(_Planted(marker)))
    return path


def test_a_folder_others_may_write_is_refused_and_its_planted_entry_never_loaded(tmp_path, reference):
    listing, name = reference
    cache = tmp_path / "shared"
    marker = tmp_path / "code-ran"
    for planted_in in (cache, cache / diskcache.SUBFOLDER):
        _plant(planted_in, name, marker)
    os.chmod(cache, 0o777)
    os.chmod(cache / diskcache.SUBFOLDER, 0o777)
    out = _tiles(cache)
    assert out.returncode == 0 and out.stdout == listing
    assert not marker.exists()
    assert len(out.stderr.splitlines()) == 1 and "without the cache" in out.stderr and "0777" in out.stderr
    assert not (cache / diskcache.SUBFOLDER / diskcache.KEY_FILE).exists()    # nothing written there


@pytest.mark.skipif(os.getuid() != 0, reason="giving a folder to another user needs root")
def test_a_folder_of_another_user_is_refused(tmp_path, reference):
    cache = tmp_path / "theirs"
    cache.mkdir(mode=0o755)
    os.chown(cache, 65534, 65534)
    out = _tiles(cache)
    assert out.returncode == 0 and out.stdout == reference[0]
    assert "another user" in out.stderr and len(out.stderr.splitlines()) == 1
    assert list(cache.iterdir()) == []


def test_an_unsigned_or_tampered_entry_is_never_unpickled(tmp_path, reference):
    listing, name = reference
    cache = tmp_path / "mine"
    assert _tiles(cache).returncode == 0
    entry = cache / diskcache.SUBFOLDER / name
    signed = entry.read_bytes()
    marker = tmp_path / "code-ran"
    payload = pickle.dumps(_Planted(marker))
    # one planted without a signature, one with the good signature of another payload, one with a flipped byte
    for data in (payload, signed[:36] + payload, signed[:-1] + bytes([signed[-1] ^ 1])):
        entry.write_bytes(data)
        out = _tiles(cache)
        assert out.returncode == 0 and out.stdout == listing and out.stderr == ""
        assert not marker.exists()
        again = entry.read_bytes()                             # the cache wrote its own again
        assert again != data and again.startswith(diskcache.MAGIC)


def test_a_fifo_or_a_link_to_dev_zero_in_place_of_an_entry_is_a_miss(tmp_path, reference):
    listing, name = reference
    cache = tmp_path / "mine"
    assert _tiles(cache).returncode == 0
    entry = cache / diskcache.SUBFOLDER / name
    entry.unlink()
    os.mkfifo(entry)
    out = _tiles(cache)                                        # a hang would end in TimeoutExpired
    assert out.returncode == 0 and out.stdout == listing
    assert entry.is_file() and not entry.is_symlink()
    entry.unlink()
    entry.symlink_to("/dev/zero")
    out = _tiles(cache)
    assert out.returncode == 0 and out.stdout == listing
    assert entry.is_file() and not entry.is_symlink()


def test_a_key_that_is_not_the_users_own_0600_file_turns_the_cache_off(tmp_path, reference):
    cache = tmp_path / "mine"
    assert _tiles(cache).returncode == 0
    key = cache / diskcache.SUBFOLDER / diskcache.KEY_FILE
    os.chmod(key, 0o644)
    out = _tiles(cache)
    assert out.returncode == 0 and out.stdout == reference[0] and "key" in out.stderr


def test_an_entry_of_the_wrong_type_is_a_miss(tmp_path, reference):
    """A signed entry (the cache's own key) that holds the wrong kind of object: read again from the file."""
    cache = tmp_path / "mine"
    assert _tiles(cache).returncode == 0
    code = ("import sys; from pathlib import Path; from designer.core import diskcache; "
            "import designer.systems.dirt.tileset as T; diskcache.enable(sys.argv[1]); "
            "p = str(Path(sys.argv[2]).resolve()); key = p.encode() + b'\\0' + Path(p).read_bytes(); "
            "diskcache.store('tileset', key, [1, 2, 3], T._CODE); "
            "print(diskcache.fetch('tileset', key, T._CODE))")
    planted = subprocess.run([sys.executable, "-c", code, str(cache), str(CORE)], capture_output=True, text=True,
                             cwd=ROOT, timeout=60)
    assert planted.stdout.strip() == "[1, 2, 3]", planted.stderr
    out = _tiles(cache)
    assert out.returncode == 0 and out.stdout == reference[0], out.stderr


def test_the_users_own_files_in_the_cache_folder_are_left_alone(tmp_path, monkeypatch):
    cache = tmp_path / "my-folder"
    cache.mkdir()
    mine = [cache / f"model{i}.pickle" for i in range(70)] + [cache / "notes.txt"]
    for p in mine:
        p.write_text("the user's own")
    monkeypatch.setattr(diskcache, "MAX_ENTRIES", 2)
    diskcache.enable(cache)
    try:
        for i in range(5):
            diskcache.store("n", str(i).encode(), i, modules=())
        assert len(list(diskcache.folder().glob("n-*.pickle"))) == 2
    finally:
        diskcache.disable()
    assert all(p.read_text() == "the user's own" for p in mine)
    out = _tiles(cache)                                        # and through the command, 64 entries at most
    assert out.returncode == 0 and all(p.exists() for p in mine)


# --- the parallel and cluster options ---------------------------------------------------------------------------

SS1 = ROOT / "stages" / "dirt" / "rally-1" / "ss1.yaml"


def _pid(_item) -> int:
    return os.getpid()


def test_jobs_are_capped_at_the_cores():
    from designer.core import parallel

    assert parallel.default_jobs(10_000) == parallel.cores() and parallel.default_jobs(-10_000) == 1
    pids = set(parallel.run(_pid, list(range(3 * parallel.cores() + 2)), jobs=10_000))
    assert 1 <= len(pids) <= parallel.cores()


def test_batch_says_when_it_caps_jobs(tmp_path):
    out = _cli("batch", SS1, "--no-expected", "--jobs", "10000", timeout=60)
    assert out.returncode == 0, out.stderr
    assert "--jobs 10000 is more than the" in out.stderr


@pytest.mark.parametrize("address", ["http://[::1", "garbage", "tcp://[::1", "tcp://host:99999", "tcp://:8786",
                                     "tcp://a b:1", "ftp://host:1", "tcp://host:1/path"])
def test_a_malformed_scheduler_address_is_exit_2_naming_the_scheduler(address):
    from designer.core import parallel
    from designer.core.errors import DesignerError

    with pytest.raises(DesignerError, match="Dask scheduler address"):
        parallel.check_scheduler(address)


def test_a_malformed_scheduler_through_the_command_and_the_environment():
    for args, env, where in ((("--scheduler", "http://[::1"), {}, "--scheduler"),
                             ((), {"RALLY_DASK_SCHEDULER": "http://[::1"}, "RALLY_DASK_SCHEDULER")):
        out = _cli("batch", SS1, "--no-expected", *args, env=env, timeout=60)
        assert out.returncode == 2 and f"{where}: the Dask scheduler address" in out.stderr, out.stderr
        assert "internal error" not in out.stderr
    out = _cli("generate", "-o", "never.yaml", "--scheduler", "garbage", timeout=60)
    assert out.returncode == 2 and "Dask scheduler address 'garbage'" in out.stderr


def _server(answer: bytes | None):
    """A local server that accepts and stays silent (``answer`` None) or answers every connection with bytes."""
    import socket
    import threading

    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(8)
    kept = []

    def serve():
        while True:
            try:
                conn, _ = srv.accept()
            except OSError:
                return
            kept.append(conn)
            if answer is not None:
                try:
                    conn.recv(4096)
                    conn.sendall(answer)
                except OSError:
                    pass

    threading.Thread(target=serve, daemon=True).start()
    return srv, kept


@pytest.mark.parametrize("answer, says", [(None, "no answer within"),
                                          (b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok" * 4, "Dask"),
                                          (b"\x00" * 64, "Dask")])
def test_a_silent_port_or_another_server_is_not_a_hang_nor_a_memory_error(answer, says):
    import time

    srv, kept = _server(answer)
    address = "tcp://127.0.0.1:%d" % srv.getsockname()[1]
    try:
        start = time.monotonic()
        out = _cli("batch", SS1, "--no-expected", env={"RALLY_DASK_SCHEDULER": address}, timeout=40)
        took = time.monotonic() - start
    finally:
        srv.close()
        for c in kept:
            c.close()
    assert out.returncode == 2, out.stderr
    assert f"cannot reach the Dask scheduler at {address}: " in out.stderr and says in out.stderr, out.stderr
    assert "memory" not in out.stderr and took < 20


def test_a_closed_port_is_said_at_once():
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()                                                  # nothing listens there now
    out = _cli("batch", SS1, "--no-expected", "--scheduler", f"127.0.0.1:{port}", timeout=40)
    assert out.returncode == 2 and f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}: " in out.stderr
    assert "connection refused" in out.stderr


def test_a_scheduler_without_workers_is_said_not_waited_on_for_ever(monkeypatch):
    distributed = pytest.importorskip("distributed")
    from designer.core import parallel
    from designer.core.errors import DesignerError

    monkeypatch.setattr(parallel, "WORKERS_SECONDS", 1.0)
    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp://", dashboard_address=None) as cluster:
        with pytest.raises(DesignerError, match="has no worker"):
            parallel.run(abs, [-1, 2], scheduler=cluster.scheduler_address)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://",
                                  dashboard_address=None) as cluster:
        assert parallel.run(abs, [-1, 2], scheduler=cluster.scheduler_address) == [1, 2]   # a real one passes
