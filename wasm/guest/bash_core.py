"""Imports the bash interpreter's parser and evaluator early in the build, before the rest
of the image.

Where a module is imported decides where its objects lie in linear memory, and a run's
writes to them (reference counts, specialised bytecode) touch the pages they fall on.
Imported first, the parser, the evaluator and the builtins lie together near the bottom of
the ~126 MiB image rather than spread through it, so a small script writes fewer pages.
When wasmtime's pooling allocator kept only the low span resident this saved page faults
(``:`` in a fresh isolate: 670 faults and 3.1 ms of call with them imported after
``preload``, 345 and 1.9 ms before it); with ``sandbox.memory_slots`` no page costs a fault,
and fewer written pages are fewer to copy back when the isolate is dropped.

Only ``bash`` itself: importing ``bash.commands`` this early too (git's subcommands left
for later) moved enough of the image for componentize-py to refuse the snapshot
("fuel allocated for hostcalls has been exhausted" while it copies the memory out), so
the image is near that limit; ``bash_entry`` imports the commands after ``preload``.
"""

from __future__ import annotations

import bash

__all__ = ["bash"]
