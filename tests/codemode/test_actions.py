"""The pure rules around an action: authorization, the approval descriptor, attachments."""

from __future__ import annotations

import pytest

from codemode import ActionAuthorizationError, ToolDef
from codemode.actions import (
    approval_descriptor,
    approval_mode,
    authorize,
    cap_attachments,
    missing_permissions,
)


def _tool(**extra: object) -> ToolDef:
    return ToolDef(name="create-item", url="http://127.0.0.1:1", **extra)  # type: ignore[arg-type]


def test_no_grants_given_means_everything_is_granted() -> None:
    tool = _tool(permissions=("items:write",))
    assert missing_permissions(tool, None) == []
    authorize(tool, "shop.create_item", None)


def test_missing_permissions_are_named_in_the_tools_order() -> None:
    tool = _tool(permissions=("b", "a", "c"))
    assert missing_permissions(tool, ["c"]) == ["b", "a"]
    with pytest.raises(ActionAuthorizationError) as denied:
        authorize(tool, "shop.create_item", [])
    assert str(denied.value) == "Missing required permission: b, a, c"
    assert denied.value.permissions == ["b", "a", "c"]


def test_a_tool_without_permissions_needs_none() -> None:
    assert missing_permissions(_tool(), []) == []


def test_the_descriptor_names_the_call_and_defaults_risk_and_summary() -> None:
    tool = _tool(approval={"mode": "inline"}, permissions=("items:write",))
    descriptor = approval_descriptor(tool, "shop", {"title": "x" * 500}, execution_id="exec_1",
                                     seq=3)
    assert descriptor["request_id"] == "exec_1" and descriptor["tool_call_id"] == "exec_1:3"
    assert descriptor["action"] == "shop.create_item"
    assert descriptor["risk"] == "low" and descriptor["kind"] == "approval-gated"
    assert descriptor["permissions"] == ["items:write"]
    assert descriptor["summary"].startswith("shop.create_item {") and descriptor["summary"].endswith("...")
    assert descriptor["input"] == {"title": "x" * 500}


def test_a_durable_policy_keeps_its_own_summary_and_risk() -> None:
    tool = _tool(approval={"mode": "durable", "summary": "Create it", "risk": "high"})
    assert approval_mode(tool) == "durable"
    descriptor = approval_descriptor(tool, "shop", {}, execution_id="e", seq=0)
    assert (descriptor["summary"], descriptor["risk"], descriptor["kind"]) == (
        "Create it", "high", "durable-pause")


def test_attachments_stop_at_the_per_execution_cap() -> None:
    items = [{"type": "image", "n": n} for n in range(10)]
    assert cap_attachments(items, already=0) == items
    assert cap_attachments(items, already=28) == items[:4]
    assert cap_attachments(items, already=32) == []
    assert cap_attachments(items, already=40) == []
