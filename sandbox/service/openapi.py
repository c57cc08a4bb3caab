"""The OpenAPI document, as the service really answers (every error response is the one
error shape in ``application/json``, whatever the route's success media type), and the two
pages that render it, ``/docs`` (Swagger UI) and ``/redoc``, served with every asset local.

FastAPI's own pages load their scripts, styles and favicon from a CDN, so on a machine
without internet they are blank. Here Swagger UI comes from the ``swagger-ui-bundle-v2``
package (a Python dependency) and ReDoc's standalone bundle is vendored into
``console/vendor/`` by ``scripts/install`` (from the npm registry; never fetched at run time).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, Response
from starlette.staticfiles import StaticFiles

from .errors import HTTPError

__all__ = ["DOCS_ASSETS", "REDOC_BUNDLE", "install_openapi"]

ERROR_SCHEMA = {"$ref": "#/components/schemas/ErrorResponse"}

DOCS_ASSETS = "/docs/assets"
"""Where Swagger UI's files are served from."""

REDOC_BUNDLE = Path(__file__).parent / "console" / "vendor" / "redoc.standalone.js"
"""ReDoc's one script, put there by ``scripts/install``."""

FAVICON = "/console/static/favicon.svg"
REDOC_JS = "/redoc/assets/redoc.standalone.js"
REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"
"""The one remote URL in ReDoc's bundle (its "API docs by Redocly" logo): ours instead."""


@functools.cache
def _redoc_bundle() -> bytes:
    if not REDOC_BUNDLE.is_file():
        raise HTTPError(503, "unavailable", "ReDoc's bundle is not installed: run "
                                                    "scripts/install")
    return REDOC_BUNDLE.read_bytes().replace(REDOC_LOGO.encode(), FAVICON.encode())


def _swagger_ui_dir() -> Path:
    import swagger_ui_bundle  # type: ignore[import-untyped]

    return Path(swagger_ui_bundle.swagger_ui_path)


def _errors_as_json(schema: dict[str, Any]) -> None:
    # FastAPI files a route's extra responses under the route's own media type (text/plain
    # for a plain-text route), but errors are always JSON.
    for path_item in schema.get("paths", {}).values():
        for operation in path_item.values():
            for status, response in operation.get("responses", {}).items():
                if status.isdigit() and int(status) >= 400:
                    response["content"] = {"application/json": {"schema": ERROR_SCHEMA}}
    components = schema.get("components", {}).get("schemas", {})
    for unused in ("HTTPValidationError", "ValidationError"):
        components.pop(unused, None)


def install_openapi(app: FastAPI) -> None:
    """The schema at ``/openapi.json`` and its pages; ``app`` must be created with
    ``docs_url=None, redoc_url=None`` (FastAPI's CDN pages)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, summary=app.summary,
                                 description=app.description, routes=app.routes)
            _errors_as_json(schema)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    app.mount(DOCS_ASSETS, StaticFiles(directory=_swagger_ui_dir()), name="docs-assets")

    @app.get(REDOC_JS, include_in_schema=False)
    async def redoc_js() -> Response:
        return Response(_redoc_bundle(), media_type="text/javascript",
                        headers={"Cache-Control": "public, max-age=86400"})

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url="/openapi.json", title=f"{app.title} - API",
            swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css", swagger_favicon_url=FAVICON)

    @app.get("/redoc", include_in_schema=False)
    async def redoc() -> HTMLResponse:
        if not REDOC_BUNDLE.is_file():
            return HTMLResponse(
                "<!doctype html><title>ReDoc not installed</title><p>ReDoc's bundle is not "
                "installed: run <code>scripts/install</code>. <a href='/docs'>/docs</a> "
                "shows the same API.</p>", status_code=503)
        return get_redoc_html(openapi_url="/openapi.json", title=f"{app.title} - API",
                              redoc_js_url=REDOC_JS,
                              redoc_favicon_url=FAVICON, with_google_fonts=False)
