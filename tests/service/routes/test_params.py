"""The names OpenAPI documents are exactly the names the stores accept: a client (or a
fuzzer) generated from the schema neither sends a name the service refuses nor is told a
name is wrong that the service would take."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from codemode import ToolDefinitionError, Toolset, valid_snippet_name
from sandbox.service.routes.params import (
    SNIPPET_NAME,
    TOOLSET_NAME,
    TOOLSET_RESERVED,
    WORKSPACE_NAME,
)
from workspace import InvalidArgument, WorkspaceStore

NAMES = ["a", "A1", "0", "_x", ".a", "-a", "a.b", "a-b", "a_b", "a b", "a/b", "é", "", "a\n",
         "x" * 63, "x" * 64, "x" * 65, "x" * 127, "x" * 128, "x" * 129, "list", "state", "True"]


def _documented(pattern: str, name: str) -> bool:
    # OpenAPI patterns are ECMA-262 regexes, where $ is the end of the text; in Python's re
    # it also matches before a final newline ("a\n"), so read it as \Z here.
    return re.match(pattern.replace("$", r"\Z"), name) is not None


def _toolset_accepts(name: str) -> bool:
    try:
        Toolset.from_dict({"name": name, "tools": []})
    except ToolDefinitionError:
        return False
    return True


@pytest.mark.parametrize("name", NAMES)
def test_toolset_names(name: str) -> None:
    documented = _documented(TOOLSET_NAME, name) and name not in TOOLSET_RESERVED
    assert documented == _toolset_accepts(name)


@pytest.mark.parametrize("name", NAMES)
def test_snippet_names(name: str) -> None:
    assert _documented(SNIPPET_NAME, name) == valid_snippet_name(name)


async def test_workspace_names(tmp_path: Path) -> None:
    store = await WorkspaceStore.open(tmp_path / "db", tmp_path / "blobs")
    try:
        for name in NAMES:
            try:
                store.workspace(name)
                accepted = True
            except InvalidArgument:
                accepted = False
            assert _documented(WORKSPACE_NAME, name) == accepted, repr(name)
    finally:
        await store.close()
