"""``read`` of a line with nothing escaped in it: its fields come from one regular
expression's split, not a loop over its characters, and its input is consumed from an
offset, not cut off the front of what is left. Held against GNU bash, and against the
character-at-a-time reading, which still reads any line with a backslash in it."""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bash.builtins.read import _split_read, _split_text
from bash.streams import InputStream
from fuzz_differential import differs

_TEXT = st.text(alphabet=st.sampled_from(list("ab \t\n:,")), max_size=14)
_IFS = st.text(alphabet=st.sampled_from(list(" \t\n:,a")), max_size=4)
_COUNT = st.one_of(st.none(), st.integers(1, 5))


@settings(max_examples=3000, deadline=None)
@given(text=_TEXT, ifs=_IFS, count=_COUNT)
def test_a_plain_line_splits_as_the_character_reading_splits_it(text: str, ifs: str, count: int | None) -> None:
    assert _split_text(text, ifs, count) == _split_read([(c, False) for c in text], ifs, count)


@pytest.mark.skipif(not os.path.exists("/bin/bash"), reason="GNU bash is not installed")
@pytest.mark.usefixtures("guest_recursion_limit")
@settings(max_examples=120, deadline=None)
@given(lines=st.lists(st.text(alphabet=st.sampled_from(list("ab \t:,\\")), max_size=10), min_size=1, max_size=4),
       ifs=st.sampled_from([None, " ", " \t", ":", " :", ",\t", ""]), names=st.integers(1, 4))
def test_read_in_a_loop_matches_gnu_bash(lines: list[str], ifs: str | None, names: int) -> None:
    setting = "unset IFS" if ifs is None else f"IFS=$'{ifs.encode('unicode_escape').decode()}'"
    data = "\\n".join(line.encode("unicode_escape").decode().replace("'", "\\'") for line in lines)
    variables = " ".join(f"v{k}" for k in range(names))
    shown = "".join(f"[${{v{k}}}]" for k in range(names))
    script = (f"{setting}\nprintf '{data}' > in.txt\n"
              f"while read -r {variables}; do echo \"{shown}\"; done < in.txt; echo \"last [$v0]\"\n"
              f"while read {variables}; do echo \"{shown}\"; done < in.txt\n"
              f"while read -r -a arr; do echo \"${{#arr[@]}} ${{arr[*]}}\"; done < in.txt\n"
              f"read -r REPLY < in.txt; echo \"reply [$REPLY] $?\"")
    assert not differs(script, allow_syntax_errors=False), script


def test_reading_line_by_line_leaves_the_rest_unread_across_chunks() -> None:
    chunks = iter([b"one\ntw", b"o\nthr", b"ee"])
    stream = InputStream(chunks)
    assert stream.read_until(b"\n") == (b"one\n", False)
    assert stream.read_until(None, 2) == (b"tw", False)
    assert stream.read_until(b"\n") == (b"o\n", False)
    assert b"".join(stream.chunks()) == b"three"
    assert stream.read_until(b"\n") == (b"", True)


def test_a_large_input_read_a_line_at_a_time_is_not_copied_for_each_line() -> None:
    data = b"".join(b"line %d\n" % i for i in range(200_000))
    stream = InputStream(data=data)
    for i in range(199_999):
        assert stream.read_until(b"\n")[0] == b"line %d\n" % i
    assert stream.pending is data  # still the one buffer, read from an offset
    assert stream.read_until(b"\n") == (b"line 199999\n", False)
    assert stream.read_until(b"\n") == (b"", True)


def test_bytes_given_back_come_next_after_a_line_read_from_an_offset() -> None:
    stream = InputStream(data=b"one\ntwo\nthree\n")
    assert stream.read_until(b"\n") == (b"one\n", False)
    stream.push_back(b"back\n")
    assert b"".join(stream.chunks()) == b"back\ntwo\nthree\n"
