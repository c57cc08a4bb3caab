"""An OpenAPI document read into operations: which calls only read (HTTP's safe methods)."""

from __future__ import annotations

from typing import Any

import pytest

from codemode.connector_openapi import is_read, operations_of

DOCUMENT: dict[str, Any] = {
    "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
    "paths": {"/items/{id}": {
        "get": {"operationId": "getItem"}, "head": {"operationId": "headItem"},
        "options": {"operationId": "itemOptions"}, "put": {"operationId": "putItem"},
        "post": {"operationId": "postItem"}, "patch": {"operationId": "patchItem"},
        "delete": {"operationId": "deleteItem"}}},
}
OPERATIONS = {op["name"]: op for op in operations_of("t", DOCUMENT)}


@pytest.mark.parametrize("name, reads", [
    ("getItem", True), ("headItem", True), ("itemOptions", True), ("putItem", False),
    ("postItem", False), ("patchItem", False), ("deleteItem", False),
])
def test_an_operation_reads_when_its_method_is_safe(name: str, reads: bool) -> None:
    assert is_read(OPERATIONS[name], {"id": 1}) is reads


@pytest.mark.parametrize("method, reads", [("GET", True), ("get", True), ("HEAD", True),
                                           ("POST", False), ("DELETE", False), ("", False)])
def test_the_generic_request_reads_by_the_method_it_is_given(method: str, reads: bool) -> None:
    assert is_read(OPERATIONS["request"], {"method": method, "path": "/items/1"}) is reads
