"""Crash safety: a process killed during large writes leaves a sound database and whole files,
on a SQLite file and on PostgreSQL."""

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiosqlite
import pytest

from workspace import WorkspaceStore

SIZE = 6 * 1024 * 1024
REPO = Path(__file__).resolve().parents[2]

WRITER = """
import asyncio, itertools, sys
from workspace import WorkspaceStore

async def main(db, blobs, threshold, size):
    store = await WorkspaceStore.open(db, blobs or None, spill_threshold=threshold, orphan_grace_s=None)
    ws = store.workspace()
    print("ready", flush=True)
    for i in itertools.count(1):
        await ws.write_bytes("/big.bin", bytes([65 + i % 26]) * size)
        print("committed", i, flush=True)

asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
"""


async def _prepare(db: Path | str, blobs: Path | None, threshold: int) -> None:
    async with await WorkspaceStore.open(db, blobs, spill_threshold=threshold) as store:
        await store.workspace().write_bytes("/big.bin", b"@" * SIZE)


def _run_and_kill(db: Path | str, blobs: Path | None, threshold: int, delay: float) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db), str(blobs or ""), str(threshold), str(SIZE)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == b"ready"
    # Wait for one commit however slow the machine is, then kill somewhere in a later write.
    assert proc.stdout.readline().startswith(b"committed")
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=10)
    proc.stdout.close()


async def _check(db: Path | str, blobs: Path | None, threshold: int) -> int:
    if isinstance(db, Path):
        async with aiosqlite.connect(db) as conn:
            async with conn.execute("PRAGMA integrity_check") as cur:
                assert [tuple(r) for r in await cur.fetchall()] == [("ok",)]
    async with await WorkspaceStore.open(db, blobs, spill_threshold=threshold, orphan_grace_s=None) as store:
        ws = store.workspace()
        # A negative age puts the cutoff in the future: every unreferenced blob goes,
        # whatever the filesystem's clock says about the ones the killed writer left.
        await store.collect_orphans(min_age_s=-3600)
        data = await ws.read_bytes("/big.bin")
        assert data is not None and len(data) == SIZE
        assert len(set(data)) == 1, "a mix of two versions"
        if blobs is not None:
            stored = {p.name for p in blobs.rglob("*") if p.is_file()}
            st = await ws.stat("/big.bin")
            assert st is not None and st.storage == "blob"
            assert len(stored) == 1, "orphans were not collected"
        return data[0]


@pytest.mark.slow
@pytest.mark.parametrize("spill", [False, True], ids=["inline", "blob"])
def test_killed_writer_leaves_old_or_new_file_never_a_mix(tmp_path: Path, spill: bool) -> None:
    db = tmp_path / "sandbox.db"
    blobs = tmp_path / "blobs" if spill else None
    threshold = 1_500_000 if spill else SIZE * 2
    asyncio.run(_prepare(db, blobs, threshold))
    seen = set()
    for delay in (0.05, 0.17, 0.31):
        _run_and_kill(db, blobs, threshold, delay)
        seen.add(asyncio.run(_check(db, blobs, threshold)))
    assert seen - {ord("@")}, "the writer's commits were lost"


@pytest.mark.slow
async def test_a_writer_killed_mid_write_on_postgresql_leaves_old_or_new_never_a_mix(postgres_url: str) -> None:
    threshold = SIZE * 2  # inline: the bytes are in the row (bytea), all or nothing
    await _prepare(postgres_url, None, threshold)
    seen = set()
    for delay in (0.05, 0.17, 0.31):
        await asyncio.to_thread(_run_and_kill, postgres_url, None, threshold, delay)
        seen.add(await _check(postgres_url, None, threshold))
    assert seen - {ord("@")}, "the writer's commits were lost"
