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


TYPED: dict[str, bytes | str] = {
    "a.py": "needle\n", "b.js": "needle\n", "c.rs": "needle\n", "d.h": "needle\n", "e.hpp": "needle\n",
    "f.md": "needle\n", "g.yml": "needle\n", "Makefile": "needle\n", "notes.txt": "needle\n",
    ".bashrc": "needle\n", "run.sh": "needle\n", ".hidden/x.sh": "needle\n", "sub/Cargo.lock": "needle\n",
    "sub/t.toml": "needle\n", "sub/z.pyi": "needle\n",
}


def _listed(argv: list[str], tree: dict[str, bytes | str] = TYPED) -> list[str]:
    out = run_ours(argv, b"", tree)
    assert out.status in (0, 1), out.stderr
    return out.stdout.decode().split()


def test_rg_type_takes_its_argument_and_keeps_that_type_only() -> None:
    assert _listed(["rg", "-l", "-t", "py", "needle"]) == ["a.py"]
    assert _listed(["rg", "-l", "-tpy", "needle"]) == ["a.py"]
    assert _listed(["rg", "-l", "--type=rust", "needle"]) == ["c.rs"]
    assert _listed(["rg", "-l", "--type", "toml", "needle"]) == ["sub/Cargo.lock", "sub/t.toml"]
    assert _listed(["rg", "-l", "-t", "c", "-t", "md", "needle"]) == ["d.h", "f.md"]
    assert _listed(["rg", "-l", "-t", "cpp", "needle"]) == ["d.h", "e.hpp"]
    assert _listed(["rg", "-l", "-t", "make", "-t", "yaml", "needle"]) == ["Makefile", "g.yml"]


def test_rg_type_not_drops_that_type_and_the_last_selection_wins() -> None:
    everything = _listed(["rg", "-l", "needle"])
    assert _listed(["rg", "-l", "-T", "py", "needle"]) == [f for f in everything if f != "a.py"]
    assert _listed(["rg", "-l", "--type-not=sh", "-T", "txt", "needle"]) == [
        f for f in everything if f not in ("run.sh", "notes.txt")]
    assert _listed(["rg", "-l", "-t", "py", "-T", "py", "needle"]) == []
    assert _listed(["rg", "-l", "-T", "py", "-t", "py", "needle"]) == ["a.py"]


def test_rg_type_keeps_a_hidden_file_of_that_type_but_not_one_in_a_hidden_directory() -> None:
    assert _listed(["rg", "-l", "-t", "sh", "needle"]) == [".bashrc", "run.sh"]
    assert _listed(["rg", "-l", "-t", "sh", "--hidden", "needle"]) == [".bashrc", ".hidden/x.sh", "run.sh"]


def test_rg_type_does_not_filter_files_named_on_the_command_line() -> None:
    out = run_ours(["rg", "-t", "py", "needle", "b.js", "notes.txt"], b"", TYPED)
    assert out.stdout == b"b.js:needle\nnotes.txt:needle\n"


def test_rg_unknown_type_is_an_error() -> None:
    for argv in (["rg", "-t", "nosuch", "needle"], ["rg", "-T", "nosuch", "needle"]):
        out = run_ours(argv, b"", TYPED)
        assert (out.stdout, out.stderr, out.status) == (b"", b"rg: unrecognized file type: nosuch\n", 2)


def test_rg_unrestricted_lowers_filtering_one_level_per_u() -> None:
    visible = _listed(["rg", "-l", "needle"])
    assert _listed(["rg", "-l", "-u", "needle"]) == visible
    assert _listed(["rg", "-l", "--no-ignore", "needle"]) == visible
    with_hidden = _listed(["rg", "-l", "--hidden", "needle"])
    assert with_hidden != visible
    assert _listed(["rg", "-l", "-uu", "needle"]) == with_hidden
    assert _listed(["rg", "-l", "-u", "--unrestricted", "needle"]) == with_hidden
    assert _listed(["rg", "-l", "-uuu", "needle"]) == with_hidden


def test_rg_refuses_multiline_it_cannot_do() -> None:
    out = run_ours(["rg", "-U", "needle"], b"", TYPED)
    assert (out.stdout, out.status) == (b"", 2)
    assert out.stderr.startswith(b"rg: ") and b"'U'" in out.stderr
