"""Tenants as the workspace store sees them: a name rule and the storage key of a workspace.

A workspace belongs to one tenant and its name is unique within that tenant. The store keeps
one ``workspaces`` row per workspace, keyed by its storage key: the bare name for the
``default`` tenant (so a data directory from before tenants reads as it was), and
``<tenant>/<name>`` for any other (a workspace name never holds ``/``, so the two forms cannot
meet). The row's ``tenant`` column lets a listing read one tenant's rows by an index.
"""

from __future__ import annotations

import re

from .errors import InvalidArgument

__all__ = ["DEFAULT_TENANT", "TENANT_NAME", "check_tenant", "storage_key", "tenant_of_key"]

DEFAULT_TENANT = "default"
"""The tenant of everything made without one (a local, token-less service; old data)."""

TENANT_NAME = r"^[a-z0-9][a-z0-9_-]{0,62}$"
"""A tenant's name: lower-case letters, digits, ``_`` and ``-``, at most 63 characters."""

_TENANT = re.compile(TENANT_NAME.replace("$", r"\Z"))


def check_tenant(tenant: str) -> str:
    if not isinstance(tenant, str) or not _TENANT.match(tenant):
        raise InvalidArgument(
            "tenant names are 1-63 characters of lower-case letters, digits, '_' or '-', "
            "starting with a letter or digit", repr(tenant)[:80])
    return tenant


def storage_key(tenant: str, name: str) -> str:
    """The ``workspaces.name`` of workspace ``name`` of ``tenant`` (both already checked)."""
    return name if tenant == DEFAULT_TENANT else f"{tenant}/{name}"


def tenant_of_key(key: str) -> str:
    """The tenant of a :func:`storage_key` (a workspace name itself never holds ``/``)."""
    return key.split("/", 1)[0] if "/" in key else DEFAULT_TENANT
