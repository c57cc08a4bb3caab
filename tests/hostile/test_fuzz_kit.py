"""The fuzz kit (``fuzz/``, ``scripts/fuzz``): every target runs clean for a short budget
(the CI mode), every seed passes its target, each known finding's saved input still
reproduces it (strict xfails: they flip when the bug is fixed), and the harness lets
through only the findings a target lists as known."""

from __future__ import annotations

import ast
import subprocess
import sys
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from fuzz._harness import (  # noqa: E402
    ATHERIS_TARGETS, KNOWN_INPUTS, SEEDS, TARGETS, Finding, Known, known_of, load,
    tolerating_known,
)

CI_SECONDS = 3


@pytest.mark.fuzz
@pytest.mark.slow
@pytest.mark.parametrize("target", TARGETS)
def test_target_runs_clean_for_a_short_budget(target: str, tmp_path: Path) -> None:
    # A fresh working corpus: the seeds only, so the run's start-up does not grow with the
    # inputs earlier runs kept in .cache/fuzz/corpus/.
    command = [sys.executable, "-m", "fuzz", target, "--seconds", str(CI_SECONDS),
               "--crashes", str(tmp_path / "crashes"), "--work", str(tmp_path / "work")]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    saved = sorted(p.name for p in (tmp_path / "crashes").rglob("*") if p.is_file())
    report = (done.stdout[-3000:] + done.stderr[-5000:])
    assert done.returncode == 0 and not saved, f"{' '.join(command)}: {saved}\n{report}"


SEED_FILES = sorted((t, p) for t in ATHERIS_TARGETS for p in (SEEDS / t).iterdir())


@pytest.mark.parametrize("target, path", SEED_FILES, ids=[f"{t}/{p.name}" for t, p in SEED_FILES])
def test_every_seed_passes_its_target(target: str, path: Path) -> None:
    load(target).one_input(path.read_bytes())


def test_every_atheris_target_has_seeds() -> None:
    assert {t for t, _ in SEED_FILES} == set(ATHERIS_TARGETS)


def _known_params() -> list[object]:
    params = []
    # (the folder may hold only its README when no finding is open)
    folders = sorted(p for p in KNOWN_INPUTS.iterdir() if p.is_dir()) if KNOWN_INPUTS.is_dir() else []
    for directory in folders:
        for path in sorted(directory.iterdir()):
            if "hang" in path.name:
                continue  # a hang's input runs for minutes; SECURITY.md lists it
            reasons = "; ".join(k.reason for k in known_of(load(directory.name)) if not k.inputs)
            params.append(pytest.param(directory.name, path, id=f"{directory.name}/{path.name}",
                                       marks=pytest.mark.xfail(strict=True, raises=Finding,
                                                               reason=reasons)))
    return params


@pytest.mark.parametrize("target, path", _known_params())
def test_a_known_finding_is_fixed(target: str, path: Path) -> None:
    load(target).one_input(path.read_bytes())


def _module(one_input: object, known: tuple[Known, ...]) -> types.ModuleType:
    module = types.ModuleType("fake_target")
    module.one_input = one_input  # type: ignore[attr-defined]
    module.KNOWN = known  # type: ignore[attr-defined]
    return module


def _raise(message: str) -> object:
    def one_input(data: bytes) -> None:
        raise Finding(message)
    return one_input


def test_while_fuzzing_a_known_finding_is_let_through_and_a_new_one_is_not() -> None:
    module = _module(_raise("undocumented IndexError: x"), (Known("IndexError", "a report"),))
    tolerating_known(module)(b"input")
    other = _module(_raise("undocumented KeyError: y"), (Known("IndexError", "a report"),))
    with pytest.raises(Finding, match="KeyError"):
        tolerating_known(other)(b"input")


def test_while_fuzzing_an_input_of_a_known_hang_is_skipped() -> None:
    module = _module(_raise("would hang"), (Known(r"\[", "a report", inputs=3),))
    tolerating_known(module)(b"[[[")
    with pytest.raises(Finding):
        tolerating_known(module)(b"[[")


@pytest.mark.parametrize("path", sorted((ROOT / "fuzz").glob("*.py")), ids=lambda p: p.name)
def test_fuzz_modules_keep_the_shape(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    assert ast.get_docstring(tree) and len(text.splitlines()) <= 1000
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno:
            assert node.end_lineno - node.lineno < 120, f"{path.name}: {node.name}"
