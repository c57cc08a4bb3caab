"""rg (ripgrep) in the sandbox: non-tty output format, recursion defaults, hidden files.

Real ripgrep is not installed here, so these pin the documented behaviour directly.
"""

from __future__ import annotations

from test_text_support import run_ours

TREE: dict[str, bytes | str] = {
    "src/main.py": "import os\nprint('needle')\n",
    "src/util/helpers.py": "def needle():\n    return 1\n",
    "README": "no match here\n",
    ".hidden/secret.txt": "needle\n",
    ".env": "needle=1\n",
}


def test_rg_searches_cwd_recursively_printing_path_and_text() -> None:
    out = run_ours(["rg", "needle"], b"", TREE)
    assert out.status == 0
    assert out.stdout == b"src/main.py:print('needle')\nsrc/util/helpers.py:def needle():\n"


def test_rg_line_numbers_only_on_request() -> None:
    out = run_ours(["rg", "-n", "needle"], b"", TREE)
    assert out.stdout == b"src/main.py:2:print('needle')\nsrc/util/helpers.py:1:def needle():\n"


def test_rg_skips_hidden_files_unless_asked() -> None:
    out = run_ours(["rg", "--hidden", "-l", "needle"], b"", TREE)
    assert sorted(out.stdout.split()) == [b".env", b".hidden/secret.txt", b"src/main.py", b"src/util/helpers.py"]


def test_rg_on_stdin_prints_bare_lines() -> None:
    out = run_ours(["rg", "b"], b"abc\nxyz\nbcd\n")
    assert out.stdout == b"abc\nbcd\n"


def test_rg_no_match_exits_one_and_bad_path_exits_two() -> None:
    assert run_ours(["rg", "absent"], b"", TREE).status == 1
    missing = run_ours(["rg", "x", "nowhere"], b"", TREE)
    assert missing.status == 2
    assert b"nowhere" in missing.stderr


def test_rg_single_file_omits_file_name() -> None:
    out = run_ours(["rg", "needle", "src/main.py"], b"", TREE)
    assert out.stdout == b"print('needle')\n"


def test_rg_ignore_case_count_and_glob() -> None:
    tree = {"a.txt": "Foo\nfoo\n", "b.md": "foo\n"}
    assert run_ours(["rg", "-i", "-c", "FOO"], b"", tree).stdout == b"a.txt:2\nb.md:1\n"
    assert run_ours(["rg", "-g", "*.md", "-n", "foo"], b"", tree).stdout == b"b.md:1:foo\n"
    assert run_ours(["rg", "-g", "!*.md", "-N", "foo"], b"", tree).stdout == b"a.txt:foo\n"


def test_rg_smart_case_and_fixed_strings() -> None:
    tree = {"t": "a.c\nabc\nABC\n"}
    assert run_ours(["rg", "-F", "a.c", "t"], b"", tree).stdout == b"a.c\n"
    assert run_ours(["rg", "-S", "abc", "t"], b"", tree).stdout == b"abc\nABC\n"
    assert run_ours(["rg", "-S", "-n", "ABC", "t"], b"", tree).stdout == b"3:ABC\n"


def test_rg_files_lists_searchable_files() -> None:
    out = run_ours(["rg", "--files"], b"", TREE)
    assert out.stdout == b"README\nsrc/main.py\nsrc/util/helpers.py\n"
