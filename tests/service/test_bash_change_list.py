"""The bash tool treats the guest's change list as hostile: one that does not fit the
snapshot is refused whole, as a structured result (never an exception, never half a
write-back); a guest that says its tree hit a limit gets nothing written back.

The guest here is a stand-in that answers ``run_bash`` with a crafted response, as a
compromised guest could; what the real guest sends is covered by test_bash_tool.py.
"""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any, cast

import pytest_asyncio

from sandbox import AsyncSandbox, Limits
from sandbox.service import run_bash
from workspace import Workspace, WorkspaceStore


class CraftedGuest:
    """Answers every bash run with ``response``; remembers the request it was sent."""

    def __init__(self, response: dict[str, Any]) -> None:
        self.response = response
        self.request: Mapping[str, Any] = {}

    async def run_bash(self, request: Mapping[str, Any], root: str | None, limits: Limits) -> dict[str, Any]:
        assert root is None  # nothing of the host is preopened any more
        self.request = request
        return self.response


@pytest_asyncio.fixture
async def ws(tmp_path: Path) -> AsyncIterator[Workspace]:
    store = await WorkspaceStore.open(tmp_path / "db", tmp_path / "blobs")
    workspace = store.workspace("w")
    await workspace.write_file("/kept.txt", "k")
    yield workspace
    await store.close()


def answer(**fields: Any) -> dict[str, Any]:
    return {"stdout": "", "stderr": "", "exit_code": 0, **fields}


async def test_the_guest_is_sent_the_snapshot_and_scratch_in_the_request(ws: Workspace) -> None:
    guest = CraftedGuest(answer(changes={}))
    await run_bash(cast(AsyncSandbox, guest), ws, "true")
    tree = guest.request["fs"]
    assert tree["files"] == [["/kept.txt", "k", "ascii"]]
    assert tree["scratch"] == ["/tmp", "/bin", "/usr", "/dev", "/proc", "/sys"]
    assert tree["max_depth"] == 100 and tree["max_growth_bytes"] > 0


async def test_a_file_goes_as_text_only_when_its_json_is_no_longer_than_its_base64(ws: Workspace) -> None:
    contents = {"/plain.txt": b"a line of text\nand another\n", "/binary.bin": bytes(range(256)),
                "/controls.txt": b"\x01\x02" * 30, "/newlines.txt": b"\n" * 30,
                "/accented.txt": "caf\u00e9\n".encode(), "/empty.txt": b""}
    for path, content in contents.items():
        await ws.write_bytes(path, content)
    guest = CraftedGuest(answer(changes={}))
    await run_bash(cast(AsyncSandbox, guest), ws, "true")
    sent = {entry[0]: entry[1:] for entry in guest.request["fs"]["files"]}
    assert sent["/plain.txt"] == ["a line of text\nand another\n", "ascii"]
    assert sent["/empty.txt"] == ["", "ascii"]
    for path in ("/binary.bin", "/controls.txt", "/newlines.txt", "/accented.txt"):
        assert sent[path] == [base64.b64encode(contents[path]).decode()], path
    for path, (value, *encoding) in sent.items():
        as_json = len(json.dumps(value))
        assert as_json <= len(base64.b64encode(contents.get(path, b"k"))) + 2, path


async def test_a_change_list_escaping_the_workspace_is_refused_whole(ws: Workspace) -> None:
    guest = CraftedGuest(answer(changes={"files": {"/ok.txt": base64.b64encode(b"x").decode(),
                                                   "/../etc/passwd": base64.b64encode(b"x").decode()}}))
    result = await run_bash(cast(AsyncSandbox, guest), ws, "true")
    assert result["exit_code"] == 1 and result["changed_files"]["created"] == []
    assert result["errors"] == ["changes were not written back: the sandbox's change list is invalid: "
                                "'/../etc/passwd' is not normalised"]
    assert not await ws.exists("/ok.txt")


async def test_a_change_list_that_is_not_an_object_is_refused(ws: Workspace) -> None:
    result = await run_bash(cast(AsyncSandbox, CraftedGuest(answer(changes=["rm -rf /"]))), ws, "true")
    assert result["exit_code"] == 1 and result["errors"][0].startswith("changes were not written back")
    assert await ws.read_file("/kept.txt") == "k"


async def test_a_response_without_a_change_list_writes_nothing(ws: Workspace) -> None:
    result = await run_bash(cast(AsyncSandbox, CraftedGuest(answer(stdout=7))), ws, "true")
    assert result["stdout"] == "" and result["errors"] == [
        "changes were not written back: the sandbox failed internally"]


async def test_a_tree_that_hit_its_limit_writes_nothing_and_names_the_quota(ws: Workspace) -> None:
    guest = CraftedGuest(answer(exit_code=1, fs_limit={"quota": "tree_growth_bytes", "limit": 10, "attempted": 11},
                                changes={"files": {"/half.txt": base64.b64encode(b"half").decode()}}))
    result = await run_bash(cast(AsyncSandbox, guest), ws, "true")
    assert result["quota_exceeded"]["quota"] == "tree_growth_bytes"
    assert (result["quota_exceeded"]["limit"], result["quota_exceeded"]["attempted"]) == (10, 11)
    assert result["errors"] == ["changes were not written back: the script was stopped"]
    assert not await ws.exists("/half.txt")
