"""Constraints shared by more than one resource's routes (names, sizes)."""

from __future__ import annotations

MIB = 1024 * 1024

WORKSPACE_NAME = r"^[A-Za-z0-9_.-]+$"
"""A workspace's name: what ``execute``, ``bash`` and ``/v1/workspaces/{ws}`` accept."""
