"""Text helpers shared by the filesystem, the edit helpers and the tools: diffs and decoding."""

from __future__ import annotations

import codecs
import difflib

from .errors import LimitExceeded

__all__ = ["MAX_DIFF_LINES", "decode", "looks_like_text", "unified_diff"]

MAX_DIFF_LINES = 10_000


def decode(data: bytes) -> str:
    """UTF-8 with replacement: a read never fails on stray bytes."""
    return data.decode("utf-8", errors="replace")


def looks_like_text(data: bytes) -> bool:
    """No NUL in the first 4,096 bytes and under 1% replacement characters there."""
    head = data[:4096]
    if b"\x00" in head:
        return False
    # final=False: a multi-byte character cut at the 4,096-byte edge is not a decode error.
    text = codecs.getincrementaldecoder("utf-8")("replace").decode(head, final=False)
    if not text:
        return True
    return text.count("\ufffd") / len(text) < 0.01


def unified_diff(old: str, new: str, old_label: str = "a", new_label: str = "b") -> str:
    """Unified diff with 3 context lines; "" when equal; EFBIG over 10,000 lines a side."""
    if old == new:
        return ""
    old_lines = old.splitlines(keepends=True)
    new_lines = new.splitlines(keepends=True)
    if len(old_lines) > MAX_DIFF_LINES or len(new_lines) > MAX_DIFF_LINES:
        raise LimitExceeded(
            f"diff input has {max(len(old_lines), len(new_lines))} lines; the limit is {MAX_DIFF_LINES}"
        )
    out: list[str] = []
    for line in difflib.unified_diff(old_lines, new_lines, old_label, new_label, n=3):
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)
