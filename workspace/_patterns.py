"""The guest's patterns: regular expressions and globs, matched by RE2 in linear time.

Why RE2: Python's ``re`` backtracks, so ``(a+)+$`` over 26 ``a`` and a ``!`` took seconds,
doubling per character, and so did a glob of many ``**`` over a deep path; ``re`` holds the
GIL while it runs, so moving it to a thread does not free the event loop either. RE2 (the
``google-re2`` package) matches in time linear in the text and releases the GIL while it
matches, so the callers also run their matching loops in a thread (``asyncio.to_thread``)
and every other request keeps being answered.

RE2's syntax is Python's minus what needs backtracking: lookaround (``(?=``, ``(?<!``) and
backreferences (``\\1`` in the pattern) are refused with ``EINVAL`` naming RE2; ``\\w``,
``\\d`` and ``\\b`` are ASCII. Replacement templates (``\\1``, ``\\g<name>``) work as in ``re``.
``whole_word`` is checked around each match with Python's Unicode notion of a word
character (the match must not touch a letter, digit or ``_`` on either side); where the
leftmost match at a position fails that check the search resumes one character later, so
of alternatives starting at one position only the one RE2 prefers is tried.

Bounds, each an ``EFBIG`` ``LimitExceeded`` naming the bound:

- a regular expression is at most ``MAX_REGEX_CHARS`` characters, and RE2's compiled
  program at most ``REGEX_MEMORY_BYTES``;
- a glob is at most ``_paths.MAX_PATH`` characters with at most ``MAX_GLOB_DOUBLE_STARS``
  ``**`` segments, ``MAX_GLOB_GROUPS`` ``{`` and ``MAX_GLOB_GROUPS`` ``[``;
- one search or replace stops after ``SCAN_SECONDS`` (a :class:`ScanBudget`), whatever the
  amount of text.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import re2  # type: ignore[import-untyped]

from .errors import InvalidArgument, LimitExceeded

__all__ = [
    "MAX_GLOB_DOUBLE_STARS",
    "MAX_GLOB_GROUPS",
    "MAX_REGEX_CHARS",
    "REGEX_MEMORY_BYTES",
    "SCAN_SECONDS",
    "Glob",
    "Hit",
    "ScanBudget",
    "TextPattern",
    "compile_regex",
]

MAX_REGEX_CHARS = 4096
REGEX_MEMORY_BYTES = 8 * 1024 * 1024
MAX_GLOB_DOUBLE_STARS = 10
MAX_GLOB_GROUPS = 64
SCAN_SECONDS = 10.0


class ScanBudget:
    """A deadline for one search or replace; ``check`` raises ``EFBIG`` once it has passed."""

    def __init__(self, seconds: float | None = None) -> None:
        self.seconds = SCAN_SECONDS if seconds is None else seconds
        self._deadline = time.monotonic() + self.seconds

    def check(self) -> None:
        if time.monotonic() > self._deadline:
            raise LimitExceeded(f"the pattern search ran past its {self.seconds:g} s bound; narrow include or the pattern")


def _options(*, case_sensitive: bool, literal: bool = False) -> Any:
    options = re2.Options()
    options.log_errors = False  # RE2 would print every refused pattern on the service's stderr
    options.max_mem = REGEX_MEMORY_BYTES
    options.case_sensitive = case_sensitive
    options.literal = literal
    return options


def compile_regex(pattern: str, *, case_sensitive: bool = True, literal: bool = False, what: str = "regular expression") -> Any:
    """Compile ``pattern`` for RE2, or raise ``EINVAL`` (bad or unsupported) / ``EFBIG`` (too big)."""
    if not isinstance(pattern, str):
        raise InvalidArgument(f"the {what} must be a string, not {type(pattern).__name__}")
    if len(pattern) > MAX_REGEX_CHARS:
        raise LimitExceeded(f"the {what} is {len(pattern)} characters; the limit is {MAX_REGEX_CHARS}")
    try:
        return re2.compile(pattern, _options(case_sensitive=case_sensitive, literal=literal))
    except re2.error as exc:
        reason = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        if "too large" in reason or "out of memory" in reason:
            raise LimitExceeded(f"the {what} compiles to more than {REGEX_MEMORY_BYTES} bytes: {reason}") from None
        raise InvalidArgument(
            f"invalid {what} {pattern[:200]!r}: {reason} (patterns run on RE2, which has no lookaround or backreferences)"
        ) from None


@dataclass(frozen=True, slots=True)
class Hit:
    """One match in a line: character offsets and the matched text."""

    start: int
    end: int
    text: str


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _step(data: bytes, at: int) -> int:
    """Bytes in the UTF-8 character at ``data[at]`` (1 at the end, or for a stray byte)."""
    if at >= len(data):
        return 1
    lead = data[at]
    if lead >= 0xF0:
        return 4
    if lead >= 0xE0:
        return 3
    if lead >= 0xC0:
        return 2
    return 1


def _stands_alone(data: bytes, start: int, end: int) -> bool:
    before = data[max(0, start - 4) : start].decode("utf-8", "ignore")[-1:]
    after = data[end : end + 4].decode("utf-8", "ignore")[:1]
    return not (before and _is_word(before)) and not (after and _is_word(after))


class TextPattern:
    """A search query compiled for RE2: a literal string or a regular expression."""

    def __init__(self, query: str, *, regex: bool, case_sensitive: bool, whole_word: bool) -> None:
        if not isinstance(query, str) or query == "":
            raise InvalidArgument("the search query must be a non-empty string")
        self.query = query
        self.whole_word = whole_word
        self._regexp = compile_regex(query, case_sensitive=case_sensitive, literal=not regex)

    def _matches(self, data: bytes, budget: ScanBudget) -> Iterator[Any]:
        """RE2 matches over UTF-8 ``data`` (offsets in bytes), whole-word filtered.

        After an empty match the search moves on by one whole character, never into the
        middle of one, so what is cut and joined is always valid UTF-8.
        """
        pos = 0
        while pos <= len(data):
            budget.check()
            match = self._regexp.search(data, pos)
            if match is None:
                return
            start, end = match.span()
            if not self.whole_word or _stands_alone(data, start, end):
                yield match
                pos = end if end > start else end + _step(data, end)
            else:
                pos = start + _step(data, start)

    def contains(self, line: str, budget: ScanBudget) -> bool:
        return next(self._matches(line.encode("utf-8", "surrogatepass"), budget), None) is not None

    def hits(self, line: str, budget: ScanBudget) -> Iterator[Hit]:
        """Non-empty matches in ``line``, with character offsets."""
        data = line.encode("utf-8", "surrogatepass")
        byte_at, char_at = 0, 0  # a cursor, so offsets cost one pass over the line in all
        for match in self._matches(data, budget):
            start, end = match.span()
            if start == end:
                continue  # an empty match says nothing useful
            char_at += len(data[byte_at:start].decode("utf-8", "surrogatepass"))
            text = data[start:end].decode("utf-8", "surrogatepass")
            yield Hit(char_at, char_at + len(text), text)
            byte_at, char_at = end, char_at + len(text)

    def subn(self, text: str, replacement: str, *, expand: bool, budget: ScanBudget) -> tuple[str, int]:
        """Replace every match; ``expand`` reads ``\\1`` and ``\\g<name>`` in ``replacement``."""
        data = text.encode("utf-8", "surrogatepass")
        template = replacement.encode("utf-8", "surrogatepass")
        pieces: list[bytes] = []
        done = count = 0
        for match in self._matches(data, budget):
            start, end = match.span()
            pieces.append(data[done:start])
            if expand:
                try:
                    pieces.append(match.expand(template))
                except (IndexError, KeyError, ValueError, re2.error) as exc:
                    raise InvalidArgument(f"invalid replacement template {replacement[:200]!r}: {exc}") from None
            else:
                pieces.append(template)
            done = end
            count += 1
        if not count:
            return text, 0
        pieces.append(data[done:])
        return b"".join(pieces).decode("utf-8", "surrogatepass"), count


class Glob:
    """A glob compiled for RE2: ``matches(path)`` is a whole-path match, linear in the path."""

    def __init__(self, pattern: str, translated: str) -> None:
        self.pattern = pattern
        self._regexp = compile_regex(translated, what="glob")

    def matches(self, path: str) -> bool:
        return self._regexp.fullmatch(path) is not None


def check_glob_bounds(pattern: str) -> None:
    """Refuse globs over the ``**`` and group bounds before translating them."""
    double_stars = sum(1 for part in pattern.split("/") if "**" in part)
    if double_stars > MAX_GLOB_DOUBLE_STARS:
        raise LimitExceeded(f"the glob has {double_stars} '**' segments; the limit is {MAX_GLOB_DOUBLE_STARS}")
    for opener in "{[":
        if pattern.count(opener) > MAX_GLOB_GROUPS:
            raise LimitExceeded(f"the glob has {pattern.count(opener)} '{opener}'; the limit is {MAX_GLOB_GROUPS}")
