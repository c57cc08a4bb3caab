"""Test helpers: the journal written and read the way the runtime does, through its owner.

Each helper opens the store's transaction and calls :mod:`codemode.journal` with its
connection, as :mod:`codemode.calls` and :mod:`codemode.driver` do.
"""

from __future__ import annotations

from typing import Any

from codemode import CodeModeStore, journal
from codemode.records import JournalEntry


async def append(store: CodeModeStore, entry: JournalEntry) -> None:
    """Record ``entry`` in its own write transaction."""
    async with store.transaction() as tx:
        await journal.append(tx.connection, entry)


async def append_next(store: CodeModeStore, entry: JournalEntry) -> int:
    """Record ``entry`` at the next free seq, choice and insert in one transaction."""
    async with store.transaction() as tx:
        return await journal.append_next(tx.connection, entry)


async def settle(store: CodeModeStore, execution_id: str, seq: int, **fields: Any) -> bool:
    """Move the entry at ``seq`` on (``state=``, ``result=``, ``error=``, ``only_if=``)."""
    async with store.transaction() as tx:
        return await journal.settle(tx.connection, execution_id, seq, **fields)


async def entries(store: CodeModeStore, execution_id: str) -> list[JournalEntry]:
    """The execution's journal in seq order, read strictly."""
    async with store.reading() as conn:
        return await journal.read(conn, execution_id)
