"""A throwaway PostgreSQL cluster for the tests: the machine's own PostgreSQL, run by its
``initdb`` and ``pg_ctl`` in a temporary directory on a free port.

The server refuses to run as root, so as root the cluster's directory is owned by the
``postgres`` user and the binaries run through ``runuser``. Durability is switched off
(``fsync``, ``synchronous_commit``): the tests kill processes, never the machine. Each test
gets a schema of its own (``fresh_schema``), reached by a URL whose ``search_path`` names it.

A cluster outlives a pytest that is killed (SIGKILL, a CI time-out): the server is its own
daemon. So each cluster leaves a marker in :data:`MARKERS` naming the directory and the
process that made it (pid and start time, so a reused pid is not taken for it); every
:func:`start_cluster` first stops the clusters whose maker is gone, and a cluster is
stopped at interpreter exit too, if the fixture's own teardown did not run.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import json
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

__all__ = ["MARKERS", "Cluster", "find_bin_dir", "start_cluster", "stop_stale_clusters"]

MARKERS = Path(tempfile.gettempdir()) / "sandbox-pg-clusters"
"""One JSON file per running test cluster: ``{"directory", "pid", "started"}``."""


def find_bin_dir() -> Path:
    """The newest installed PostgreSQL's binaries (Debian: /usr/lib/postgresql/N/bin)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parent.parent.name))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb is None:
        raise RuntimeError("PostgreSQL is not installed (scripts/install installs it from Debian)")
    return Path(initdb).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Cluster:
    """A running cluster: its directory, port and the URL of its ``postgres`` database."""

    directory: Path
    port: int
    bin_dir: Path
    as_user: str | None
    options: str = ""
    """The server's command-line settings, kept so a restart brings it back the same."""

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *argv: str) -> None:
        command = [str(self.bin_dir / argv[0]), *argv[1:]]
        if self.as_user is not None:
            command = ["runuser", "-u", self.as_user, "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def restart(self) -> None:
        """Stop the server (``fast``: every session is ended, as by an operator or an
        upgrade) and start it again on the same port; returns once it accepts connections."""
        self._run("pg_ctl", "restart", "-D", str(self.directory / "data"), "-m", "fast", "-w",
                  "-t", "60", "-o", self.options, "-l", str(self.directory / "log"))

    def stop(self) -> None:
        try:
            if (self.directory / "data" / "postmaster.pid").exists():
                self._run("pg_ctl", "stop", "-D", str(self.directory / "data"), "-m", "immediate", "-w")
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)
            _marker(self.directory).unlink(missing_ok=True)

    def schema_url(self, schema: str) -> str:
        return f"{self.url}?search_path={schema}"


def _started(pid: int) -> str | None:
    """When process ``pid`` started (clock ticks since boot), or None if there is none."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return stat.rpartition(")")[2].split()[19]  # field 22, counted after the command name


def _marker(directory: Path) -> Path:
    return MARKERS / f"{directory.name}.json"


def stop_stale_clusters() -> list[Path]:
    """Stop the clusters whose maker has exited without stopping them; their directories."""
    stopped: list[Path] = []
    for marker in sorted(MARKERS.glob("*.json")):
        try:
            made = json.loads(marker.read_text())
            directory, pid, started = Path(made["directory"]), int(made["pid"]), str(made["started"])
        except (OSError, ValueError, KeyError, TypeError):
            continue  # being written, or not ours to judge
        if _started(pid) == started:
            continue  # its maker still runs: its own to stop
        owner = directory.stat().st_uid if directory.exists() else os.geteuid()
        as_user = pwd.getpwuid(owner).pw_name if os.geteuid() == 0 and owner != 0 else None
        with contextlib.suppress(OSError, subprocess.CalledProcessError, RuntimeError):
            Cluster(directory, 0, find_bin_dir(), as_user).stop()
        marker.unlink(missing_ok=True)
        stopped.append(directory)
    return stopped


def start_cluster() -> Cluster:
    """initdb and start a cluster (after stopping stale ones); stop it with :meth:`Cluster.stop`
    (or let the interpreter's exit stop it)."""
    stop_stale_clusters()
    bin_dir = find_bin_dir()
    as_user = "postgres" if os.geteuid() == 0 else None
    directory = Path(tempfile.mkdtemp(prefix="sandbox-pg-"))
    MARKERS.mkdir(exist_ok=True)
    _marker(directory).write_text(json.dumps(
        {"directory": str(directory), "pid": os.getpid(), "started": _started(os.getpid())}))
    if as_user is not None:
        user = pwd.getpwnam(as_user)
        os.chown(directory, user.pw_uid, user.pw_gid)
    cluster = Cluster(directory, _free_port(), bin_dir, as_user)
    data = directory / "data"
    try:
        cluster._run("initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                     "--locale=C.UTF-8", "--no-sync")
        cluster.options = options = (f"-p {cluster.port} -k {directory} -c listen_addresses=127.0.0.1 -c fsync=off"
                   " -c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        cluster._run("pg_ctl", "start", "-D", str(data), "-w", "-t", "60", "-o", options,
                     "-l", str(directory / "log"))
    except BaseException:
        shutil.rmtree(directory, ignore_errors=True)
        _marker(directory).unlink(missing_ok=True)
        raise
    atexit.register(cluster.stop)  # does nothing once the fixture has stopped it
    return cluster


def new_schema_name() -> str:
    return f"t_{uuid.uuid4().hex[:16]}"
