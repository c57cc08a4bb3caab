"""The bash tool end to end: workspace snapshot -> real isolate -> write-back (cases 37-44)."""

from __future__ import annotations

import asyncio
import base64
import gzip
import hashlib
import json
import os
import time
from pathlib import Path
from typing import AsyncIterator

import pytest
import pytest_asyncio

from loop_turns import loop_turns
from sandbox import AsyncSandbox
from sandbox.service import BashOptions, bash_tool, run_bash
from sandbox.engine import CompiledGuest
from workspace import Quotas, Workspace, WorkspaceStore

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def box(compiled_guest: CompiledGuest) -> AsyncIterator[AsyncSandbox]:
    async with AsyncSandbox(workers=2, guest=compiled_guest) as sandbox:
        yield sandbox


@pytest_asyncio.fixture(loop_scope="module")
async def ws(tmp_path: Path) -> AsyncIterator[Workspace]:
    store = await WorkspaceStore.open(tmp_path / "sandbox.db", tmp_path / "blobs")
    try:
        yield store.workspace("default")
    finally:
        await store.close()


async def test_copy_append_remove_are_written_back(box: AsyncSandbox, ws: Workspace) -> None:
    await ws.write_file("/input.txt", "one\n")
    await ws.write_file("/remove.txt", "bye\n")
    result = await run_bash(box, ws, "cp /input.txt /copy.txt && echo two >> /input.txt && rm /remove.txt")
    assert result["exit_code"] == 0, result
    changed = result["changed_files"]
    assert changed["created"] == ["/copy.txt"] and changed["updated"] == ["/input.txt"]
    assert changed["deleted"] == ["/remove.txt"]
    assert await ws.read_file("/input.txt") == "one\ntwo\n"
    assert await ws.read_file("/copy.txt") == "one\n"
    assert await ws.read_file("/remove.txt") is None


async def test_text_and_binary_files_reach_the_script_byte_for_byte(box: AsyncSandbox, ws: Workspace) -> None:
    # ASCII text travels to the guest as it is, anything else in base64 (bash_tool._file_entry)
    contents = {"/plain.txt": b"a line\nanother \"quoted\" \\ line\n", "/binary.bin": bytes(range(256)),
                "/controls.txt": b"\x01\x7f\x00" * 20, "/utf8.txt": "caf\u00e9 \u2603\n".encode()}
    for path, content in contents.items():
        await ws.write_bytes(path, content)
    result = await run_bash(box, ws, "for f in /plain.txt /binary.bin /controls.txt /utf8.txt; do "
                                     "base64 -w0 $f; echo; done; cp /binary.bin /copy.bin; cp /plain.txt /copy.txt")
    assert result["exit_code"] == 0, result
    assert result["stdout"].splitlines() == [base64.b64encode(c).decode() for c in contents.values()]
    assert await ws.read_bytes("/copy.bin") == contents["/binary.bin"]
    assert await ws.read_bytes("/copy.txt") == contents["/plain.txt"]


async def test_scratch_directories_never_reach_the_workspace(box: AsyncSandbox, ws: Workspace) -> None:
    result = await run_bash(box, ws, "ls / && echo ok > /ok.txt")
    assert result["exit_code"] == 0, result
    assert result["changed_files"]["created"] == ["/ok.txt"]
    assert result["changed_files"]["directories_created"] == []
    for scratch in ("/bin", "/usr", "/dev", "/proc", "/tmp"):
        assert not await ws.exists(scratch)


async def test_stdout_stderr_and_exit_status(box: AsyncSandbox, ws: Workspace) -> None:
    result = await run_bash(box, ws, "echo before; echo bad >&2; exit 9")
    assert (result["stdout"], result["stderr"], result["exit_code"]) == ("before\n", "bad\n", 9)


async def test_oversized_file_is_skipped_protected_and_explained(box: AsyncSandbox, ws: Workspace) -> None:
    await ws.write_file("/large.txt", "0123456789")
    options = BashOptions(max_workspace_file_bytes=3)
    result = await run_bash(box, ws, "cat /large.txt; echo new > /large.txt", options)
    assert result["skipped_files"] == ["/large.txt"]
    assert any("protected workspace file" in e for e in result["errors"])
    assert "exists in the workspace but is not available" in result["stderr"]
    assert await ws.read_file("/large.txt") == "0123456789"


async def test_skipped_files_are_listed_with_reason_and_size(box: AsyncSandbox, ws: Workspace) -> None:
    await ws.write_file("/data/big.bin", "x" * 20)
    await ws.write_file("/data/small.txt", "ok")
    result = await run_bash(box, ws, "true", BashOptions(max_workspace_file_bytes=10))
    assert result["skipped"] == [{"path": "/data/big.bin", "reason": "size_limit", "size": 20}]


async def test_ls_of_a_directory_holding_a_skipped_file_notes_it_once(box: AsyncSandbox, ws: Workspace) -> None:
    await ws.write_file("/data/big.bin", "x" * 20)
    await ws.write_file("/data/small.txt", "ok")
    result = await run_bash(box, ws, "ls /data; cd /data && ls; ls -a . > /dev/null", BashOptions(max_workspace_file_bytes=10))
    assert result["stdout"] == "small.txt\nsmall.txt\n"
    notes = [line for line in result["stderr"].splitlines() if "/data/big.bin" in line]
    assert len(notes) == 1 and "larger than the per-file limit" in notes[0] and "20 bytes" in notes[0]


async def test_file_exactly_at_the_size_limit_is_loaded(box: AsyncSandbox, ws: Workspace) -> None:
    await ws.write_file("/edge.txt", "abc")
    result = await run_bash(box, ws, "cat /edge.txt", BashOptions(max_workspace_file_bytes=3))
    assert result["stdout"] == "abc" and result["skipped_files"] == []


async def test_empty_directories_are_created_and_removed(box: AsyncSandbox, ws: Workspace) -> None:
    await ws.mkdir("/remove-empty")
    result = await run_bash(box, ws, "mkdir /created-empty && rmdir /remove-empty")
    assert result["changed_files"]["directories_created"] == ["/created-empty"]
    assert result["changed_files"]["directories_deleted"] == ["/remove-empty"]
    assert await ws.exists("/created-empty") and not await ws.exists("/remove-empty")


async def test_many_files_under_a_raised_file_limit(box: AsyncSandbox, ws: Workspace) -> None:
    for n in range(1005):
        await ws.write_file(f"/many/file-{n}.txt", str(n))
    result = await run_bash(box, ws, "cat /many/file-1004.txt", BashOptions(max_workspace_files=1100))
    assert result["stdout"] == "1004" and result["skipped_files"] == []
    limited = await run_bash(box, ws, "ls /many | wc -l")
    assert limited["stdout"].strip() == "1000" and len(limited["skipped_files"]) == 5


async def test_infinite_loop_times_out_with_124_and_the_service_stays_healthy(box: AsyncSandbox, ws: Workspace) -> None:
    started = time.perf_counter()
    result = await run_bash(box, ws, "while true; do :; done", BashOptions(timeout_ms=300))
    assert result["exit_code"] == 124 and "timed out after 300 ms" in result["stderr"]
    assert time.perf_counter() - started < 30  # it ends (the 30 s default never came into it)
    assert (await run_bash(box, ws, "echo fine"))["stdout"] == "fine\n"


async def test_sleep_past_the_timeout_is_stopped(box: AsyncSandbox, ws: Workspace) -> None:
    started = time.perf_counter()
    result = await run_bash(box, ws, "sleep 100", BashOptions(timeout_ms=300))
    assert result["exit_code"] == 124 and "timed out after 300 ms" in result["stderr"]
    assert time.perf_counter() - started < 30  # not the 100 s of the sleep


async def test_workspace_directories_named_like_scratch_survive(box: AsyncSandbox, ws: Workspace) -> None:
    await ws.write_file("/tmp/keep.txt", "k")
    await ws.write_file("/bin/tool.sh", "t")
    result = await run_bash(box, ws, "echo hi > /other.txt")
    assert result["exit_code"] == 0
    assert await ws.read_file("/tmp/keep.txt") == "k" and await ws.read_file("/bin/tool.sh") == "t"


async def test_changes_are_written_back_after_a_failing_exit(box: AsyncSandbox, ws: Workspace) -> None:
    result = await run_bash(box, ws, "echo partial > /p.txt; false")
    assert result["exit_code"] == 1 and result["changed_files"]["created"] == ["/p.txt"]


async def test_symlink_to_a_host_file_reads_nothing_from_the_host(box: AsyncSandbox, ws: Workspace) -> None:
    result = await run_bash(box, ws, "ln -s /etc/passwd x; cat x")
    assert "root:" not in result["stdout"]
    assert result["exit_code"] != 0


async def test_cd_above_root_stays_in_the_workspace(box: AsyncSandbox, ws: Workspace) -> None:
    result = await run_bash(box, ws, "cd ../../..; pwd; ls /")
    assert result["stdout"].splitlines()[0] == "/"


async def test_network_commands_say_network_is_disabled(box: AsyncSandbox, ws: Workspace) -> None:
    result = await run_bash(box, ws, "curl https://example.com")
    assert result["exit_code"] != 0 and "network access is disabled" in result["stderr"]


async def test_output_is_capped_and_marked(box: AsyncSandbox, ws: Workspace) -> None:
    result = await run_bash(box, ws, "yes | head -c 100000", BashOptions(max_output_bytes=1000))
    assert result["truncated"] is True
    assert result["stdout"].startswith("y\ny\n") and "truncated" in result["stdout"][1000:]


async def test_pipelines_with_infinite_producers_finish(box: AsyncSandbox, ws: Workspace) -> None:
    result = await run_bash(box, ws, "yes | head -3; seq 1 100000000 | head -2", BashOptions(timeout_ms=30_000))
    assert result["stdout"] == "y\ny\ny\n1\n2\n"


@pytest.mark.slow
async def test_writing_ten_thousand_files_is_reported_and_capped(box: AsyncSandbox, ws: Workspace) -> None:
    script = "mkdir d && for i in $(seq 1 10050); do : > d/f$i; done; echo done"
    result = await run_bash(box, ws, script, BashOptions(timeout_ms=120_000))
    assert result["stdout"] == "done\n", result["stderr"][-500:]
    created = len(result["changed_files"]["created"])
    assert created <= 10_000 and any("left out" in e or "10000" in e or "10,000" in e for e in result["errors"])
    assert (await ws.info())["file_count"] == created


@pytest.mark.slow
async def test_a_fifty_megabyte_file_is_written_back_whole(box: AsyncSandbox, ws: Workspace) -> None:
    result = await run_bash(box, ws, "head -c 52428800 /dev/zero > big.bin; wc -c < big.bin",
                            BashOptions(timeout_ms=120_000))
    assert result["stdout"].strip() == "52428800", result["stderr"]
    data = await ws.read_bytes("/big.bin")
    assert data is not None and len(data) == 52_428_800


async def test_names_with_newlines_round_trip(box: AsyncSandbox, ws: Workspace) -> None:
    result = await run_bash(box, ws, "touch $'a\\nb.txt'; ls | wc -l")
    assert result["exit_code"] == 0
    assert await ws.exists("/a\nb.txt")


async def test_a_nul_in_a_name_is_impossible_and_reported(box: AsyncSandbox, ws: Workspace) -> None:
    result = await run_bash(box, ws, "mkdir n && cd n && touch $'x\\0y' && ls")
    assert result["exit_code"] == 0 and result["stdout"] == "x\n"  # bash cuts the word at NUL too


async def test_fork_bomb_shape_ends_with_a_clear_error(box: AsyncSandbox, ws: Workspace) -> None:
    result = await run_bash(box, ws, ":(){ :|:& };:", BashOptions(timeout_ms=10_000))
    assert result["exit_code"] != 0 and result["stderr"]
    assert (await run_bash(box, ws, "echo ok"))["stdout"] == "ok\n"


# --- quotas (issue 12) ---------------------------------------------------------------------


def quota_ws(ws: Workspace, **quotas: int) -> Workspace:
    """Another handle (a new call) on ``ws``'s workspace, with these quotas."""
    return ws.store.workspace(ws.name, quotas=Quotas(**quotas))


async def test_a_100_kb_upload_gunzipped_to_100_mb_hits_the_call_quota(box: AsyncSandbox, ws: Workspace) -> None:
    packed = gzip.compress(b"\0" * 100_000_000, compresslevel=9)
    assert len(packed) < 150_000
    await ws.write_bytes("/big.gz", packed)
    result = await run_bash(box, ws, "gunzip -k /big.gz; wc -c < /big", BashOptions(timeout_ms=120_000))
    assert result["stdout"].strip() == "100000000", result["stderr"]
    assert result["quota_exceeded"]["quota"] == "call_bytes"
    assert result["quota_exceeded"]["limit"] == Quotas.default.call_bytes == 64 * 1024 * 1024
    assert result["changed_files"]["created"] == []
    assert any(e.startswith("Over quota, nothing was written back") for e in result["errors"])
    assert not await ws.exists("/big") and await ws.read_bytes("/big.gz") == packed


async def test_bash_call_bytes_at_and_past_the_edge(box: AsyncSandbox, ws: Workspace) -> None:
    at = await run_bash(box, quota_ws(ws, call_bytes=100_000), "head -c 60000 /dev/zero > a; head -c 40000 /dev/zero > b")
    assert "quota_exceeded" not in at and at["changed_files"]["created"] == ["/a", "/b"]
    past = await run_bash(box, quota_ws(ws, call_bytes=100_000), "head -c 60000 /dev/zero > c; head -c 40001 /dev/zero > d")
    assert past["quota_exceeded"]["attempted"] == 100_001 and past["changed_files"]["created"] == []
    assert not await ws.exists("/c") and not await ws.exists("/d")


async def test_bash_call_files_at_and_past_the_edge(box: AsyncSandbox, ws: Workspace) -> None:
    at = await run_bash(box, quota_ws(ws, call_files=5), "touch f1 f2 f3 f4 f5")
    assert "quota_exceeded" not in at and len(at["changed_files"]["created"]) == 5
    past = await run_bash(box, quota_ws(ws, call_files=5), "touch g1 g2 g3 g4 g5 g6; echo x >> f1")
    assert past["quota_exceeded"]["quota"] == "call_files"
    assert past["changed_files"]["created"] == [] and past["changed_files"]["updated"] == []
    assert (await ws.info())["file_count"] == 5 and await ws.read_file("/f1") == ""


async def test_bash_workspace_bytes_at_and_past_the_edge(box: AsyncSandbox, ws: Workspace) -> None:
    await ws.write_bytes("/held", b"x" * 600)
    at = await run_bash(box, quota_ws(ws, workspace_bytes=1000), "head -c 400 /dev/zero > more")
    assert "quota_exceeded" not in at and (await ws.info())["total_bytes"] == 1000
    past = await run_bash(box, quota_ws(ws, workspace_bytes=1000), "echo -n x > one-more")
    assert past["quota_exceeded"]["quota"] == "workspace_bytes" and not await ws.exists("/one-more")


async def test_a_script_filling_its_tree_is_stopped_and_nothing_is_written(box: AsyncSandbox, ws: Workspace) -> None:
    # Unbounded without the quota: the script keeps writing to /dev/shm (RAM) until its timeout.
    script = "echo early > /early.txt; while true; do cat /tmp/big /tmp/big > /tmp/next 2>/dev/null || yes | head -c 1000000 > /tmp/next; mv /tmp/next /tmp/big; done"
    result = await run_bash(box, quota_ws(ws, tree_growth_bytes=8 * 1024 * 1024), script,
                            BashOptions(timeout_ms=60_000))
    assert result["quota_exceeded"]["quota"] == "tree_growth_bytes", result
    assert result["exit_code"] == 1 and "the script was stopped" in result["stderr"]
    assert result["timed_out"] is False and not await ws.exists("/early.txt")
    assert (await run_bash(box, ws, "echo ok"))["stdout"] == "ok\n"  # the pool replaced the worker


async def test_a_directory_past_the_depth_limit_stops_the_script_while_it_runs(box: AsyncSandbox, ws: Workspace) -> None:
    script = 'mkdir -p $(printf "d/%.0s" {1..101}); echo early > /early.txt; sleep 20; echo late > /late.txt'
    result = await run_bash(box, ws, script, BashOptions(timeout_ms=60_000))
    assert result["stderr"] == "bash: directories nested deeper than 100 levels are refused; the script was stopped\n"
    assert result["exit_code"] == 1 and result["errors"] == ["changes were not written back: the script was stopped"]
    assert result["timed_out"] is False
    assert not await ws.exists("/early.txt") and not await ws.exists("/d")
    at_limit = await run_bash(box, ws, 'mkdir -p $(printf "d/%.0s" {1..100}); sleep 0.3; echo ok')
    assert at_limit["stdout"] == "ok\n" and len(at_limit["changed_files"]["directories_created"]) == 100


async def test_changes_lost_to_a_concurrent_writer_are_said_on_stderr_with_a_failing_status(
        box: AsyncSandbox, ws: Workspace) -> None:
    # The case: 20 appends at once, each on its own snapshot; only the first
    # write-back of a version lands, the others find the file changed under them.
    await ws.write_file("/log.txt", "")
    results = await asyncio.gather(*(run_bash(box, ws, f"echo {n} >> /log.txt") for n in range(20)))
    lost = [r for r in results if r.get("conflicts")]
    landed = [r for r in results if not r.get("conflicts")]
    assert lost, "20 appends on one version of the file must collide"
    for result in lost:
        assert result["exit_code"] == 1
        assert "/log.txt: not written back" in result["stderr"]
        assert "run it again" in result["stderr"]
    assert all(r["exit_code"] == 0 and r["stderr"] == "" for r in landed)
    lines = (await ws.read_file("/log.txt")).splitlines()
    assert len(lines) == len(landed)


async def test_a_large_tree_reaches_the_script_byte_for_byte(box: AsyncSandbox, ws: Workspace) -> None:
    # Past PIECES_FROM_BYTES the request is built in pieces (bash_tool._request_pieces).
    contents = {f"/data/{n}.bin": os.urandom(400_000) for n in range(3)}
    contents["/data/text.txt"] = b"plain \"text\"\n" * 20_000
    for path, content in contents.items():
        await ws.write_bytes(path, content)
    assert sum(map(len, contents.values())) >= bash_tool.PIECES_FROM_BYTES
    result = await run_bash(box, ws, "cd /data && sha256sum 0.bin 1.bin 2.bin text.txt")
    assert result["exit_code"] == 0, result
    assert result["stdout"].splitlines() == [
        f"{hashlib.sha256(content).hexdigest()}  {path.removeprefix('/data/')}"
        for path, content in contents.items()]


async def test_a_large_written_file_comes_back_byte_for_byte(box: AsyncSandbox, ws: Workspace) -> None:
    # Past SPLIT_FROM_CHARS the worker decodes it and sends it raw (sandbox.file_contents).
    result = await run_bash(box, ws, "head -c 300000 /dev/urandom > r.bin; sha256sum r.bin; "
                                     "printf small > s.txt")
    assert result["exit_code"] == 0, result
    data = await ws.read_bytes("/r.bin")
    assert data is not None and len(data) == 300_000
    assert result["stdout"] == f"{hashlib.sha256(data).hexdigest()}  r.bin\n"
    assert await ws.read_file("/s.txt") == "small"


async def test_a_large_request_is_the_same_json_built_while_the_loop_goes_on(ws: Workspace) -> None:
    for n in range(4):
        await ws.write_bytes(f"/f{n}.bin", os.urandom(bash_tool.YIELD_EVERY_BYTES))
    await ws.write_bytes("/a.txt", b"ascii \\ text\n" * 100)
    snap = await ws.snapshot(max_file_bytes=2 * bash_tool.YIELD_EVERY_BYTES)
    request = {"script": "ls", "cwd": "/", "env": {"A": "\u00e9"}, "stdin": "", "skipped": []}
    async with loop_turns() as turns:
        pieces = await bash_tool._request_pieces(request, snap, 1 << 20)
        assert turns() >= 4  # other work ran at least once per YIELD_EVERY_BYTES
    assert json.loads(b"".join(pieces)) == {**request, "fs": bash_tool._tree(snap, 1 << 20)}
