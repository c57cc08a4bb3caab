"""Field splitting of expansions, against GNU bash: a value with no IFS character stays one
field, and a whitespace-only IFS splits on runs of it (``Expander.split``'s quick paths),
exactly as the character-at-a-time reading does, around quoted and literal text too."""

from __future__ import annotations

import os
import shlex

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fuzz_differential import differs

pytestmark = pytest.mark.skipif(not os.path.exists("/bin/bash"), reason="GNU bash is not installed")

_VALUE = st.text(alphabet=st.sampled_from(list("ab \t\n:,*")), max_size=12)
_IFS = st.sampled_from([None, " ", "\t\n", " \t\n", "\n", ":", " :", ",\t", ""])
_WORD = st.sampled_from(['$a', '$b', '"$a"', 'x$a', '$a"y"', "''$a", '$a$b', '${a}z$b', '"$b"$a', '$(printf %s "$a")'])


@pytest.mark.usefixtures("guest_recursion_limit")  # as run_script sets it: hypothesis checks
@settings(max_examples=150, deadline=None)
@given(a=_VALUE, b=_VALUE, ifs=_IFS, words=st.lists(_WORD, min_size=1, max_size=4))
def test_split_fields_match_gnu_bash(a: str, b: str, ifs: str | None, words: list[str]) -> None:
    setting = "unset IFS" if ifs is None else f"IFS=$'{ifs.encode('unicode_escape').decode()}'"
    script = (f"a=$'{a.encode('unicode_escape').decode()}'; b=$'{b.encode('unicode_escape').decode()}'\n"
              f"{setting}; set -f\nprintf '<%s>' {' '.join(words)}; echo\n"
              f"for w in {words[0]}; do printf '[%s]' \"$w\"; done; echo\n")
    assert not differs(script, allow_syntax_errors=False), script


def test_a_long_value_splits_as_gnu_bash_splits_it() -> None:
    words = " ".join(shlex.quote(f"w{i}") for i in range(3000))
    script = f"v='  {words}  '; set -- $v; echo $# $1 ${{3000}}; v=$'\\t\\n x \\n'; set -- $v; echo $# \"$1\""
    assert not differs(script, allow_syntax_errors=False)


_GLOBBY = st.text(alphabet=st.sampled_from(list("ab *?[]()@!x.")), max_size=6)
_OPTIONS = st.sampled_from(["", "set -f", "shopt -s nullglob", "shopt -s extglob", "shopt -s failglob",
                            "set -u", "IFS=", "IFS=a"])
_SIMPLE = st.sampled_from(['$a', '"$a"', '"<$a|$b>"', '${a}', '"${a}x"', '$u', '"$u"', '"x$u"', '$r',
                           '"$r"', '$arr', '"$arr"', '"$e"', '$e', '"$PIPESTATUS"', '$PIPESTATUS'])


@pytest.mark.usefixtures("guest_recursion_limit")
@settings(max_examples=200, deadline=None)
@given(a=_GLOBBY, b=_GLOBBY, option=_OPTIONS, words=st.lists(_SIMPLE, min_size=1, max_size=3))
def test_a_lone_variable_or_a_quoted_string_of_them_expands_as_gnu_bash_expands_it(
        a: str, b: str, option: str, words: list[str]) -> None:
    """A word that is ``$name`` alone or a double-quoted string of text and ``$name``s is read
    straight from its variables (``Expander._simple_field``), unless it is unset, a nameref,
    or, unquoted, could split or glob: against bash, with files for the globs to find."""
    script = (f"touch ab ax b.x '(a)' x; a='{a}' b='{b}' e=; arr=(first second); declare -n r=a\n"
              f"{option}\nprintf '<%s>' {' '.join(words)}; echo\n"
              f"for w in {' '.join(words)}; do printf '[%s]' \"$w\"; done; echo\n"
              f"v={words[0]}; echo \"$v\"; [ {words[0]} = ab ] && echo same\n")
    assert not differs(script, allow_syntax_errors=False), script
