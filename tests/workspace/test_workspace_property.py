"""Random operation sequences against a plain in-memory filesystem model (hypothesis).

Every result and every error code of the SQLite workspace must equal the model's.
"""

import asyncio
import tempfile
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from workspace import WorkspaceError, WorkspaceStore


def norm(path: str) -> str:
    stack: list[str] = []
    for part in path.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if stack:
                stack.pop()
        else:
            stack.append(part)
    return "/" + "/".join(stack)


def up(path: str) -> str:
    return path.rsplit("/", 1)[0] or "/"


def chain(path: str) -> list[str]:
    parts = path.strip("/").split("/")
    return ["/" + "/".join(parts[:i]) for i in range(1, len(parts))]


class ModelError(Exception):
    def __init__(self, code: str) -> None:
        self.code = code


@dataclass
class Model:
    """The obvious dict-of-paths filesystem the workspace must agree with."""

    files: dict[str, bytes] = field(default_factory=dict)
    dirs: set[str] = field(default_factory=lambda: {"/"})

    def _blocked(self, path: str) -> bool:
        return any(a in self.files for a in chain(path))

    def _mkparents(self, path: str) -> None:
        self.dirs.update(chain(path))

    def _children(self, path: str) -> list[str]:
        prefix = path.rstrip("/") + "/"
        return [p for p in [*self.files, *self.dirs] if p.startswith(prefix) and p != path]

    def write(self, path: str, data: bytes) -> None:
        p = norm(path)
        if p in self.dirs:
            raise ModelError("EISDIR")
        if p not in self.files and self._blocked(p):
            raise ModelError("ENOTDIR")
        self._mkparents(p)
        self.files[p] = data

    def append(self, path: str, data: bytes) -> None:
        p = norm(path)
        old = self.files.get(p, b"")
        self.write(p, old + data)

    def read(self, path: str) -> bytes | None:
        p = norm(path)
        if p in self.dirs:
            raise ModelError("EISDIR")
        return self.files.get(p)

    def delete_file(self, path: str) -> bool:
        p = norm(path)
        if p in self.dirs:
            raise ModelError("EISDIR")
        return self.files.pop(p, None) is not None

    def mkdir(self, path: str, recursive: bool) -> None:
        p = norm(path)
        if p == "/":
            return
        if p in self.dirs and recursive:
            return
        if p in self.dirs or p in self.files:
            raise ModelError("EEXIST")
        if self._blocked(p):
            raise ModelError("ENOTDIR")
        if not recursive and up(p) not in self.dirs:
            raise ModelError("ENOENT")
        self._mkparents(p)
        self.dirs.add(p)

    def rm(self, path: str, recursive: bool, force: bool) -> None:
        p = norm(path)
        if p == "/":
            raise ModelError("EPERM")
        if p not in self.dirs and p not in self.files:
            if force:
                return
            raise ModelError("ENOENT")
        below = self._children(p) if p in self.dirs else []
        if below and not recursive:
            raise ModelError("ENOTEMPTY")
        for q in [*below, p]:
            self.files.pop(q, None)
            self.dirs.discard(q)

    def mv(self, src: str, dst: str) -> None:
        s, d = norm(src), norm(dst)
        if s == "/" or d == "/":
            raise ModelError("EPERM")
        if s not in self.dirs and s not in self.files:
            raise ModelError("ENOENT")
        if d not in self.dirs and d not in self.files and self._blocked(d):
            raise ModelError("ENOTDIR")
        if d == s:
            return
        if d.startswith(s + "/"):
            raise ModelError("EINVAL")
        if d in self.dirs:
            if s not in self.dirs:
                raise ModelError("EISDIR")
            if self._children(d):
                raise ModelError("ENOTEMPTY")
            self.dirs.discard(d)
        elif d in self.files:
            if s in self.dirs:
                raise ModelError("ENOTDIR")
            del self.files[d]
        self._mkparents(d)
        moved = [s, *self._children(s)] if s in self.dirs else [s]
        for q in moved:
            target = d + q[len(s) :]
            if q in self.files:
                self.files[target] = self.files.pop(q)
            else:
                self.dirs.discard(q)
                self.dirs.add(target)

    def exists(self, path: str) -> bool:
        p = norm(path)
        return p in self.dirs or p in self.files

    def stat(self, path: str) -> tuple[str, int] | None:
        p = norm(path)
        if p in self.dirs:
            return ("directory", 0)
        if p in self.files:
            return ("file", len(self.files[p]))
        return None

    def list_dir(self, path: str) -> list[str]:
        p = norm(path)
        if p in self.files:
            raise ModelError("ENOTDIR")
        if p not in self.dirs:
            raise ModelError("ENOENT")
        kids = [q for q in self._children(p) if up(q) == p]
        name = lambda q: q.rsplit("/", 1)[1]  # noqa: E731
        return sorted(name(q) for q in kids if q in self.dirs) + sorted(name(q) for q in kids if q in self.files)


segment = st.sampled_from(["a", "b", "c", ".", "..", ""])
paths = st.lists(segment, min_size=1, max_size=4).map(lambda parts: "/".join(parts))
data = st.binary(max_size=6)
operation = st.one_of(
    st.tuples(st.just("write"), paths, data),
    st.tuples(st.just("append"), paths, data),
    st.tuples(st.just("read"), paths),
    st.tuples(st.just("delete_file"), paths),
    st.tuples(st.just("mkdir"), paths, st.booleans()),
    st.tuples(st.just("rm"), paths, st.booleans(), st.booleans()),
    st.tuples(st.just("mv"), paths, paths),
    st.tuples(st.just("exists"), paths),
    st.tuples(st.just("stat"), paths),
    st.tuples(st.just("list_dir"), paths),
)


async def run_real(ws: Any, op: tuple[Any, ...]) -> Any:
    name, *args = op
    if name == "write":
        return await ws.write_bytes(args[0], args[1]) and None
    if name == "append":
        return await ws.append_bytes(args[0], args[1]) and None
    if name == "read":
        return await ws.read_bytes(args[0])
    if name == "delete_file":
        return await ws.delete_file(args[0])
    if name == "mkdir":
        return await ws.mkdir(args[0], recursive=args[1])
    if name == "rm":
        return await ws.rm(args[0], recursive=args[1], force=args[2])
    if name == "mv":
        return await ws.mv(args[0], args[1])
    if name == "exists":
        return await ws.exists(args[0])
    if name == "stat":
        s = await ws.stat(args[0])
        return None if s is None else (s.type, s.size)
    if name == "list_dir":
        return [e.name for e in await ws.list_dir(args[0])]
    raise AssertionError(name)


def run_model(model: Model, op: tuple[Any, ...]) -> Any:
    name, *args = op
    if name == "write":
        return model.write(args[0], args[1])
    if name == "append":
        return model.append(args[0], args[1])
    if name == "mkdir":
        return model.mkdir(args[0], args[1])
    if name == "rm":
        return model.rm(args[0], args[1], args[2])
    return getattr(model, name)(*args)


async def check(ops: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        async with await WorkspaceStore.open(f"{tmp}/db", f"{tmp}/blobs", spill_threshold=4) as store:
            ws = store.workspace()
            model = Model()
            for step, op in enumerate(ops):
                try:
                    expected: Any = ("ok", run_model(model, op))
                except ModelError as exc:
                    expected = ("error", exc.code)
                try:
                    actual: Any = ("ok", await run_real(ws, op))
                except WorkspaceError as exc:
                    actual = ("error", exc.code)
                assert actual == expected, f"step {step}: {op}"
            stored = {s.path: s.type for s in await ws.walk("/")}
            assert stored == {**{d: "directory" for d in model.dirs if d != "/"}, **{f: "file" for f in model.files}}


@pytest.mark.fuzz
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(operation, min_size=1, max_size=25))
def test_random_operations_match_the_in_memory_model(ops: list[tuple[Any, ...]]) -> None:
    asyncio.run(check(ops))
