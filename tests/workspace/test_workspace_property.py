"""Random operation sequences, symlinks included, against a plain in-memory filesystem model.

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


def join(base: str, name: str) -> str:
    return base.rstrip("/") + "/" + name


@dataclass
class Model:
    """The obvious filesystem the workspace must agree with: dicts of paths, with symlinks
    resolved one component at a time (the textbook walk, unlike the store's range lookups)."""

    files: dict[str, bytes] = field(default_factory=dict)
    dirs: set[str] = field(default_factory=lambda: {"/"})
    links: dict[str, str] = field(default_factory=dict)

    def _kind(self, path: str) -> str | None:
        if path in self.dirs:
            return "directory"
        if path in self.files:
            return "file"
        if path in self.links:
            return "symlink"
        return None

    def resolve(self, path: str, follow_last: bool = True) -> tuple[str, str | None, bool]:
        """(real path, kind or None, blocked by a file ancestor)."""
        parts = [p for p in norm(path).split("/") if p]
        hops, cur, i = 0, "/", 0
        while i < len(parts):
            nxt = join(cur, parts[i])
            last = i == len(parts) - 1
            kind = self._kind(nxt)
            if kind == "symlink" and (follow_last or not last):
                hops += 1
                if hops > 40:
                    raise ModelError("ELOOP")
                target = self.links[nxt]
                dest = norm(target if target.startswith("/") else join(cur, target))
                parts = [p for p in dest.split("/") if p] + parts[i + 1 :]
                cur, i = "/", 0
                continue
            if not last and kind != "directory":
                rest = "/".join(parts[i:])
                return join(cur, rest), None, kind == "file"
            cur, i = nxt, i + 1
        return cur, self._kind(cur), False

    def _mkparents(self, path: str) -> None:
        self.dirs.update(chain(path))

    def _children(self, path: str) -> list[str]:
        prefix = path.rstrip("/") + "/"
        return [p for p in [*self.files, *self.dirs, *self.links] if p.startswith(prefix) and p != path]

    def _remove(self, path: str) -> None:
        self.files.pop(path, None)
        self.dirs.discard(path)
        self.links.pop(path, None)

    def write(self, path: str, data: bytes) -> None:
        real, kind, blocked = self.resolve(path)
        if blocked:
            raise ModelError("ENOTDIR")
        if real == "/" or kind == "directory":
            raise ModelError("EISDIR")
        self._mkparents(real)
        self.files[real] = data

    def append(self, path: str, data: bytes) -> None:
        real, kind, blocked = self.resolve(path)
        old = self.files.get(real, b"") if kind == "file" else b""
        self.write(path, old + data)

    def read(self, path: str) -> bytes | None:
        real, kind, _ = self.resolve(path)
        if kind == "directory":
            raise ModelError("EISDIR")
        return self.files.get(real)

    def delete_file(self, path: str) -> bool:
        real, kind, _ = self.resolve(path, follow_last=False)
        if kind is None:
            return False
        if kind == "directory":
            raise ModelError("EISDIR")
        self._remove(real)
        return True

    def mkdir(self, path: str, recursive: bool) -> None:
        if norm(path) == "/":
            return
        real, kind, blocked = self.resolve(path, follow_last=False)
        if kind is not None:
            if kind == "directory" and recursive:
                return
            raise ModelError("EEXIST")
        if blocked:
            raise ModelError("ENOTDIR")
        if not recursive and up(real) not in self.dirs:
            raise ModelError("ENOENT")
        self._mkparents(real)
        self.dirs.add(real)

    def rm(self, path: str, recursive: bool, force: bool) -> None:
        if norm(path) == "/":
            raise ModelError("EPERM")
        real, kind, _ = self.resolve(path, follow_last=False)
        if kind is None:
            if force:
                return
            raise ModelError("ENOENT")
        if real == "/":
            raise ModelError("EPERM")
        below = self._children(real) if kind == "directory" else []
        if below and not recursive:
            raise ModelError("ENOTEMPTY")
        for q in [*below, real]:
            self._remove(q)

    def symlink(self, target: str, path: str) -> None:
        real, kind, blocked = self.resolve(path, follow_last=False)
        if kind is not None or real == "/":
            raise ModelError("EEXIST")
        if blocked:
            raise ModelError("ENOTDIR")
        self._mkparents(real)
        self.links[real] = target

    def mv(self, src: str, dst: str) -> None:
        if norm(src) == "/" or norm(dst) == "/":
            raise ModelError("EPERM")
        s, s_kind, _ = self.resolve(src, follow_last=False)
        if s_kind is None:
            raise ModelError("ENOENT")
        d, d_kind, blocked = self.resolve(dst, follow_last=False)
        if blocked:
            raise ModelError("ENOTDIR")
        if d == s:
            return
        if d.startswith(s + "/"):
            raise ModelError("EINVAL")
        if d_kind == "directory":
            if s_kind != "directory":
                raise ModelError("EISDIR")
            if self._children(d):
                raise ModelError("ENOTEMPTY")
        elif d_kind is not None and s_kind == "directory":
            raise ModelError("ENOTDIR")
        if d_kind is not None:
            self._remove(d)
        self._mkparents(d)
        for q in [s, *self._children(s)] if s_kind == "directory" else [s]:
            target = d + q[len(s) :]
            if q in self.files:
                self.files[target] = self.files.pop(q)
            elif q in self.links:
                self.links[target] = self.links.pop(q)
            else:
                self.dirs.discard(q)
                self.dirs.add(target)

    def exists(self, path: str) -> bool:
        return self.resolve(path, follow_last=False)[1] is not None

    def stat(self, path: str) -> tuple[str, int] | None:
        real, kind, _ = self.resolve(path)
        if kind is None:
            return None
        return (kind, len(self.files[real]) if kind == "file" else 0)

    def list_dir(self, path: str) -> list[str]:
        real, kind, _ = self.resolve(path)
        if kind is None:
            raise ModelError("ENOENT")
        if kind != "directory":
            raise ModelError("ENOTDIR")
        kids = [q for q in self._children(real) if up(q) == real]
        def name(q: str) -> str:
            return q.rsplit("/", 1)[1]

        return [
            *sorted(name(q) for q in kids if q in self.dirs),
            *sorted(name(q) for q in kids if q in self.files),
            *sorted(name(q) for q in kids if q in self.links),
        ]


# Few names, so that operations keep meeting each other's paths (and links get traversed).
segment = st.sampled_from(["a", "b", "a", "b", "c", ".", "..", ""])
paths = st.lists(segment, min_size=1, max_size=4).map(lambda parts: "/".join(parts))
data = st.binary(max_size=6)
link_targets = st.sampled_from(["a", "b", "/a/b", "..", "../c", "/", "a/c", "/b", "../a", "c"])
# Fixed places for links and for probes through them, so traversal is common.
link_paths = st.sampled_from(["/a/b", "/b/a", "/a/l", "/l", "/a/b/l"])
probes = st.sampled_from(["/a/b", "/a/b/x", "/b/a/x", "/l/x", "/a/l/b", "/l/l/x", "/a/b/l/x", "/a/c/x", "/c/x"])
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
    st.tuples(st.just("symlink"), link_targets, paths),
    st.tuples(st.just("symlink"), link_targets, link_paths),
    st.tuples(st.just("write"), probes, data),
    st.tuples(st.just("stat"), probes),
    st.tuples(st.just("read"), probes),
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
    if name == "symlink":
        return await ws.symlink(args[0], args[1]) and None
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
            assert stored == {
                **{d: "directory" for d in model.dirs if d != "/"},
                **{f: "file" for f in model.files},
                **{link: "symlink" for link in model.links},
            }


@pytest.mark.fuzz
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(operation, min_size=1, max_size=25))
def test_random_operations_match_the_in_memory_model(ops: list[tuple[Any, ...]]) -> None:
    asyncio.run(check(ops))
