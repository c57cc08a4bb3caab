"""The HTTP API's routes, one module per resource; :data:`ROUTERS` is mounted by the app.

| module        | paths                                                         |
|---------------|---------------------------------------------------------------|
| ``health``    | ``GET /healthz``                                              |
| ``execute``   | ``POST /v1/execute``, ``GET /v1/execute/description``         |
| ``bash``      | ``POST /v1/bash``                                             |
| ``executions``| ``/v1/executions/...`` (records, results, cancel, rollback, events, sweep) |
| ``approvals`` | ``/v1/approvals/...``                                         |
| ``toolsets``  | ``/v1/toolsets/...``                                          |
| ``connectors``| ``/v1/connectors/...`` (MCP and OpenAPI connectors)           |
| ``snippets``  | ``/v1/snippets/...``                                          |
| ``workspaces``| ``/v1/workspaces/...`` (tools, raw files, info)               |
| ``admin``     | ``/v1/admin/...`` (whoami, tenants, tokens)                   |
| ``audit``     | ``GET /v1/audit``, ``GET /v1/audit/verify``                   |
| ``console``   | ``/console/...`` (the operator console; mounted by ``install_console``) |

Every ``/v1`` route takes the principal the guard resolved through ``Depends(requires(...))``
(:mod:`sandbox.service.identity`), naming the scopes it needs; ``tests/service/test_tenancy.py``
reads them from this table.

Routes raise; the service's error map (:mod:`sandbox.service.errors`) answers.
"""

from __future__ import annotations

from fastapi import APIRouter

from . import (admin, approvals, audit, bash, connectors, execute, executions, health, snippets,
               toolsets, workspaces)

__all__ = ["ROUTERS"]

ROUTERS: tuple[APIRouter, ...] = (
    health.router,
    execute.router,
    bash.router,
    executions.router,
    approvals.router,
    toolsets.router,
    connectors.router,
    snippets.router,
    workspaces.router,
    admin.router,
    audit.router,
)
