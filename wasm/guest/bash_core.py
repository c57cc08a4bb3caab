"""Imports the bash interpreter's parser and evaluator early in the build, before the rest
of the image.

Where a module is imported decides where its objects lie in linear memory, and a run's
writes to them (reference counts, specialised bytecode) copy the pages they fall on. The
pool resets the first ``sandbox.engine.POOL_LINEAR_MEMORY_KEEP_RESIDENT`` bytes in place,
so pages there cost a run no page fault; imported first, the parser, the evaluator and the
builtins lie there rather than at the top of the ~110 MiB image. Measured (``:`` in a fresh
isolate): 670 page faults and 3.1 ms of call with them imported after ``preload``, 345
and 1.9 ms before it.

Only ``bash`` itself: importing ``bash.commands`` this early too (git's subcommands left
for later) moved enough of the image for componentize-py to refuse the snapshot
("fuel allocated for hostcalls has been exhausted" while it copies the memory out), so
the image is near that limit; ``bash_entry`` imports the commands after ``preload``.
"""

from __future__ import annotations

import bash

__all__ = ["bash"]
