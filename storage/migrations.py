"""Versioned migrations, written per backend and recorded in ``schema_migrations``.

Each component (``workspace``, ``identity``, ...) owns a list of :class:`Migration`; a
version carries the statements for each backend, so a version means the same tables on
both. ``schema_migrations`` records, per component, which versions ran. Each version runs in
its own write transaction under the ``schema_migrations`` lock, together with its
bookkeeping row, so two processes starting at once cannot both apply it, and a failing
version leaves no trace (DDL is transactional on both backends).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .interface import Database, Dialect

__all__ = ["Migration", "apply_migrations"]


@dataclass(frozen=True)
class Migration:
    """One numbered version of a component's tables, for each backend."""

    version: int
    sqlite: Sequence[str]
    postgresql: Sequence[str]

    def statements(self, dialect: Dialect) -> Sequence[str]:
        return self.postgresql if dialect.name == "postgresql" else self.sqlite


_LOCK = "schema_migrations"


async def apply_migrations(db: Database, component: str, migrations: Sequence[Migration]) -> int:
    """Run the migrations of ``component`` not yet recorded; return the resulting version."""
    d = db.dialect
    async with db.transaction(write=True, lock=_LOCK) as conn:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            f" component TEXT NOT NULL, version {d.integer} NOT NULL,"
            f" applied_at {d.real} NOT NULL DEFAULT {d.now}, PRIMARY KEY (component, version))")
    current = 0
    for migration in sorted(migrations, key=lambda m: m.version):
        async with db.transaction(write=True, lock=_LOCK) as conn:
            done = await conn.fetchone(
                "SELECT 1 FROM schema_migrations WHERE component = ? AND version = ?",
                (component, migration.version))
            if done is None:
                for statement in migration.statements(d):
                    await conn.execute(statement)
                await conn.execute(
                    "INSERT INTO schema_migrations (component, version) VALUES (?, ?)",
                    (component, migration.version))
        current = migration.version
    return current
