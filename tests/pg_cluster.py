"""A throwaway PostgreSQL cluster for the tests: the machine's own PostgreSQL, run by its
``initdb`` and ``pg_ctl`` in a temporary directory on a free port.

The server refuses to run as root, so as root the cluster's directory is owned by the
``postgres`` user and the binaries run through ``runuser``. Durability is switched off
(``fsync``, ``synchronous_commit``): the tests kill processes, never the machine. Each test
gets a schema of its own (``fresh_schema``), reached by a URL whose ``search_path`` names it.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Cluster", "find_bin_dir", "start_cluster"]


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
            self._run("pg_ctl", "stop", "-D", str(self.directory / "data"), "-m", "immediate", "-w")
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)

    def schema_url(self, schema: str) -> str:
        return f"{self.url}?search_path={schema}"


def start_cluster() -> Cluster:
    """initdb and start a cluster; stop it with :meth:`Cluster.stop`."""
    bin_dir = find_bin_dir()
    as_user = "postgres" if os.geteuid() == 0 else None
    directory = Path(tempfile.mkdtemp(prefix="sandbox-pg-"))
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
        raise
    return cluster


def new_schema_name() -> str:
    return f"t_{uuid.uuid4().hex[:16]}"
