"""The state.* edit helpers of workspace.edits: acceptance cases 21-24 and cumulative plans."""

from typing import Any

import pytest

from workspace import (
    EditBatchError,
    InvalidArgument,
    NotFound,
    Workspace,
    apply_edits,
    diff,
    plan_edits,
    read_json,
    replace_in_files,
    search_text,
    write_json,
)


async def test_write_json_uses_two_space_indent_and_trailing_newline(ws: Workspace) -> None:  # case 21
    await write_json(ws, "/config.json", {"feature": True, "retries": 3})
    assert await ws.read_file("/config.json") == '{\n  "feature": true,\n  "retries": 3\n}\n'
    assert await read_json(ws, "/config.json") == {"feature": True, "retries": 3}


async def test_read_json_errors(ws: Workspace) -> None:
    with pytest.raises(NotFound):
        await read_json(ws, "/none.json")
    await ws.write_file("/bad.json", "{nope")
    with pytest.raises(InvalidArgument):
        await read_json(ws, "/bad.json")


async def test_search_text_columns_and_replace_count(ws: Workspace) -> None:  # case 22
    await ws.write_file("/s.txt", "alpha beta alpha")
    hits = await search_text(ws, "alpha")
    assert [(h["path"], h["line"], h["column"], h["match"]) for h in hits] == [
        ("/s.txt", 1, 1, "alpha"), ("/s.txt", 1, 12, "alpha"),
    ]  # fmt: skip
    assert hits[0]["line_text"] == "alpha beta alpha"
    result = await replace_in_files(ws, "alpha", "omega")
    assert result["total_replacements"] == 2
    assert await ws.read_file("/s.txt") == "omega beta omega"


async def test_search_text_options(ws: Workspace) -> None:
    await ws.write_file("/o.txt", "Cat\ncat concat\ndog")
    assert len(await search_text(ws, "cat")) == 2
    assert len(await search_text(ws, "cat", case_sensitive=False)) == 3
    assert len(await search_text(ws, "cat", case_sensitive=False, whole_word=True)) == 2
    hits = await search_text(ws, "d.g", regex=True, context=1)
    assert hits[0]["before"] == ["cat concat"] and hits[0]["after"] == []
    with pytest.raises(InvalidArgument):
        await search_text(ws, "")
    with pytest.raises(InvalidArgument):
        await search_text(ws, "(", regex=True)


async def test_plan_edits_writes_nothing_and_apply_writes_both(ws: Workspace) -> None:  # case 23
    await ws.write_file("/code.py", "x = foo()\n")
    instructions: list[dict[str, Any]] = [
        {"kind": "replace", "path": "/code.py", "search": "foo", "replacement": "bar"},
        {"kind": "write_json", "path": "/state.json", "value": {"count": 2}},
    ]
    plan = await plan_edits(ws, instructions)
    assert plan["total_changed"] == 2 and plan["total_instructions"] == 2
    assert await ws.read_file("/code.py") == "x = foo()\n"
    assert await ws.exists("/state.json") is False
    assert "+x = bar()" in plan["edits"][0]["diff"]
    await apply_edits(ws, plan)
    assert await ws.read_file("/code.py") == "x = bar()\n"
    assert await read_json(ws, "/state.json") == {"count": 2}


async def test_instructions_on_one_file_build_on_each_other(ws: Workspace) -> None:
    await ws.write_file("/chain.txt", "a")
    plan = await plan_edits(ws, [
        {"kind": "replace", "path": "/chain.txt", "search": "a", "replacement": "b"},
        {"kind": "replace", "path": "/chain.txt", "search": "b", "replacement": "c"},
    ])  # fmt: skip
    assert [e["content"] for e in plan["edits"]] == ["b", "c"]
    await apply_edits(ws, plan)
    assert await ws.read_file("/chain.txt") == "c"


async def test_replace_on_missing_file_is_enoent_and_literal_replacement_is_verbatim(ws: Workspace) -> None:
    with pytest.raises(NotFound):
        await plan_edits(ws, [{"kind": "replace", "path": "/none", "search": "a", "replacement": "b"}])
    await ws.write_file("/v.txt", "price")
    await apply_edits(ws, [{"kind": "replace", "path": "/v.txt", "search": "price", "replacement": r"$& \1"}])
    assert await ws.read_file("/v.txt") == r"$& \1"


async def test_batch_whose_second_write_fails_rolls_back_everything(ws: Workspace) -> None:  # case 24
    await ws.write_file("/one.txt", "one")
    await ws.write_file("/two.txt", "two")
    plan = await plan_edits(ws, [
        {"kind": "replace", "path": "/one.txt", "search": "one", "replacement": "ONE"},
        {"kind": "write", "path": "/new.txt", "content": "created"},
        {"kind": "replace", "path": "/two.txt", "search": "two", "replacement": "TWO"},
    ])  # fmt: skip
    # Between planning and applying, /two.txt becomes a directory, so its write fails.
    await ws.delete_file("/two.txt")
    await ws.mkdir("/two.txt")
    with pytest.raises(EditBatchError) as exc:
        await apply_edits(ws, plan)
    assert exc.value.rolled_back is True
    assert exc.value.code == "EISDIR"
    assert exc.value.operation == {"index": 2, "kind": "replace", "path": "/two.txt"}
    assert await ws.read_file("/one.txt") == "one"
    assert await ws.exists("/new.txt") is False


async def test_without_rollback_earlier_edits_stay(ws: Workspace) -> None:
    await ws.write_file("/keep.txt", "a")
    await ws.mkdir("/blocked")
    plan = await plan_edits(ws, [{"kind": "write", "path": "/keep.txt", "content": "b"}])
    plan["edits"].append({"instruction": {"kind": "write"}, "path": "/blocked", "changed": True, "content": "x"})
    with pytest.raises(EditBatchError) as exc:
        await apply_edits(ws, plan, rollback_on_error=False)
    assert exc.value.rolled_back is False
    assert await ws.read_file("/keep.txt") == "b"


async def test_dry_run_and_unchanged_files_are_skipped(ws: Workspace) -> None:
    await ws.write_file("/same.txt", "same")
    result = await apply_edits(ws, [{"kind": "write", "path": "/same.txt", "content": "same"}])
    assert result["total_changed"] == 0 and result["applied"] == []
    dry = await replace_in_files(ws, "same", "other", dry_run=True)
    assert dry["total_replacements"] == 1 and dry["applied"] == []
    assert await ws.read_file("/same.txt") == "same"


async def test_bad_instructions_are_rejected_clearly(ws: Workspace) -> None:
    with pytest.raises(InvalidArgument, match="kind must be"):
        await plan_edits(ws, [{"kind": "chmod", "path": "/x"}])
    with pytest.raises(InvalidArgument):
        await plan_edits(ws, [{"kind": "write", "path": "/x", "content": 5}])


async def test_diff_helper_compares_two_files(ws: Workspace) -> None:
    await ws.write_file("/a", "1\n2\n")
    await ws.write_file("/b", "1\n3\n")
    assert "-2\n+3\n" in await diff(ws, "/a", "/b")


async def test_apply_refuses_to_clobber_a_file_changed_since_planning(ws: Workspace) -> None:
    await ws.write_file("/a.txt", "a")
    await ws.write_file("/b.txt", "b")
    plan = await plan_edits(ws, [
        {"kind": "write", "path": "/a.txt", "content": "A"},
        {"kind": "write", "path": "/b.txt", "content": "B"},
    ])  # fmt: skip
    await ws.write_file("/b.txt", "someone else")
    with pytest.raises(EditBatchError) as exc:
        await apply_edits(ws, plan)
    assert exc.value.code == "ECONFLICT" and exc.value.rolled_back
    assert await ws.read_file("/a.txt") == "a"
    assert await ws.read_file("/b.txt") == "someone else"


async def test_conditional_write_is_compare_and_set(ws: Workspace) -> None:
    from workspace import Conflict

    created = await ws.write_file("/cas.txt", "one", if_version=0)
    with pytest.raises(Conflict):
        await ws.write_file("/cas.txt", "again", if_version=0)
    await ws.write_file("/cas.txt", "two", if_version=created.version)
    with pytest.raises(Conflict):
        await ws.write_file("/cas.txt", "stale", if_version=created.version)
    assert await ws.read_file("/cas.txt") == "two"
