"""The interpreter reaches a filesystem only through ``bash/fs.py``.

A command that called ``os.stat`` or ``open`` itself would work on the host's real
directory and silently bypass the in-memory tree the guest runs on, so the seam is checked
from the source: outside ``fs.py`` and ``memfs.py`` no module under ``wasm/guest/bash``
calls a filesystem-touching function of ``os``/``os.path``, nor the builtin ``open``, nor
``sqlite3.connect`` (``fs_os.py`` opens databases, and gives dulwich, which git is built
on, an ``os`` answered by the backend).
"""

from __future__ import annotations

import ast
from pathlib import Path

BASH = Path(__file__).resolve().parents[2] / "wasm" / "guest" / "bash"
SEAM = {BASH / "fs.py", BASH / "memfs.py", BASH / "fs_os.py"}

TOUCHING = {
    "os": {"stat", "lstat", "fstat", "open", "fdopen", "close", "read", "write", "readlink", "unlink",
           "remove", "rename", "replace", "listdir", "scandir", "walk", "mkdir", "makedirs", "rmdir",
           "removedirs", "symlink", "link", "chmod", "chown", "utime", "access", "truncate", "chdir",
           "getcwd", "mkfifo"},
    "os.path": {"exists", "lexists", "isdir", "isfile", "islink", "ismount", "realpath", "getsize",
                "getmtime", "getatime", "getctime", "samefile"},
}


def _dotted(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def _is_memory_db(arg: ast.expr) -> bool:
    return isinstance(arg, ast.Constant) and arg.value == ":memory:"


def _offences(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call):
            name = _dotted(node.func)
            owner, _, attr = name.rpartition(".")
            if name == "open" or attr in TOUCHING.get(owner, set()) or \
                    (name == "sqlite3.connect" and node.args and not _is_memory_db(node.args[0])):
                found.append(f"{path.name}:{node.lineno}: {name}()")
        if isinstance(node, ast.ImportFrom) and node.module in ("os", "os.path", "shutil", "pathlib"):
            found.append(f"{path.name}:{node.lineno}: from {node.module} import ...")
        if isinstance(node, ast.Import) and any(a.name in ("shutil", "pathlib") for a in node.names):
            found.append(f"{path.name}:{node.lineno}: import of a filesystem module")
    return sorted(found, key=lambda line: int(line.split(":")[1]))


def test_no_module_of_the_interpreter_touches_a_filesystem_but_through_fs() -> None:
    modules = sorted(p for p in BASH.rglob("*.py") if p not in SEAM)
    assert len(modules) > 100  # the walk found the interpreter
    offences = [line for path in modules for line in _offences(path)]
    assert offences == []


def test_the_seam_test_sees_a_direct_call(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("import os\nos.path.isdir('/x')\nwith open('/y') as h:\n    pass\n"
                      "os.path.join('a', 'b')\nfrom shutil import copy\n")
    assert [o.split(": ", 1)[1] for o in _offences(module)] == [
        "os.path.isdir()", "open()", "from shutil import ..."]
