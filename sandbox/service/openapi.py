"""The OpenAPI document, as the service really answers: every error response is the one
error shape in ``application/json``, whatever the route's success media type."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

__all__ = ["install_openapi"]

ERROR_SCHEMA = {"$ref": "#/components/schemas/ErrorResponse"}


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
    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, summary=app.summary,
                                 description=app.description, routes=app.routes)
            _errors_as_json(schema)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
