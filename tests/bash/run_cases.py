"""The conformance runner library: load ``cases/*.test.sh``, run a case in GNU bash or in our
interpreter, and compare the outcomes. Used by ``record.py`` (writes fixtures from GNU
bash), ``test_conformance.py`` and ``benchmarks/bash_conformance.py``.

Case file format::

    # <area>: what these cases cover
    # Known divergences: none            (or one "# <case-name>: <reason>" line per case below)
    ### <case-name>
    <script lines...>

Every case runs in a fresh empty directory as its working directory; we compare stdout
bytes, the exit status, whether stderr is empty, and the files left behind (relative path to
content; empty directories as ``path/``; symlinks as ``-> target``).
"""

from __future__ import annotations

import base64
import json
import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CASES_DIR = HERE / "cases"
FIXTURES_DIR = HERE / "fixtures"

BASH_ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C", "TZ": "UTC"}
CASE_TIMEOUT_S = 10.0


@dataclass(frozen=True)
class Case:
    area: str
    name: str
    script: str
    divergence: str | None = None
    """Why our interpreter is known to differ from GNU bash on this case (None: it must not)."""


@dataclass
class Outcome:
    stdout: bytes
    exit_code: int
    stderr_empty: bool
    files: dict[str, str] = field(default_factory=dict)
    stderr: bytes = b""
    """Kept for diagnostics only; stderr text is never compared."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"exit_code": self.exit_code, "stderr_empty": self.stderr_empty, "files": self.files}
        try:
            data["stdout"] = self.stdout.decode("utf-8")
        except UnicodeDecodeError:
            data["stdout_b64"] = base64.b64encode(self.stdout).decode("ascii")
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Outcome":
        if "stdout_b64" in data:
            stdout = base64.b64decode(data["stdout_b64"])
        else:
            stdout = data["stdout"].encode("utf-8")
        return cls(stdout, int(data["exit_code"]), bool(data["stderr_empty"]), dict(data["files"]))


_HEADER_DIVERGENCE = re.compile(r"#\s*Known divergences:\s*(.*)\Z")
_DIVERGENCE_LINE = re.compile(r"#\s+([A-Za-z0-9_.-]+):\s*(.+)\Z")


def parse_case_file(path: Path) -> list[Case]:
    """Parse one ``<area>.test.sh`` file (the area is the file name without ``.test.sh``)."""
    area = path.name[: -len(".test.sh")] if path.name.endswith(".test.sh") else path.stem
    lines = path.read_text(encoding="utf-8").split("\n")
    divergences: dict[str, str] = {}
    k = 0
    in_divergences = False
    while k < len(lines) and not lines[k].startswith("### "):
        line = lines[k].rstrip()
        m = _HEADER_DIVERGENCE.match(line)
        if m:
            in_divergences = True
            rest = m.group(1).strip()
            inline = re.match(r"([A-Za-z0-9_.-]+):\s*(.+)\Z", rest)
            if inline and rest.lower() != "none":
                divergences[inline.group(1)] = inline.group(2)
        elif in_divergences:
            dm = _DIVERGENCE_LINE.match(line)
            if dm:
                divergences[dm.group(1)] = dm.group(2)
        k += 1
    cases: list[Case] = []
    name: str | None = None
    body: list[str] = []

    def flush() -> None:
        if name is None:
            return
        while body and body[-1].strip() == "":
            body.pop()
        cases.append(Case(area, name, "\n".join(body) + "\n", divergences.get(name)))

    seen: set[str] = set()
    for line in lines[k:]:
        if line.startswith("### "):
            flush()
            name = line[4:].strip()
            if name in seen:
                raise ValueError(f"{path}: duplicate case name {name!r}")
            seen.add(name)
            body = []
        else:
            body.append(line)
    flush()
    unknown = set(divergences) - seen
    if unknown:
        raise ValueError(f"{path}: divergences listed for unknown cases: {sorted(unknown)}")
    return cases


def case_files(pattern: str = "*.test.sh") -> list[Path]:
    return sorted(CASES_DIR.glob(pattern))


def load_cases(pattern: str = "*.test.sh") -> list[Case]:
    cases: list[Case] = []
    for path in case_files(pattern):
        cases.extend(parse_case_file(path))
    return cases


def snapshot_files(directory: str) -> dict[str, str]:
    """Relative path -> content for everything under ``directory``."""
    result: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(directory):
        rel_dir = os.path.relpath(dirpath, directory)
        entries = dirnames + filenames
        for name in list(dirnames):
            full = os.path.join(dirpath, name)
            if os.path.islink(full):
                rel = os.path.normpath(os.path.join(rel_dir, name))
                result[rel] = "-> " + os.readlink(full)
                dirnames.remove(name)
        if not entries and rel_dir != ".":
            result[rel_dir + "/"] = ""
        for name in filenames:
            full = os.path.join(dirpath, name)
            rel = os.path.normpath(os.path.join(rel_dir, name))
            if os.path.islink(full):
                result[rel] = "-> " + os.readlink(full)
                continue
            with open(full, "rb") as handle:
                data = handle.read()
            try:
                result[rel] = data.decode("utf-8")
            except UnicodeDecodeError:
                result[rel] = "base64:" + base64.b64encode(data).decode("ascii")
    return dict(sorted(result.items()))


def run_in_bash(case: Case, bash: str = "/bin/bash", user: str | None = None) -> Outcome:
    """Run ``case`` in GNU bash in a throwaway directory (what ``record.py`` records); with
    ``user``, as that user (``runuser``, so the caller must be root)."""
    with tempfile.TemporaryDirectory(prefix="bashcase-") as work:
        env = dict(BASH_ENV, HOME=work)
        as_user = ["runuser", "-u", user, "--"] if user else []
        if user:
            os.chmod(work, 0o777)  # the user's bash works (and writes its files) in it
        try:
            proc = subprocess.run(
                [*as_user, "env", "-i", *[f"{k}={v}" for k, v in env.items()], bash, "-c", case.script, "bash"],
                cwd=work, stdin=subprocess.DEVNULL, capture_output=True, timeout=CASE_TIMEOUT_S,
            )
            stdout, stderr, code = proc.stdout, proc.stderr, proc.returncode
        except subprocess.TimeoutExpired as exc:
            stdout, stderr, code = exc.stdout or b"", (exc.stderr or b"") + b"timed out", 124
        _make_removable(work)
        return Outcome(stdout, code, stderr == b"", snapshot_files(work), stderr)


def _make_removable(directory: str) -> None:
    for dirpath, dirnames, _ in os.walk(directory):
        for name in dirnames:
            try:
                os.chmod(os.path.join(dirpath, name), 0o755)
            except OSError:
                pass


def run_in_interpreter(case: Case, backend: str = "real") -> Outcome:
    """Run ``case`` through our interpreter, in-process, over a fresh temp directory, or over
    an empty in-memory tree (``backend="memory"``) written out to one afterwards."""
    from bash import BashLimits, run_script
    from bash.memfs import MemoryFS
    from memory_tree import write_out

    with tempfile.TemporaryDirectory(prefix="oursh-") as work:
        memory = MemoryFS() if backend == "memory" else None
        result = run_script(
            case.script, root="/" if memory else work, cwd="/", env=dict(BASH_ENV, HOME="/"),
            limits=BashLimits(timeout_ms=int(CASE_TIMEOUT_S * 1000), max_output_bytes=10_000_000),
            filesystem=memory,
        )
        if memory is not None:
            write_out(memory, work)
        _make_removable(work)
        return Outcome(result.stdout, result.exit_code, result.stderr == b"", snapshot_files(work), result.stderr)


def compare(expected: Outcome, actual: Outcome) -> list[str]:
    """Human-readable differences (empty when the outcomes match)."""
    diffs: list[str] = []
    if expected.stdout != actual.stdout:
        diffs.append(f"stdout: expected {expected.stdout!r}, got {actual.stdout!r}")
    if expected.exit_code != actual.exit_code:
        diffs.append(f"exit code: expected {expected.exit_code}, got {actual.exit_code}")
    if expected.stderr_empty != actual.stderr_empty:
        diffs.append(f"stderr empty: expected {expected.stderr_empty}, got {actual.stderr_empty} (stderr was {actual.stderr[:300]!r})")
    if expected.files != actual.files:
        diffs.append(f"files: expected {expected.files!r}, got {actual.files!r}")
    return diffs


def fixture_path(area: str) -> Path:
    return FIXTURES_DIR / f"{area}.json"


def load_fixture(area: str) -> dict[str, Outcome]:
    path = fixture_path(area)
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    return {name: Outcome.from_json(item) for name, item in data["cases"].items()}


def write_fixture(area: str, outcomes: dict[str, Outcome], bash_version: str) -> None:
    FIXTURES_DIR.mkdir(parents=True, exist_ok=True)
    data = {"area": area, "bash_version": bash_version, "cases": {n: o.to_json() for n, o in outcomes.items()}}
    fixture_path(area).write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")


def pass_rates(cases: list[Case]) -> dict[str, tuple[int, int]]:
    """area -> (identical, total) running every case with a fixture through the interpreter."""
    fixtures: dict[str, dict[str, Outcome]] = {}
    rates: dict[str, tuple[int, int]] = {}
    for case in cases:
        if case.area not in fixtures:
            fixtures[case.area] = load_fixture(case.area)
        expected = fixtures[case.area].get(case.name)
        if expected is None:
            continue
        same = not compare(expected, run_in_interpreter(case))
        ok, total = rates.get(case.area, (0, 0))
        rates[case.area] = (ok + int(same), total + 1)
    return rates
