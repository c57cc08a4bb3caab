"""Binding a stored connector to an execution: a bound connector is reused while its row is
unchanged, and a change made through another store on the same database (another service
process) is what the next execution binds."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from codemode import CodeModeStore, ConnectorNotFound, Connectors


def _spec(operation: str) -> dict[str, Any]:
    return {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
            "paths": {"/things": {"get": {"operationId": operation}}}}


def _methods(bound: list[Any]) -> set[str]:
    return {tool.name for one in bound for tool in one.tools}


async def test_a_connector_changed_by_another_process_is_bound_as_it_is_now(tmp_path: Path) -> None:
    body = {"type": "openapi", "base_url": "http://127.0.0.1:9"}
    async with await CodeModeStore.open(tmp_path / "db") as mine, \
            await CodeModeStore.open(tmp_path / "db") as theirs, httpx.AsyncClient() as http:
        here, there = Connectors(mine, tmp_path / "keys", http), Connectors(theirs, tmp_path / "keys", http)
        await here.put("default", "things", {**body, "spec": _spec("listThings")})
        first = await here.bind("default", ["things"])
        assert _methods(first) == {"listThings", "request"}
        assert await here.bind("default", ["things"]) == first  # unchanged: the same binding

        await there.put("default", "things", {**body, "spec": _spec("countThings")})
        assert _methods(await here.bind("default", ["things"])) == {"countThings", "request"}

        await there.delete("default", "things")
        with pytest.raises(ConnectorNotFound):
            await here.bind("default", ["things"])
        await here.close()
        await there.close()


async def test_the_guest_sees_the_declarations_of_the_connector_as_it_is_now(tmp_path: Path) -> None:
    # A connector's rendered declarations are kept while its binding is; a changed
    # connector binds new methods, whose declarations are what the next execution gets.
    from codemode.calls import ExecutionPlan

    body = {"type": "openapi", "base_url": "http://127.0.0.1:9"}
    async with await CodeModeStore.open(tmp_path / "db") as store, httpx.AsyncClient() as http:
        connectors = Connectors(store, tmp_path / "keys", http)
        await connectors.put("default", "things", {**body, "spec": _spec("listThings")})
        first = ExecutionPlan.build([], connectors=await connectors.bind("default", ["things"]))
        again = ExecutionPlan.build([], connectors=await connectors.bind("default", ["things"]))
        assert "def listThings(" in first.guest_docs()["things"]
        assert again.guest_docs() == first.guest_docs()

        await connectors.put("default", "things", {**body, "spec": _spec("countThings")})
        changed = ExecutionPlan.build([], connectors=await connectors.bind("default", ["things"]))
        docs = changed.guest_docs()["things"]
        assert "def countThings(" in docs and "listThings" not in docs
        await connectors.close()
