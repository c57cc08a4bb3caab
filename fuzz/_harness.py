"""What every target shares: the ``Finding`` a broken property raises, ``Known`` open
findings, the decoding of fuzz bytes, the registry of targets, and the two ways to run one
(under libFuzzer through ``atheris``, or a replay of one saved input in plain Python)."""

from __future__ import annotations

import importlib
import inspect
import re
import sys
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
GUEST = ROOT / "wasm" / "guest"
SEEDS = ROOT / "fuzz" / "corpus"
KNOWN_INPUTS = ROOT / "fuzz" / "known"
CACHE = ROOT / ".cache" / "fuzz"

INSTRUMENT: dict[str, tuple[str, ...]] = {
    "bash_parser": ("bash.parse", "bash.syntax"),
    "bash_expand": ("bash.parse", "bash.words", "bash.expand", "bash.braces", "bash.arith",
                    "bash.pattern", "bash.evaluate", "bash.substitute", "bash.redirects"),
    "workspace_paths": ("workspace._paths",),
    "workspace_glob": ("workspace._paths",),
    "wire": ("sandbox._wire",),
    "declarations": ("codemode.declarations", "codemode.tooldefs", "codemode.names"),
    "jq_parser": ("bash.commands.jq.parse",),
    "awk_parser": ("bash.commands.awk.parse",),
    "sed_parser": ("bash.commands.sed.parse", "bash.commands.sed.regex"),
}
"""The coverage-guided targets (one module each, ``fuzz/<name>.py``) and the modules whose
bytecode atheris instruments for each (the code under test, not all it imports)."""
ATHERIS_TARGETS = tuple(INSTRUMENT)
SERVICE_TARGETS = ("schemathesis",)
"""Targets that run the service itself rather than one function."""
TARGETS = ATHERIS_TARGETS + SERVICE_TARGETS

HANG_S = 30
"""One input taking longer than this is a hang (libFuzzer's ``-timeout``; a replay too)."""


class Finding(AssertionError):
    """A property a target checks does not hold for this input."""


@dataclass(frozen=True)
class Known:
    """An open finding a target tolerates while fuzzing (so a run looks for new ones).

    ``pattern`` is searched in the ``Finding``'s message; ``reason`` names the report. The
    finding's own input lives in ``fuzz/known/<target>/`` and a strict xfail test replays
    it, so the entry has to go once the bug is fixed. A replay never tolerates it.
    """

    pattern: str
    reason: str
    inputs: int = 0
    """When over 0: not a finding's message but a hang's input. An input in which
    ``pattern`` occurs at least this many times is skipped while fuzzing (a hang cannot be
    caught and let through: libFuzzer ends the run)."""


def text(data: bytes) -> str:
    """Fuzz bytes as text: UTF-8 where valid, a replacement character elsewhere."""
    return data.decode("utf-8", "replace")


def allow(call: Callable[[], Any], documented: tuple[type[BaseException], ...]) -> Any:
    """``call()``; a documented exception is fine (None), any other is a ``Finding``."""
    try:
        return call()
    except documented:
        return None
    except Exception as exc:
        raise Finding(f"undocumented {type(exc).__name__}: {exc!s:.300}") from exc


def load(name: str) -> ModuleType:
    """The module of an atheris target, with the guest's sources importable."""
    if name not in INSTRUMENT:
        raise SystemExit(f"unknown atheris target {name!r}; targets: {', '.join(ATHERIS_TARGETS)}")
    if str(GUEST) not in sys.path:
        sys.path.insert(0, str(GUEST))
    return importlib.import_module(f"fuzz.{name}")


def known_of(module: ModuleType) -> tuple[Known, ...]:
    known: tuple[Known, ...] = getattr(module, "KNOWN", ())
    return known


def tolerating_known(module: ModuleType) -> Callable[[bytes], None]:
    """``module.one_input``, with the findings listed in its ``KNOWN`` let through."""
    findings = [k for k in known_of(module) if not k.inputs]
    hangs = [k for k in known_of(module) if k.inputs]

    def one_input(data: bytes) -> None:
        if hangs:
            source = text(data)
            if any(len(re.findall(k.pattern, source)) >= k.inputs for k in hangs):
                return
        try:
            module.one_input(data)
        except Finding as finding:
            if not any(re.search(k.pattern, str(finding)) for k in findings):
                raise

    return one_input


def _instrument(atheris: Any, module: ModuleType) -> None:
    """Add coverage to the functions and methods ``module`` defines (nested ones included).

    Done after a plain import, module by module: ``atheris.instrument_imports`` would
    instrument every module of a package imported on the way, seconds of start-up each run.
    """
    def defined_here(obj: Any) -> bool:
        return getattr(obj, "__module__", None) == module.__name__

    for obj in list(vars(module).values()):
        if inspect.isfunction(obj) and defined_here(obj):
            atheris.instrument_func(obj)
        elif inspect.isclass(obj) and defined_here(obj):
            for member in list(vars(obj).values()):
                func = getattr(member, "__func__", member)
                if isinstance(member, property):
                    func = member.fget
                if inspect.isfunction(func):
                    atheris.instrument_func(func)


def replay(name: str, path: Path) -> int:
    """Run one saved input through a target; 0 if every property holds, 1 with the traceback."""
    module = load(name)
    data = path.read_bytes()
    started = time.monotonic()
    try:
        module.one_input(data)
    except Exception:
        traceback.print_exc()
        print(f"fuzz {name}: {path} reproduces a finding", file=sys.stderr)
        return 1
    elapsed = time.monotonic() - started
    if elapsed > HANG_S:
        print(f"fuzz {name}: {path} took {elapsed:.1f} s (over {HANG_S} s: a hang)", file=sys.stderr)
        return 1
    print(f"fuzz {name}: {path} passes ({elapsed:.3f} s)")
    return 0


def fuzz(name: str, seconds: int, crashes: Path, work: Path | None = None) -> None:
    """Fuzz ``name`` for ``seconds`` under libFuzzer; never returns (libFuzzer exits).

    New inputs go to ``work`` (default ``.cache/fuzz/corpus/<name>``, which grows from run
    to run; the seeds under ``fuzz/corpus/<name>`` are read, never written); a crash or hang
    is written to ``crashes`` as ``crash-<sha1>`` / ``timeout-<sha1>`` and libFuzzer exits
    non-zero.
    """
    atheris: Any = importlib.import_module("atheris")
    module = load(name)
    for scope in INSTRUMENT[name]:
        _instrument(atheris, importlib.import_module(scope))
    crashes.mkdir(parents=True, exist_ok=True)
    work = work or CACHE / "corpus" / name
    work.mkdir(parents=True, exist_ok=True)
    args = [f"fuzz-{name}", f"-max_total_time={seconds}", f"-timeout={HANG_S}",
            f"-artifact_prefix={crashes}/", f"-max_len={module.MAX_LEN}", "-rss_limit_mb=3072",
            "-print_final_stats=1", str(work), str(SEEDS / name)]
    atheris.Setup(args, tolerating_known(module))
    atheris.Fuzz()
