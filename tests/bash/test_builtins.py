"""The builtins registry: every builtin has one family, one kind, and reaches the command
registry; what bash calls a builtin is pinned."""

from __future__ import annotations

import inspect

from bash import builtins
from bash.builtins import BASH_BUILTIN_NAMES, BUILTINS, Builtin, StreamingBuiltin
from bash.commands import COMMANDS

STREAMING = {"eval", "source", ".", "exec", "bash", "sh", "command", "builtin", "env", "xargs", "timeout", "time", "sleep"}
NOT_BASH_BUILTINS = {"which", "hostname", "whoami", "sleep", "date", "printenv", "bash", "sh", "env", "xargs", "timeout", "time", "clear"}


def test_streaming_builtins_are_generators_and_the_others_are_not() -> None:
    assert {name for name, entry in BUILTINS.items() if isinstance(entry, StreamingBuiltin)} == STREAMING
    for name, entry in BUILTINS.items():
        assert isinstance(entry, (Builtin, StreamingBuiltin)), name
        assert inspect.isgeneratorfunction(entry.run) == isinstance(entry, StreamingBuiltin), name


def test_commands_that_only_need_the_shell_are_not_called_builtins() -> None:
    assert set(BUILTINS) - BASH_BUILTIN_NAMES == NOT_BASH_BUILTINS


def test_every_builtin_is_in_the_command_registry() -> None:
    assert set(BUILTINS) <= set(COMMANDS)


def test_each_family_module_is_registered_once() -> None:
    names = [family.__name__.rsplit(".", 1)[1] for family in builtins.FAMILIES]
    assert sorted(names) == sorted(set(names))
    for family in builtins.FAMILIES:
        assert family.__doc__, family.__name__
        assert family.BUILTINS, family.__name__
