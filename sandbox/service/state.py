"""What the running service holds (``app.state``), read by routes through typed accessors.

The lifespan in :mod:`sandbox.service.app` opens each of these; a route that finds one
missing (the service was not started, or is shutting down) gets :class:`ServiceUnavailable`,
which the error map answers ``503 unavailable``.
"""

from __future__ import annotations

from typing import TypeVar

from fastapi import Request

from audit import AuditLog
from codemode import CodeModeStore, Connectors, EventBus, Executions
from workspace import WorkspaceStore

from .. import AsyncSandbox
from .errors import ServiceUnavailable
from .settings import Settings
from .tokens import IdentityStore

__all__ = ["audit_log", "codemode_store", "connectors", "events", "executions", "identity",
           "inline_tool_secret", "sandbox", "settings", "workspaces"]

T = TypeVar("T")


def _held(request: Request, name: str, kind: type[T], what: str) -> T:
    value = getattr(request.app.state, name, None)
    if not isinstance(value, kind):
        raise ServiceUnavailable(f"the {what} is not available")
    return value


def sandbox(request: Request) -> AsyncSandbox:
    return _held(request, "sandbox", AsyncSandbox, "isolate pool")


def workspaces(request: Request) -> WorkspaceStore:
    return _held(request, "workspaces", WorkspaceStore, "workspace store")


def codemode_store(request: Request) -> CodeModeStore:
    return _held(request, "codemode", CodeModeStore, "Code Mode store")


def connectors(request: Request) -> Connectors:
    return _held(request, "connectors", Connectors, "connector registry")


def executions(request: Request) -> Executions:
    return _held(request, "executions", Executions, "execution driver")


def audit_log(request: Request) -> AuditLog:
    return _held(request, "audit", AuditLog, "audit log")


def events(request: Request) -> EventBus:
    return _held(request, "events", EventBus, "event bus")


def settings(request: Request) -> Settings:
    return _held(request, "settings", Settings, "service settings")


def inline_tool_secret(request: Request) -> str:
    return _held(request, "inline_tool_secret", str, "inline tool secret")


def identity(request: Request) -> IdentityStore:
    return _held(request, "identity", IdentityStore, "identity store")
