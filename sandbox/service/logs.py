"""The service's logs: plain text for a terminal or one JSON object a line for collectors
(``sandbox serve --log-format json``), each line with the id of the request it was written
for, the tenant it acts in, the trace it belongs to (while tracing) and the execution it was
written for.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any, Literal

from .. import tracing
from .requests import current_request_id, current_tenant

__all__ = ["JsonFormatter", "RequestIdFilter", "log_config"]

LogFormat = Literal["text", "json"]


class RequestIdFilter(logging.Filter):
    """Puts ``request_id`` (``-`` outside a request), ``tenant``, ``trace_id`` and
    ``execution_id`` (None outside a request, a trace, an execution) on every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = current_request_id() or "-"
        record.tenant = current_tenant()
        record.trace_id = tracing.current_trace_id()
        record.execution_id = tracing.execution_id.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, request_id,
    tenant, trace_id, execution_id, and the traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
                    + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None) or current_request_id(),
            "tenant": getattr(record, "tenant", None) or current_tenant(),
            "trace_id": getattr(record, "trace_id", None) or tracing.current_trace_id(),
            "execution_id": getattr(record, "execution_id", None) or tracing.execution_id.get(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def log_config(log_format: LogFormat, level: str = "info") -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for the service and uvicorn, in ``log_format``."""
    text = "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"
    formatter: dict[str, Any] = ({"()": JsonFormatter} if log_format == "json"
                                 else {"format": text})
    handler = {"class": "logging.StreamHandler", "formatter": "service",
               "filters": ["request_id"], "stream": "ext://sys.stderr"}
    loggers = {name: {"handlers": ["stderr"], "level": level.upper(), "propagate": False}
               for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "sandbox", "codemode",
                            "workspace")}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": RequestIdFilter}},
        "formatters": {"service": formatter},
        "handlers": {"stderr": handler},
        "loggers": loggers,
        "root": {"handlers": ["stderr"], "level": "WARNING"},
    }
