"""The model-facing tools of workspace.tools: acceptance cases 25-36 plus messages and limits."""

from typing import Any

import pytest

from workspace import InvalidArgument, NotFound, Workspace, call_tool


async def tool(ws: Workspace, name: str, **args: Any) -> dict[str, Any]:
    return await call_tool(ws, name, args)


async def test_read_numbers_lines(ws: Workspace) -> None:  # case 25
    await ws.write_file("/r.txt", "line1\nline2\nline3")
    out = await tool(ws, "read", path="/r.txt")
    assert out["total_lines"] == 3
    assert "1\tline1" in out["content"]
    assert "from_line" not in out


async def test_read_offset_and_limit(ws: Workspace) -> None:  # case 26
    await ws.write_file("/ten.txt", "\n".join(f"l{i}" for i in range(1, 11)))
    out = await tool(ws, "read", path="/ten.txt", offset=3, limit=2)
    assert (out["from_line"], out["to_line"]) == (3, 4)
    assert out["content"] == "3\tl3\n4\tl4"


async def test_read_png_is_an_image(ws: Workspace) -> None:  # case 27
    png = b"\x89PNG\r\n\x1a\n"
    await ws.write_bytes("/i.png", png, "image/png")
    out = await tool(ws, "read", path="/i.png")
    assert out["kind"] == "image" and out["size_bytes"] == 8 and out["media_type"] == "image/png"
    assert out["data"] == "iVBORw0KGgo="


async def test_read_sniffs_pdf_and_reports_binary(ws: Workspace) -> None:  # case 28
    await ws.write_bytes("/doc", b"%PDF-1.4\n")
    assert (await tool(ws, "read", path="/doc"))["kind"] == "file"
    await ws.write_bytes("/blob", bytes([0x00, 0x9F, 0x92, 0x96]))
    out = await tool(ws, "read", path="/blob")
    assert out["kind"] == "binary" and out["unsupported"] is True


async def test_read_errors_and_truncation(ws: Workspace) -> None:
    assert await tool(ws, "read", path="/nope") == {"error": "File not found: /nope"}
    await ws.mkdir("/d")
    assert await tool(ws, "read", path="/d") == {"error": "/d is a directory, not a file"}
    await ws.write_file("/wide.txt", "x" * 2500)
    assert (await tool(ws, "read", path="/wide.txt"))["content"] == "1\t" + "x" * 2000 + "... (truncated)"
    await ws.write_file("/tall.txt", "y\n" * 2005)
    out = await tool(ws, "read", path="/tall.txt")
    assert out["content"].endswith("\n... (5 more lines truncated)")
    assert out["content"].count("\n") == 2000
    await ws.write_bytes("/huge.txt", b"z" * (4 * 1024 * 1024), "text/plain")
    assert "too large" in (await tool(ws, "read", path="/huge.txt"))["error"]


async def test_write_reports_bytes_and_lines(ws: Workspace) -> None:  # case 29
    assert await tool(ws, "write", path="/w.txt", content="hello world") == {
        "path": "/w.txt", "bytes_written": 11, "lines": 1,
    }  # fmt: skip
    assert (await tool(ws, "write", path="/deep/u.txt", content="é\n"))["bytes_written"] == 3


async def test_edit_ambiguous_and_create(ws: Workspace) -> None:  # case 30
    await ws.write_file("/e.txt", "aa bb aa")
    out = await tool(ws, "edit", path="/e.txt", old_string="aa", new_string="cc")
    assert "2 times" in out["error"]
    created = await tool(ws, "edit", path="/new.txt", old_string="", new_string="fresh")
    assert created == {"path": "/new.txt", "created": True, "lines": 1}
    again = await tool(ws, "edit", path="/new.txt", old_string="", new_string="x")
    assert again["error"].startswith("File already exists.")


async def test_edit_counts_overlapping_occurrences(ws: Workspace) -> None:
    await ws.write_file("/o.txt", "aaa")
    assert "2 times" in (await tool(ws, "edit", path="/o.txt", old_string="aa", new_string="b"))["error"]


async def test_edit_fuzzy_whitespace_match(ws: Workspace) -> None:  # case 31
    await ws.write_file("/f.txt", "say hello   world now")
    out = await tool(ws, "edit", path="/f.txt", old_string="hello world", new_string="bye")
    assert out["replaced"] is True and out["fuzzy_match"] is True
    assert await ws.read_file("/f.txt") == "say bye now"
    await ws.write_file("/g.txt", "hello   world\nhello\tworld\n")
    out = await tool(ws, "edit", path="/g.txt", old_string="hello world", new_string="x")
    assert "multiple locations" in out["error"]
    out = await tool(ws, "edit", path="/g.txt", old_string="absent", new_string="x")
    assert out["error"].startswith("old_string not found in file.")


async def test_edit_fuzzy_match_spans_crlf(ws: Workspace) -> None:
    await ws.write_file("/crlf.txt", "a\r\n  b\r\nc")
    out = await tool(ws, "edit", path="/crlf.txt", old_string="a\n b", new_string="X")
    assert out.get("fuzzy_match") is True
    assert await ws.read_file("/crlf.txt") == "X\r\nc"


async def test_edit_inserts_new_string_verbatim(ws: Workspace) -> None:  # case 32
    await ws.write_file("/v.txt", "price: X")
    out = await tool(ws, "edit", path="/v.txt", old_string="X", new_string=r"$& and \1 and $1")
    assert out == {"path": "/v.txt", "replaced": True, "lines": 1}
    assert await ws.read_file("/v.txt") == r"price: $& and \1 and $1"


async def test_find_counts_matches(ws: Workspace) -> None:  # case 33
    for name in ("a.ts", "b.ts", "c.js"):
        await ws.write_file(f"/src/{name}", "")
    out = await tool(ws, "find", pattern="/src/**/*.ts")
    assert out["count"] == 2 and out["files"] == ["/src/a.ts", "/src/b.ts"]
    assert (await tool(ws, "find", pattern="/*"))["files"] == ["/src/"]


async def test_find_truncates_at_200(ws: Workspace) -> None:
    for i in range(205):
        await ws.write_file(f"/many/{i:03}.txt", "")
    out = await tool(ws, "find", pattern="/many/*.txt")
    assert (out["count"], len(out["files"]), out["truncated"], out["showing"]) == (205, 200, True, 200)


async def test_grep_case_sensitivity(ws: Workspace) -> None:  # case 34
    await ws.write_file("/g.txt", "Hello\nhello\nHELLO\n")
    out = await tool(ws, "grep", query="hello", fixed_string=True)
    assert out["total_matches"] == 3
    assert out["matches"][0] == "/g.txt:1: Hello"
    out = await tool(ws, "grep", query="hello", fixed_string=True, case_sensitive=True)
    assert out["matches"] == ["/g.txt:2: hello"]
    assert (out["files_searched"], out["files_with_matches"]) == (1, 1)


async def test_grep_context_lines(ws: Workspace) -> None:  # case 35
    await ws.write_file("/c.txt", "before\nmatch here\nafter\nfar")
    out = await tool(ws, "grep", query="match", context_lines=1)
    assert out["matches"] == [{"file": "/c.txt", "line": 2, "context": "  1\tbefore\n> 2\tmatch here\n  3\tafter"}]


async def test_grep_skips_files_over_one_megabyte(ws: Workspace) -> None:  # case 36
    await ws.write_file("/big.txt", "needle\n" + "x" * 1_100_000)
    await ws.write_file("/small.txt", "needle")
    out = await tool(ws, "grep", query="needle")
    assert out["files_skipped"] == 1
    assert out["note"] == "1 file(s) skipped (larger than 1 MB)"
    assert out["matches"] == ["/small.txt:1: needle"]


async def test_grep_invalid_regex_include_and_cap(ws: Workspace) -> None:
    assert await tool(ws, "grep", query="(") == {
        "error": "Invalid regex: ( (missing ): ( (patterns run on RE2, which has no lookaround or backreferences))"}
    await ws.write_file("/a.py", "hit\n" * 250)
    await ws.write_file("/b.md", "hit")
    out = await tool(ws, "grep", query="hit", include="**/*.md")
    assert out["total_matches"] == 1
    out = await tool(ws, "grep", query="hit")
    assert len(out["matches"]) == 200 and out["truncated"] is True and out["total_matches"] == 251


async def test_list_formats_sizes(ws: Workspace) -> None:
    await ws.write_file("/l/small.txt", "abc")
    await ws.write_bytes("/l/kb.bin", b"k" * 1536)
    await ws.write_bytes("/l/mb.bin", b"m" * (3 * 1024 * 1024 // 2))
    await ws.mkdir("/l/sub")
    await ws.symlink("small.txt", "/l/link")
    out = await tool(ws, "list", path="/l")
    assert out == {
        "path": "/l", "count": 5,
        "entries": ["sub/", "kb.bin (1.5 KB)", "mb.bin (1.5 MB)", "small.txt (3 B)", "link"],
    }  # fmt: skip
    assert (await tool(ws, "list", path="/l", limit=1, offset=1))["entries"] == ["kb.bin (1.5 KB)"]
    assert "error" in await tool(ws, "list", path="/absent")


async def test_delete_tool(ws: Workspace) -> None:
    await ws.write_file("/d/f.txt", "x")
    assert await tool(ws, "delete", path="/missing") == {"deleted": "/missing"}
    out = await tool(ws, "delete", path="/d")
    assert out["error"].startswith("ENOTEMPTY")
    assert await tool(ws, "delete", path="/d", recursive=True) == {"deleted": "/d"}
    assert not await ws.exists("/d")
    assert (await tool(ws, "delete", path="/"))["error"].startswith("EPERM")


async def test_bad_arguments_raise_and_unknown_tools_are_not_found(ws: Workspace) -> None:
    with pytest.raises(InvalidArgument, match="offset"):
        await tool(ws, "read", path="/x", offset=0)
    with pytest.raises(InvalidArgument):
        await tool(ws, "write", path="/x")
    with pytest.raises(InvalidArgument):
        await tool(ws, "list", limit=1001)
    with pytest.raises(NotFound):
        await tool(ws, "chmod", path="/x")
    with pytest.raises(InvalidArgument):
        await call_tool(ws, "read", ["/x"])


async def test_tool_path_errors_are_values(ws: Workspace) -> None:
    out = await tool(ws, "write", path="/nul\x00", content="x")
    assert out["error"].startswith("EINVAL")
    await ws.write_file("/file", "x")
    assert (await tool(ws, "write", path="/file/child", content="x"))["error"].startswith("ENOTDIR")


async def test_grep_reads_spilled_files_and_exact_include(tmp_path: Any) -> None:
    from workspace import WorkspaceStore

    async with await WorkspaceStore.open(tmp_path / "db", tmp_path / "blobs", spill_threshold=20) as store:
        ws = store.workspace()
        await ws.write_file("/spilled.txt", "padding padding padding\nneedle\n")
        await ws.write_file("/inline.txt", "needle")
        out = await tool(ws, "grep", query="needle")
        assert out["matches"] == ["/inline.txt:1: needle", "/spilled.txt:2: needle"]
        out = await tool(ws, "grep", query="needle", include="/spilled.txt")
        assert out["matches"] == ["/spilled.txt:2: needle"]
