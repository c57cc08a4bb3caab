"""Connector header values at rest: encrypted with a key kept beside the database, or
``env:NAME`` references read from the environment only when a call is made.

:class:`SecretBox` owns the key (``<data dir>/keys/connectors.key``, created owner-only on
first use, in a directory only the owner can enter) and seals a connector's headers as one
Fernet token (AES-128-CBC with an HMAC-SHA256, from ``cryptography``): the database alone
gives nobody the headers. A value written ``env:NAME`` is not a secret at all; it is stored
as it is, and :func:`resolve_headers` reads ``$NAME`` at call time, so the secret can live
only in the service's environment. :func:`masked_headers` is the only form of headers that
leaves the service (GET, listings, errors): names, with every stored value hidden.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path

from cryptography.fernet import Fernet, InvalidToken

from .errors import ConnectorSecretError

__all__ = [
    "ENV_PREFIX",
    "HIDDEN",
    "SecretBox",
    "masked_headers",
    "resolve_headers",
]

ENV_PREFIX = "env:"
HIDDEN = "<hidden>"
_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}\Z")


class SecretBox:
    """Seals and opens connector headers with the service's connector key."""

    def __init__(self, key_dir: Path) -> None:
        self.key_path = key_dir / "connectors.key"
        self._fernet = Fernet(_load_or_create_key(self.key_path))

    def seal(self, headers: Mapping[str, str]) -> str:
        return self._fernet.encrypt(json.dumps(dict(headers), sort_keys=True).encode()).decode("ascii")

    def open(self, token: str, connector: str) -> dict[str, str]:
        if not token:
            return {}
        try:
            plain = self._fernet.decrypt(token.encode("ascii"))
        except (InvalidToken, ValueError):
            raise ConnectorSecretError(
                f'connector "{connector}": its stored headers cannot be decrypted with '
                f"{self.key_path} (the key changed?); store the connector again") from None
        value = json.loads(plain)
        return {str(k): str(v) for k, v in value.items()}


def _load_or_create_key(path: Path) -> bytes:
    try:
        return path.read_bytes().strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = Fernet.generate_key()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: use theirs
        return path.read_bytes().strip()
    with os.fdopen(fd, "wb") as handle:
        handle.write(key)
    return key


def env_reference_problem(header: str, value: str) -> str | None:
    """Why ``value`` is a malformed ``env:`` reference, or None."""
    if value.startswith(ENV_PREFIX) and not _ENV_NAME.match(value[len(ENV_PREFIX):]):
        return f'header {header!r}: "env:" must be followed by an environment variable name'
    return None


def resolve_headers(headers: Mapping[str, str], connector: str) -> dict[str, str]:
    """The headers to send: ``env:NAME`` values read from the environment now."""
    resolved: dict[str, str] = {}
    for name, value in headers.items():
        if value.startswith(ENV_PREFIX):
            variable = value[len(ENV_PREFIX):]
            found = os.environ.get(variable)
            if found is None:
                raise ConnectorSecretError(
                    f'connector "{connector}": header {name!r} comes from ${variable}, '
                    "which is not set in the service's environment")
            value = found
        resolved[name] = value
    return resolved


def masked_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """Header names with their values hidden; ``env:NAME`` references are shown (not secret)."""
    return {name: value if value.startswith(ENV_PREFIX) else HIDDEN
            for name, value in headers.items()}
