"""git's patch format: the ``diff --git`` headers, unified hunks with three lines of
context and the function line after ``@@``, and the ``--stat``-style summary counts.

The line matching is the guest's ``diff`` core (GNU's Myers variant); git's own Myers run
picks the same edit script except where a change can slide along repeated lines and git's
indent heuristic prefers another placement.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..text.diffcore import changed_lines

CONTEXT = 3
FUNC_LINE_MAX = 80
"""xdiff keeps at most 80 bytes of the function line it shows after ``@@``."""


@dataclass(frozen=True)
class Side:
    """One side of a file's change: None for a side where the file does not exist."""

    path: str
    mode: int
    sha: str
    data: bytes


def is_binary(data: bytes) -> bool:
    """git's test: a NUL byte in the first 8000."""
    return b"\0" in data[:8000]


def split_lines(data: bytes) -> list[bytes]:
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
        return [line + b"\n" for line in lines]
    return [line + b"\n" for line in lines[:-1]] + [lines[-1]]


def _func_line(line: bytes) -> bytes | None:
    if not line or not (chr(line[0]).isascii() and (chr(line[0]).isalpha() or line[0] in b"_$")):
        return None
    text = line[:FUNC_LINE_MAX]
    return text.rstrip(b" \t\n\r\v\f")


def _range(start: int, count: int) -> str:
    if count == 1:
        return str(start + 1)
    return f"{start if count == 0 else start + 1},{count}"


def hunks(old: bytes, new: bytes) -> tuple[list[bytes], int, int]:
    """The unified hunks between ``old`` and ``new`` and the counts of added and removed
    lines."""
    a, b = split_lines(old), split_lines(new)
    del_a, add_b = changed_lines(list(a), list(b), a, b)
    changes: list[tuple[int, int, int, int]] = []  # (a start, a end, b start, b end)
    i = j = 0
    while i < len(a) or j < len(b):
        if i < len(a) and j < len(b) and not del_a[i] and not add_b[j]:
            i, j = i + 1, j + 1
            continue
        si, sj = i, j
        while i < len(a) and del_a[i]:
            i += 1
        while j < len(b) and add_b[j]:
            j += 1
        if (si, sj) == (i, j):  # one side ran out while the other is unchanged
            i, j = min(i + 1, len(a)), min(j + 1, len(b))
            continue
        changes.append((si, i, sj, j))
    out: list[bytes] = []
    added = sum(add_b)
    removed = sum(del_a)
    k = 0
    while k < len(changes):
        first = k
        while k + 1 < len(changes) and changes[k + 1][0] - changes[k][1] <= 2 * CONTEXT:
            k += 1
        last = changes[k]
        a0 = max(changes[first][0] - CONTEXT, 0)
        b0 = max(changes[first][2] - CONTEXT, 0)
        a1 = min(last[1] + CONTEXT, len(a))
        b1 = min(last[3] + CONTEXT, len(b))
        header = f"@@ -{_range(a0, a1 - a0)} +{_range(b0, b1 - b0)} @@".encode()
        for n in range(a0 - 1, -1, -1):
            func = _func_line(a[n])
            if func is not None:
                if func:
                    header += b" " + func
                break
        out.append(header + b"\n")
        ai, bj = a0, b0
        for ca0, ca1, cb0, cb1 in changes[first : k + 1]:
            out.extend(_lines(b" ", a[ai:ca0]))
            out.extend(_lines(b"-", a[ca0:ca1]))
            out.extend(_lines(b"+", b[cb0:cb1]))
            ai, bj = ca1, cb1
        out.extend(_lines(b" ", a[ai:a1]))
        k += 1
    return out, added, removed


def _lines(prefix: bytes, lines: list[bytes]) -> list[bytes]:
    out = []
    for line in lines:
        if line.endswith(b"\n"):
            out.append(prefix + line)
        else:
            out.append(prefix + line + b"\n\\ No newline at end of file\n")
    return out


def patch(old: Side | None, new: Side | None) -> list[bytes]:
    """One file's ``diff --git`` section (empty when nothing differs)."""
    assert old is not None or new is not None
    path_a = (old or new).path  # type: ignore[union-attr]
    path_b = (new or old).path  # type: ignore[union-attr]
    if old is not None and new is not None and old.sha == new.sha and old.mode == new.mode:
        return []
    out = [f"diff --git a/{path_a} b/{path_b}\n".encode("utf-8", "surrogateescape")]
    short_old = old.sha[:7] if old else "0000000"
    short_new = new.sha[:7] if new else "0000000"
    if old is None:
        assert new is not None
        out.append(f"new file mode {new.mode:o}\n".encode())
        out.append(f"index {short_old}..{short_new}\n".encode())
    elif new is None:
        out.append(f"deleted file mode {old.mode:o}\n".encode())
        out.append(f"index {short_old}..{short_new}\n".encode())
    elif old.mode != new.mode:
        out.append(f"old mode {old.mode:o}\nnew mode {new.mode:o}\n".encode())
        if old.sha != new.sha:
            out.append(f"index {short_old}..{short_new}\n".encode())
    else:
        out.append(f"index {short_old}..{short_new} {old.mode:o}\n".encode())
    if old is not None and new is not None and old.sha == new.sha:
        return out
    old_data = old.data if old else b""
    new_data = new.data if new else b""
    name_a = f"a/{path_a}" if old else "/dev/null"
    name_b = f"b/{path_b}" if new else "/dev/null"
    if is_binary(old_data) or is_binary(new_data):
        out.append(f"Binary files {name_a} and {name_b} differ\n".encode("utf-8", "surrogateescape"))
        return out
    body, _added, _removed = hunks(old_data, new_data)
    if body:
        out.append(f"--- {name_a}\n+++ {name_b}\n".encode("utf-8", "surrogateescape"))
        out.extend(body)
    return out


def line_counts(old: bytes, new: bytes) -> tuple[int, int]:
    """Lines added and removed (binary files count none)."""
    if is_binary(old) or is_binary(new):
        return 0, 0
    _body, added, removed = hunks(old, new)
    return added, removed


def summary_line(files: int, insertions: int, deletions: int) -> str:
    """git's ``N files changed, N insertions(+), N deletions(-)`` line."""
    if not files:
        return " 0 files changed"
    text = f" {files} file{'s' if files != 1 else ''} changed"
    if insertions or deletions == 0:
        text += f", {insertions} insertion{'s' if insertions != 1 else ''}(+)"
    if deletions or insertions == 0:
        text += f", {deletions} deletion{'s' if deletions != 1 else ''}(-)"
    return text
