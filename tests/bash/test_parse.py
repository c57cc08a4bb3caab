"""The command grammar: structure of what ``parse.py`` builds, and agreement with bashlex
on the scripts bashlex can parse."""

from __future__ import annotations

import pytest

from bash.errors import ShellSyntaxError
from bash.parse import Parser, bashlex_agrees, parse_script
from bash.syntax import ArithCmd, ArithFor, Case, CondCmd, FuncDef, Simple


def first_command(source: str):  # type: ignore[no-untyped-def]
    return parse_script(source).items[0][0].first.commands[0]


def test_simple_command_keeps_raw_words_and_redirections() -> None:
    cmd = first_command('FOO=1 echo "a $b" c >out 2>&1')
    assert isinstance(cmd, Simple)
    assert [a.name for a in cmd.assigns] == ["FOO"]
    assert [w.raw for w in cmd.words] == ["echo", '"a $b"', "c"]
    assert [(r.fd, r.op, r.target) for r in cmd.redirs] == [(None, ">", "out"), (2, ">&", "1")]


def test_constructs_bashlex_cannot_parse() -> None:
    assert isinstance(first_command("case x in a|b) echo;; *) :;;& esac"), Case)
    assert isinstance(first_command("[[ $a == b* && -n $c ]]"), CondCmd)
    assert isinstance(first_command("(( x++ ))"), ArithCmd)
    assert isinstance(first_command("for ((i=0;i<3;i++)); do :; done"), ArithFor)
    assert isinstance(first_command("function f { :; }"), FuncDef)
    cmd = first_command("a=(1 'two' [5]=x)")
    assert isinstance(cmd, Simple) and cmd.assigns[0].array == ["1", "'two'", "[5]=x"]


def test_heredoc_bodies_attach_to_their_redirections() -> None:
    cmd = first_command("cat <<A <<-'B'\none $x\nA\n\ttwo\n\tB\n")
    assert isinstance(cmd, Simple)
    docs = [r.heredoc for r in cmd.redirs]
    assert [(d.body, d.quoted, d.strip_tabs) for d in docs if d] == [("one $x\n", False, False), ("two\n", True, True)]


def test_incremental_parsing_yields_one_line_at_a_time() -> None:
    parser = Parser("echo a; echo b\necho c\n")
    assert len(parser.next_command().items) == 2  # type: ignore[union-attr]
    assert len(parser.next_command().items) == 1  # type: ignore[union-attr]
    assert parser.next_command() is None


@pytest.mark.parametrize("source", ["if true; then", "echo )", "for x y; do :; done", "case x in", "f() {", "echo 'open"])
def test_syntax_errors_carry_a_line(source: str) -> None:
    with pytest.raises(ShellSyntaxError) as info:
        parse_script("echo ok\n" + source)
    assert info.value.line >= 1


@pytest.mark.parametrize(
    "source",
    ["echo a | grep b && echo c || echo d", "f() { echo hi; }\nf", "if true; then echo; fi; while false; do :; done", "cat <<EOF\nx\nEOF\necho after\n"],
)
def test_agrees_with_bashlex_where_bashlex_works(source: str) -> None:
    assert bashlex_agrees(source) is True


def test_bashlex_gap_is_reported_as_none() -> None:
    assert bashlex_agrees("case x in a) :;; esac") is None
