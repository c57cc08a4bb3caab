"""Lookups by id that see only the caller's tenant: another tenant's execution or approval is
answered exactly as one that does not exist (404), so ids reveal nothing across tenants."""

from __future__ import annotations

from codemode import Approval, ApprovalNotFound, ExecutionRecord
from fastapi import Request

from .. import state
from ..errors import HTTPError
from ..identity import Principal


async def owned_execution(request: Request, who: Principal, execution_id: str, *,
                          with_journal: bool = False) -> ExecutionRecord:
    record = await state.codemode_store(request).get_execution(execution_id,
                                                               with_journal=with_journal)
    if record is None or record.tenant != who.tenant:
        raise HTTPError(404, "not_found", f"execution {execution_id} not found")
    return record


async def owned_approval(request: Request, who: Principal, approval_id: str) -> Approval:
    approval = await state.codemode_store(request).get_approval(approval_id)
    if approval is None or approval.tenant != who.tenant:
        raise ApprovalNotFound(approval_id)
    return approval
