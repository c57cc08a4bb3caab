"""The bundled packages' metadata, held in memory for ``importlib.metadata``.

``importlib.metadata`` finds distributions by reading ``*.dist-info`` directories on
``sys.path``, which exist at build time and not in the isolate. So the build reads what
each bundled distribution's metadata says (``METADATA``, ``entry_points.txt``,
``top_level.txt``, ``WHEEL``) into memory, and a finder on ``sys.meta_path`` answers from
it: ``version("jinja2")``, ``packages_distributions()`` and entry points work at run time
(markdown finds its extensions by entry point, ``markdown(..., extensions=["tables"])``).
"""

from __future__ import annotations

import importlib.metadata as metadata
import re
import sys
from pathlib import Path
from typing import Any, Iterator

KEPT_FILES = ("METADATA", "entry_points.txt", "top_level.txt", "WHEEL")


class MemoryDistribution(metadata.Distribution):
    """A distribution whose metadata files were read at build time."""

    def __init__(self, files: dict[str, str]) -> None:
        self._files = files

    def read_text(self, filename: str) -> str | None:
        return self._files.get(filename)

    def locate_file(self, path: Any) -> Path:
        # Its files are not on any filesystem the isolate can see.
        return Path("/") / "unavailable" / str(path)


class MemoryFinder(metadata.DistributionFinder):
    """Finds the distributions read at build time (and no module: ``find_spec`` is None)."""

    def __init__(self, distributions: list[MemoryDistribution]) -> None:
        self.distributions = distributions

    def find_spec(self, *_args: Any, **_kwargs: Any) -> None:
        return None

    def find_distributions(self, context: Any = None) -> Iterator[MemoryDistribution]:
        name = getattr(context, "name", None)
        wanted = _normalized(name) if name else None
        for distribution in self.distributions:
            if wanted is None or _normalized(distribution.name) == wanted:
                yield distribution


def _normalized(name: str) -> str:
    """A distribution name as PEP 503 compares it (``Foo.Bar_baz`` is ``foo-bar-baz``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def install() -> None:
    """Done once, at build time: read every distribution's metadata, then answer from it."""
    held = []
    for found in metadata.distributions():
        files = {name: text for name in KEPT_FILES if (text := found.read_text(name)) is not None}
        if "METADATA" in files:
            held.append(MemoryDistribution(files))
    sys.meta_path.append(MemoryFinder(held))
