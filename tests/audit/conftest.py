"""Fixtures for the audit log's tests: a log with its key and checkpoints file in tmp_path
(automatic checkpoints off, so each test decides when one is signed), on each backend in
turn (``log``) or in a SQLite file an attacker can edit (``file_log``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from audit import AuditLog, CheckpointPolicy


async def _opened(database: str | Path, tmp_path: Path) -> AuditLog:
    return await AuditLog.open(database, key_file=tmp_path / "keys" / "ed25519.key",
                               checkpoints_file=tmp_path / "keys" / "checkpoints.jsonl",
                               policy=CheckpointPolicy(every_entries=0, every_s=0))


@pytest.fixture
async def log(database: str, tmp_path: Path) -> AsyncIterator[AuditLog]:
    opened = await _opened(database, tmp_path)
    yield opened
    await opened.close()


@pytest.fixture
async def file_log(tmp_path: Path) -> AsyncIterator[AuditLog]:
    opened = await _opened(tmp_path / "sandbox.db", tmp_path)
    yield opened
    await opened.close()
