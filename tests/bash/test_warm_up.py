"""The build's warm-up of the bash interpreter (``bash_entry.WARM_UP``): what every fresh
isolate inherits from it, and what it must not leave behind."""

from __future__ import annotations

import json
import os
import shlex
import sys
from pathlib import Path

import pytest

import bash
import bash_entry
from bash import arith, parse, pattern, words

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("script", bash_entry.WARM_UP)
def test_each_warm_up_script_runs_cleanly_so_the_build_warms_the_paths_it_names(
        script: str, tmp_path: object) -> None:
    result = bash.run_script(script, root=str(tmp_path))
    assert (result.exit_code, result.stderr) == (0, b"")


@pytest.mark.parametrize("script", bash_entry.WARM_UP)
def test_a_warm_up_script_touches_no_file(script: str, tmp_path: object) -> None:
    root = str(tmp_path)
    bash.run_script(script, root=root)
    assert os.listdir(root) == []


@pytest.mark.parametrize("script", bash_entry.WARM_UP_ON_FILES)
def test_each_warm_up_script_on_files_runs_cleanly_over_the_warm_up_tree(script: str) -> None:
    answer = json.loads(bash_entry.run_request(json.dumps({"script": script, "fs": bash_entry.WARM_UP_TREE})))
    assert (answer["exit_code"], answer["stderr"]) == (0, "")
    assert answer["stdout"]  # each one reads the tree and says something about it


def test_the_warm_up_on_files_leaves_its_tree_as_it_found_it() -> None:
    # Whatever the scripts make is theirs (under /tmp, then removed): nothing would be
    # written back, and the tree each run loads starts from the request, never from them.
    for script in bash_entry.WARM_UP_ON_FILES:
        answer = json.loads(bash_entry.run_request(json.dumps({"script": script, "fs": bash_entry.WARM_UP_TREE})))
        changes = answer["changes"]
        assert not (changes["files"] or changes["deleted"] or changes["dirs_created"]
                    or changes["dirs_deleted"] or changes["symlinks"]), (script, changes)


def test_after_the_warm_up_the_parsers_caches_hold_nothing_of_it() -> None:
    bash_entry._warm_up()
    caches = [value for module in (arith, parse, pattern, words) for value in vars(module).values()
              if callable(getattr(value, "cache_info", None))]
    assert caches, "the parser and expander cache through functools.lru_cache"
    assert [cache.cache_info().currsize for cache in caches] == [0] * len(caches)


def test_the_warm_up_leaves_the_recursion_limit_as_it_found_it() -> None:
    # An execute in the same image relies on it: past it Python raises RecursionError,
    # where bash's raised limit let the guest's stack overflow first (a trap).
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)
    try:
        bash_entry._warm_up()
        assert sys.getrecursionlimit() == 1000
    finally:
        sys.setrecursionlimit(before)


def test_the_warm_up_runs_none_of_the_benchmarks_scripts_nor_their_patterns() -> None:
    # What the re module cached at build time would flatter exactly the measured scripts.
    sys.path.append(str(ROOT / "benchmarks"))
    import peers
    warm_up = "\n".join(bash_entry.WARM_UP + bash_entry.WARM_UP_ON_FILES)
    for script in peers.SCRIPTS:
        assert script not in warm_up
        words = shlex.split(script)
        for at, command in enumerate(words):
            if command in ("sed", "grep", "awk"):
                pattern = next(word for word in words[at + 1:] if not word.startswith("-"))
                assert pattern not in warm_up, (script, pattern)
