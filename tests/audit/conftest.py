"""Fixtures for the audit log's tests: a log with its key and checkpoints file in tmp_path
(automatic checkpoints off, so each test decides when one is signed)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from audit import AuditLog, CheckpointPolicy


@pytest.fixture
async def log(tmp_path: Path) -> AsyncIterator[AuditLog]:
    opened = await AuditLog.open(tmp_path / "sandbox.db", key_file=tmp_path / "keys" / "ed25519.key",
                                 checkpoints_file=tmp_path / "keys" / "checkpoints.jsonl",
                                 policy=CheckpointPolicy(every_entries=0, every_s=0))
    yield opened
    await opened.close()
