"""The test cluster helper cleans up after a pytest that was killed: a cluster whose maker
is gone is stopped (and its directory removed) by the next ``start_cluster``."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import pg_cluster

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"


def test_a_cluster_left_by_a_killed_maker_is_stopped_by_the_next_start() -> None:
    # A maker that starts a cluster and dies at once, as SIGKILL would end it: no teardown.
    maker = textwrap.dedent(f"""
        import os, sys
        sys.path.insert(0, {str(Path(__file__).parent.parent)!r})
        import pg_cluster
        cluster = pg_cluster.start_cluster()
        print(cluster.directory, flush=True)
        os._exit(0)
    """)
    made = subprocess.run([sys.executable, "-c", maker], capture_output=True, text=True,
                          check=True, timeout=120)
    directory = Path(made.stdout.strip())
    server = int((directory / "data" / "postmaster.pid").read_text().split()[0])
    assert _alive(server) and (pg_cluster.MARKERS / f"{directory.name}.json").exists()

    assert directory in pg_cluster.stop_stale_clusters()
    assert not _alive(server) and not directory.exists()
    assert not (pg_cluster.MARKERS / f"{directory.name}.json").exists()
    # The session's own cluster (its maker, this pytest, is alive) is left alone.
    assert directory not in pg_cluster.stop_stale_clusters()
