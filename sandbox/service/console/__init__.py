"""The operator console: its sign-in sessions (:mod:`.sessions`) and the page's own assets
(``index.html``, ``login.html``, ``static/``; package data, no CDN and no build step).

The routes that serve it are :mod:`sandbox.service.routes.console`; the page itself calls the
ordinary ``/v1`` API with its session cookie, which the guard accepts in place of a bearer
token (and then demands the session's CSRF token on every request that changes something).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["ASSETS"]

ASSETS = Path(__file__).parent
"""Where the console's HTML, scripts and styles are."""
