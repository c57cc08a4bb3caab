"""The guest component's entry point: what the WIT world exports, and nothing else.

Imports here run once, at build time, inside componentize-py's snapshot: the preloaded
standard library, the Code Mode runtime and the bash interpreter are all part of the image,
so a fresh isolate starts with them in memory.
"""

from __future__ import annotations

import gc

import distributions
import heap_fill
import preload
import guard
import pyexec
import runfacts
import tzmemory
import wit_world
from componentize_py_types import Err
from wit_world.imports import host

# The bash interpreter before the rest of the image: low in linear memory, where the pool
# resets pages in place and a run's writes cost no page fault (see bash_core).
import bash_core  # noqa: E402,F401

preload.load()  # the standard library and the bundled packages, into the snapshot
# after the bundled packages: the bash guest's git is built on one of them (dulwich)
import bash_entry  # noqa: E402

tzmemory.install()
distributions.install()
guard.block_modules()
guard.install()
runfacts.install()
pyexec.warm_up()  # after runfacts: a run begins and ends through it
# Everything imported so far lives as long as the isolate: the collector never needs to
# look at it again, so a run's collections stay as cheap as with a bare interpreter.
gc.collect()
heap_fill.fill_free_chunks()  # after the last collection, which would free more
gc.freeze()


class WitWorld(wit_world.WitWorld):  # type: ignore[misc]  # generated at build time, untyped here
    def execute(self, request: str) -> str:
        return pyexec.run(request, host.call, Err)

    def bash(self, request: str) -> str:
        return bash_entry.run_request(request)
