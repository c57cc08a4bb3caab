"""The guest's patterns on RE2: hostile regexes and globs cost linear time and leave the event
loop free; every bound is enforced at and past its edge with a clear error."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from typing import Any, TypeVar

import pytest

from workspace import InvalidArgument, LimitExceeded, Workspace, call_tool, replace_in_files, search_text
from workspace import _patterns
from workspace._paths import compile_glob, normalize_glob

T = TypeVar("T")
STALL_BOUND_S = 1.0  # the 50 ms, with room for a loaded machine; unfixed stalls were hours


async def slowest_tick_during(work: Awaitable[T]) -> tuple[T, float]:
    """Run ``work`` while a ticker measures the event loop's longest unresponsive stretch."""
    task = asyncio.ensure_future(work)
    slowest = 0.0
    while not task.done():
        started = time.perf_counter()
        await asyncio.sleep(0.002)
        slowest = max(slowest, time.perf_counter() - started)
    return await task, slowest


async def test_catastrophic_regex_search_leaves_the_event_loop_free(ws: Workspace) -> None:
    # The finding's program, 14 characters longer: unfixed, 2**14 times its 4.4 s.
    await ws.write_file("/r.txt", "a" * 40 + "!")
    found, slowest = await slowest_tick_during(search_text(ws, "(a+)+$", regex=True))
    assert found == [] and slowest < STALL_BOUND_S
    result, slowest = await slowest_tick_during(replace_in_files(ws, "(a+)+$", "x", regex=True))
    assert result["total_files"] == 0 and slowest < STALL_BOUND_S
    out, slowest = await slowest_tick_during(call_tool(ws, "grep", {"query": "(a+)+$", "case_sensitive": True}))
    assert out["total_matches"] == 0 and slowest < STALL_BOUND_S


async def test_many_double_stars_over_a_deep_path_leave_the_event_loop_free(ws: Workspace) -> None:
    deep = "/" + "/".join(["d"] * 60) + "/ax"
    await ws.write_file(deep, "x")
    found, slowest = await slowest_tick_during(ws.glob("/" + "**/" * 10 + "b*x"))
    assert found == [] and slowest < STALL_BOUND_S
    assert [s.path for s in await ws.glob("/" + "**/" * 10 + "a*x")] == [deep]


def test_regex_size_bound_at_and_past_the_edge() -> None:
    _patterns.compile_regex("a" * _patterns.MAX_REGEX_CHARS)
    with pytest.raises(LimitExceeded, match="the regular expression is 4097 characters; the limit is 4096"):
        _patterns.compile_regex("a" * (_patterns.MAX_REGEX_CHARS + 1))
    with pytest.raises(LimitExceeded, match="compiles to more than"):
        _patterns.compile_regex(r"\pL{1000}")


@pytest.mark.parametrize(("count", "allowed"), [(10, True), (11, False)])
def test_glob_double_star_bound_at_and_past_the_edge(count: int, allowed: bool) -> None:
    pattern = normalize_glob("/" + "**/" * count + "*.py")
    if allowed:
        assert compile_glob(pattern).matches("/a/b.py")
    else:
        with pytest.raises(LimitExceeded, match=f"the glob has {count} '\\*\\*' segments; the limit is 10"):
            compile_glob(pattern)


@pytest.mark.parametrize("opener", ["{", "["])
def test_glob_group_bound_at_and_past_the_edge(opener: str) -> None:
    compile_glob(normalize_glob("/" + opener * _patterns.MAX_GLOB_GROUPS))
    with pytest.raises(LimitExceeded, match=f"the glob has 65 '\\{opener}'; the limit is 64"):
        compile_glob(normalize_glob("/" + opener * (_patterns.MAX_GLOB_GROUPS + 1)))


async def test_a_search_past_its_time_bound_stops_with_efbig(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    await ws.write_file("/a.txt", "needle\n" * 10)
    monkeypatch.setattr(_patterns, "SCAN_SECONDS", 0.0)
    with pytest.raises(LimitExceeded, match="ran past its 0 s bound"):
        await search_text(ws, "needle")
    out = await call_tool(ws, "grep", {"query": "needle"})
    assert out == {"error": "EFBIG: the pattern search ran past its 0 s bound; narrow include or the pattern"}


async def test_lookaround_and_backreferences_are_a_clear_einval(ws: Workspace) -> None:
    await ws.write_file("/a.txt", "foo")
    for pattern in ("(?<=f)oo", r"(o)\1"):
        with pytest.raises(InvalidArgument, match="RE2, which has no lookaround or backreferences"):
            await search_text(ws, pattern, regex=True)
    assert (await call_tool(ws, "grep", {"query": "(?=x)"}))["error"].startswith("Invalid regex: (?=x) (")


@pytest.mark.parametrize(("argument", "value"), [("max_results", 10_001), ("max_results", 0), ("context", 101)])
async def test_search_result_and_context_bounds(ws: Workspace, argument: str, value: int) -> None:
    await ws.write_file("/a.txt", "x")
    options: dict[str, Any] = {argument: value}
    with pytest.raises(InvalidArgument, match=argument):
        await search_text(ws, "x", **options)
    edge: dict[str, Any] = {argument: 10_000 if argument == "max_results" else 100}
    assert len(await search_text(ws, "x", **edge)) == 1


async def test_whole_word_columns_and_templates_are_unicode_aware(ws: Workspace) -> None:
    await ws.write_file("/u.txt", "é foo éfoo foo_ foo\n")
    hits = await search_text(ws, "foo", whole_word=True)
    assert [(h["column"], h["match"]) for h in hits] == [(3, "foo"), (17, "foo")]
    hits = await search_text(ws, "FOO", case_sensitive=False)
    assert [h["column"] for h in hits] == [3, 8, 12, 17]
    result = await replace_in_files(ws, r"(f)(o+)", r"\2\g<1>", regex=True)
    assert result["total_replacements"] == 4
    assert await ws.read_file("/u.txt") == "é oof éoof oof_ oof\n"
    await replace_in_files(ws, "x*", "-", regex=True)
    assert (await ws.read_file("/u.txt")).startswith("-é- -o-o-f-")


async def test_search_reads_in_batches_and_stops_at_max_results(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    from workspace import edits

    for index in range(6):
        await ws.write_file(f"/f{index}.txt", f"hit {index}\n" + "x" * 100)
    everything = await search_text(ws, "hit")
    monkeypatch.setattr(edits, "SCAN_BATCH_BYTES", 150)  # one file a batch
    assert await search_text(ws, "hit") == everything and len(everything) == 6
    assert [h["path"] for h in await search_text(ws, "hit", max_results=4)] == [f"/f{i}.txt" for i in range(4)]
    assert (await replace_in_files(ws, "hit", "HIT"))["total_files"] == 6


async def test_replace_touching_more_than_a_call_may_write_is_refused_before_planning(store: Any) -> None:
    from workspace import QuotaExceeded, Quotas

    for index in range(3):
        await store.workspace("q").write_file(f"/f{index}.txt", "hit" + "x" * 97)
    ws = store.workspace("q", quotas=Quotas(call_bytes=250))
    with pytest.raises(QuotaExceeded, match="300 bytes written by one call"):
        await replace_in_files(ws, "hit", "HIT", dry_run=True)
    assert (await store.workspace("q").read_file("/f0.txt") or "").startswith("hit")
