"""Between a real directory and a ``MemoryFS``, for running host-side tests on either backend.

``load_directory`` reads a directory into a fresh tree (files with their bytes, modes and
mtimes, directories, symlinks as links); ``write_out`` makes a directory hold exactly
what a tree holds. A test that sets up files on disk and checks them afterwards then runs
the interpreter over memory in between, unchanged, so the real directory's expectations
check the memory backend.
"""

from __future__ import annotations

import os
import stat as st

from bash.memfs import MemoryFS


def load_directory(directory: str, **limits: int) -> MemoryFS:
    memory = MemoryFS(**limits)  # type: ignore[arg-type]
    dirs: list[str] = []
    files: list[tuple[str, bytes, int, int]] = []
    links: list[tuple[str, str]] = []
    for dirpath, dirnames, filenames in os.walk(directory):
        rel = os.path.relpath(dirpath, directory)
        base = "/" if rel == "." else "/" + rel + "/"
        for name in dirnames + filenames:
            full = os.path.join(dirpath, name)
            info = os.lstat(full)
            if st.S_ISLNK(info.st_mode):
                links.append((os.readlink(full), base + name))
            elif st.S_ISDIR(info.st_mode):
                dirs.append(base + name)
            else:
                with open(full, "rb") as handle:
                    files.append((base + name, handle.read(), st.S_IMODE(info.st_mode), info.st_mtime_ns))
    memory.load(dirs, files)
    for target, path in links:
        memory.symlink(target, path)
    return memory


def write_out(memory: MemoryFS, directory: str) -> None:
    """Make ``directory`` hold what ``memory`` holds (it is emptied first)."""
    for dirpath, dirnames, filenames in os.walk(directory, topdown=False):
        for name in filenames:
            os.unlink(os.path.join(dirpath, name))
        for name in dirnames:
            full = os.path.join(dirpath, name)
            if os.path.islink(full):
                os.unlink(full)
            else:
                os.chmod(full, 0o700)
                os.rmdir(full)
    pending = ["/"]
    while pending:
        path = pending.pop()
        with memory.scandir(path) as entries:
            for entry in entries:
                real = os.path.join(directory, entry.path.lstrip("/"))
                info = entry.stat(follow_symlinks=False)
                if entry.is_symlink():
                    os.symlink(memory.readlink(entry.path), real)
                elif entry.is_dir(follow_symlinks=False):
                    os.mkdir(real)
                    pending.append(entry.path)
                else:
                    with memory.open(entry.path, "rb") as handle, open(real, "wb") as out:
                        out.write(handle.read())
                    os.chmod(real, st.S_IMODE(info.st_mode))
                    os.utime(real, ns=(info.st_atime_ns, info.st_mtime_ns))
