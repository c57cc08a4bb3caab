"""``yq``: YAML through jq, as the Python ``yq`` (kislyuk) does: every YAML document of the
inputs becomes JSON for our ``jq`` (its options pass through: ``-r``, ``-c``, ``-e``,
``--arg``...); ``-y`` turns jq's results back into YAML documents (lists indented, a
scalar document ended by ``...``). Dates and timestamps become ISO strings. PyYAML (pure
Python) is bundled into the guest image by ``sandbox/build.py``.
"""

from __future__ import annotations

import datetime
import json
import re
from typing import Any, Iterator

# imported here, at the top: only modules imported while the guest image is built exist in it
import yaml

from ..base import CommandContext, CommandResult
from ..text.common import describe_oserror, open_input

# jq options that take one or two values (so the filter is found after them)
_JQ_VALUED = {"--arg": 2, "--argjson": 2, "--slurpfile": 2, "--rawfile": 2, "--indent": 1, "-L": 1}


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k) if not isinstance(k, str) else k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value


def _split(args: list[str]) -> tuple[list[str], str | None, list[str], bool]:
    """(jq options, filter, files, YAML output)."""
    jq_opts: list[str] = []
    rest: list[str] = []
    yaml_out = False
    k = 0
    while k < len(args):
        arg = args[k]
        if arg in ("-y", "--yaml-output", "-Y", "--yaml-roundtrip"):
            yaml_out = True
        elif arg in _JQ_VALUED:
            jq_opts += args[k:k + 1 + _JQ_VALUED[arg]]
            k += _JQ_VALUED[arg]
        elif arg.startswith("-") and arg != "-" and not rest:
            jq_opts.append(arg)
        else:
            rest.append(arg)
        k += 1
    return jq_opts, (rest[0] if rest else None), rest[1:], yaml_out


class _Loader(yaml.SafeLoader):  # type: ignore[misc]  # PyYAML ships no types
    """Only true/false are booleans (yes, no, on, off stay strings), as yq reads YAML."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                              list("tTfF"))


class _Indented(yaml.SafeDumper):  # type: ignore[misc]
    """Block sequences indented under their key, as yq writes them."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> Any:
        return super().increase_indent(flow, False)


def _documents(ctx: CommandContext, files: list[str]) -> Iterator[Any]:
    for name in files or ["-"]:
        text = b"".join(open_input(ctx, name)).decode("utf-8", "surrogateescape")
        for doc in yaml.load_all(text, Loader=_Loader):
            yield _plain(doc)


def _to_yaml(values: list[Any]) -> bytes:
    if not values:
        return b""
    text = yaml.dump_all(values, Dumper=_Indented, default_flow_style=False, allow_unicode=True, sort_keys=False)
    return str(text).encode("utf-8")


def run_yq(ctx: CommandContext, argv: list[str]) -> CommandResult:
    jq_opts, program, files, yaml_out = _split(argv[1:])
    if program is None:
        ctx.error("usage: yq [options] [jq_filter] [files ...]")
        return 2
    try:
        docs = list(_documents(ctx, files))
    except OSError as exc:
        ctx.error(f"yq: error: argument files: can't open '{files[0] if files else '-'}': {describe_oserror(exc)}")
        return 2
    except Exception as exc:  # yaml.YAMLError and its kin: the document does not parse
        ctx.error(f"yq: Error running jq: {type(exc).__name__}: {exc}.")
        return 1
    if ctx.run_command is None:
        ctx.error("yq: cannot run jq here")
        return 1
    feed = iter(["".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs).encode("utf-8")])
    jq_argv = ["jq", *jq_opts, *(["-c"] if yaml_out else []), program]
    runner = ctx.run_command(jq_argv, feed)
    if not yaml_out:
        return (yield from runner)
    chunks: list[bytes] = []
    while True:
        try:
            chunks.append(next(runner))
        except StopIteration as stop:
            status = stop.value if isinstance(stop.value, int) else 0
            break
    values = [json.loads(line) for line in b"".join(chunks).decode("utf-8").splitlines() if line.strip()]
    yield _to_yaml(values)
    return status


COMMANDS = {"yq": run_yq}
