"""Which hosts connectors may reach: the operator's allowlist, checked when a connector is
stored or refreshed and again at every call (the setting may have changed since).

An entry is a host name or address (``api.github.com``, ``10.0.0.7``, ``[::1]``), optionally
with a port (``localhost:8080``; without one, any port), or ``*.example.com`` for every name
under ``example.com`` (not ``example.com`` itself); ``*`` alone allows every host. Names are
compared as written, case-insensitively, never resolved: an allowlist of names says which
names the service may be pointed at, and a name is what a connector definition gives.
No allowlist (``None``) allows every host.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import httpx

__all__ = ["HostAllowlist"]

_DEFAULT_PORTS = {"http": 80, "https": 443}


@dataclass(frozen=True)
class _Entry:
    host: str
    port: int | None
    subdomains: bool

    def matches(self, host: str, port: int) -> bool:
        if self.port is not None and self.port != port:
            return False
        if self.subdomains:
            return host.endswith("." + self.host)
        return host == self.host


def _entry(text: str) -> _Entry:
    raw = text.strip().lower()
    try:
        url = httpx.URL(f"http://{raw}")
    except (httpx.InvalidURL, ValueError):
        url = None
    subdomains = raw.startswith("*.")
    if url is None or not raw or "/" in raw or "@" in raw or "?" in raw or "#" in raw \
            or (raw.count("*") - int(subdomains)) > 0:
        raise ValueError(f"connector host {text!r} is not a host, host:port or *.domain")
    host = raw[2:] if subdomains else url.host
    if subdomains:
        host = host.rsplit(":", 1)[0] if url.port is not None else host
    return _Entry(host=host, port=url.port, subdomains=subdomains)


class HostAllowlist:
    """The allowlist; ``HostAllowlist(None)`` allows every host."""

    def __init__(self, entries: Iterable[str] | None) -> None:
        given = None if entries is None else [e for e in entries if e.strip()]
        self.open = given is None or any(e.strip() == "*" for e in given)
        self.entries = () if self.open or given is None else tuple(_entry(e) for e in given)
        self.shown = ", ".join(e.strip() for e in given) if given else ""

    def problem(self, url: str, label: str) -> str | None:
        """Why ``url`` may not be reached (naming ``label``, the field it came from), or None."""
        if self.open:
            return None
        try:
            parsed = httpx.URL(url)
        except (httpx.InvalidURL, ValueError):
            return f"{label} is not a URL"
        port = parsed.port or _DEFAULT_PORTS.get(parsed.scheme, 0)
        host = parsed.host.lower()
        if any(entry.matches(host, port) for entry in self.entries):
            return None
        where = f"{host}:{port}" if parsed.port else host
        return (f"{label} host {where} is not one the service's connectors may reach "
                f"(SANDBOX_CONNECTOR_HOSTS: {self.shown or 'none'})")
