"""Concurrency: parallel writers and parallel snapshot/write-back never lose an update."""

import asyncio
from pathlib import Path

from workspace import Workspace, WorkspaceStore, materialise


async def test_parallel_appends_from_two_connections_keep_every_piece(database: str, tmp_path: Path) -> None:
    # Two stores on one file behave like two service processes.
    async with await WorkspaceStore.open(database, tmp_path / "blobs", spill_threshold=200) as one:
        async with await WorkspaceStore.open(database, tmp_path / "blobs", spill_threshold=200) as two:
            writers = [one.workspace(), two.workspace()]
            await asyncio.gather(
                *(writers[i % 2].append_file("/log.txt", f"<{i}>") for i in range(60)),
                *(writers[i % 2].write_file(f"/dir{i % 3}/f{i}.txt", str(i)) for i in range(30)),
            )
            text = await one.workspace().read_file("/log.txt")
            assert text is not None
            assert sorted(text.replace("<", " ").replace(">", " ").split(), key=int) == [str(i) for i in range(60)]
            assert (await one.workspace().info())["file_count"] == 31
            st = await two.workspace().stat("/log.txt")
            assert st is not None and st.storage == "blob"  # appends crossed the threshold


async def _agent(ws: Workspace, n: int) -> dict[str, object]:
    snap = await ws.snapshot()
    with materialise(snap) as root:
        counter = Path(root) / "counter.txt"
        counter.write_text(str(int(counter.read_text()) + 1))
        (Path(root) / f"agent-{n}.txt").write_text(f"agent {n}")
        await asyncio.sleep(0.001 * (n % 3))  # let the others interleave
        return await ws.write_back(snap, root)


async def test_parallel_snapshot_write_backs_lose_no_update(database: str, tmp_path: Path) -> None:
    async with await WorkspaceStore.open(database, tmp_path / "blobs") as one:
        async with await WorkspaceStore.open(database, tmp_path / "blobs") as two:
            await one.workspace().write_file("/counter.txt", "0")
            reports = await asyncio.gather(*(_agent([one, two][n % 2].workspace(), n) for n in range(12)))
            applied = sum("/counter.txt" in r["changed_files"]["updated"] for r in reports)  # type: ignore[index]
            conflicted = sum(any(c["path"] == "/counter.txt" for c in r["conflicts"]) for r in reports)  # type: ignore[attr-defined]
            assert applied + conflicted == 12
            assert conflicted > 0, "the interleaving should have produced at least one conflict"
            # Each applied increment built on the previous one: nothing silently overwritten.
            assert await one.workspace().read_file("/counter.txt") == str(applied)
            for n in range(12):
                assert await two.workspace().read_file(f"/agent-{n}.txt") == f"agent {n}"


async def test_write_back_racing_direct_writers(ws: Workspace) -> None:
    await ws.write_file("/doc.txt", "base")
    snap = await ws.snapshot()
    with materialise(snap) as root:
        (Path(root) / "doc.txt").write_text("script edit")
        results = await asyncio.gather(ws.write_back(snap, root), ws.write_file("/doc.txt", "request edit"))
    report = results[0]
    final = await ws.read_file("/doc.txt")
    if report["changed_files"]["updated"] == ["/doc.txt"]:
        assert final == "request edit"  # the request came after the write-back committed
    else:
        assert [c["path"] for c in report["conflicts"]] == ["/doc.txt"] and final == "request edit"


async def test_a_small_write_waits_off_the_loop_while_another_process_holds_the_write_lock(
        tmp_path: Path) -> None:
    import sqlite3

    async with await WorkspaceStore.open(tmp_path / "ws.db", tmp_path / "blobs") as store:
        ws = store.workspace()
        await ws.write_file("/f.txt", "first")  # quick: the file is free
        holder = sqlite3.connect(tmp_path / "ws.db", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # another process writing, as far as SQLite knows
        try:
            writing = asyncio.create_task(ws.write_file("/f.txt", "second"))
            for _ in range(20):  # the loop keeps turning: the write waits on the thread
                await asyncio.sleep(0.005)
            assert not writing.done()
            holder.execute("COMMIT")
            assert (await writing).size == len("second")
        finally:
            holder.close()
        assert await ws.read_file("/f.txt") == "second"
