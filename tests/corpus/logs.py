"""Logging to a string, and the structured logs agent code writes for itself."""

from __future__ import annotations

from corpus import case

CASES = [
    case("logging_basic_to_string", """
import io, logging
stream = io.StringIO()
logging.basicConfig(stream=stream, level=logging.DEBUG, format="%(levelname)s|%(name)s|%(message)s")
log = logging.getLogger("sync")
log.debug("start %s", "job")
log.error("failed %d", 3)
stream.getvalue().splitlines()
""", ["DEBUG|sync|start job", "ERROR|sync|failed 3"]),
    case("logging_level_filtering", """
import io, logging
stream = io.StringIO()
handler = logging.StreamHandler(stream)
log = logging.getLogger("quiet")
log.addHandler(handler)
log.setLevel(logging.WARNING)
log.info("hidden")
log.warning("shown")
stream.getvalue()
""", "shown\n"),
    case("logging_exception_traceback", """
import io, logging
stream = io.StringIO()
log = logging.getLogger("exc")
log.addHandler(logging.StreamHandler(stream))
try:
    1 / 0
except ZeroDivisionError:
    log.exception("oops")
lines = stream.getvalue().splitlines()
[lines[0], lines[-1]]
""", ["oops", "ZeroDivisionError: division by zero"]),
    case("logging_custom_formatter_json", """
import io, json, logging
class JsonFormatter(logging.Formatter):
    def format(self, record):
        return json.dumps({"level": record.levelname, "msg": record.getMessage(), "user": getattr(record, "user", None)})
stream = io.StringIO()
h = logging.StreamHandler(stream)
h.setFormatter(JsonFormatter())
log = logging.getLogger("json")
log.addHandler(h)
log.propagate = False
log.warning("login", extra={"user": "ann"})
json.loads(stream.getvalue())
""", {"level": "WARNING", "msg": "login", "user": "ann"}),
    case("logging_filter_and_adapter", """
import io, logging
stream = io.StringIO()
h = logging.StreamHandler(stream)
h.setFormatter(logging.Formatter("[%(request_id)s] %(message)s"))
log = logging.getLogger("req")
log.addHandler(h)
log.setLevel(logging.INFO)
adapter = logging.LoggerAdapter(log, {"request_id": "r-42"})
adapter.info("handled")
stream.getvalue().strip()
""", "[r-42] handled"),
    case("logging_to_stderr_becomes_error_logs", """
import logging, sys
logging.basicConfig(stream=sys.stderr, format="%(levelname)s %(message)s")
logging.warning("disk almost full")
print("done")
""", None, ["[error] WARNING disk almost full", "done"]),
    case("logging_dictconfig", """
import io, logging, logging.config
stream = io.StringIO()
logging.config.dictConfig({
    "version": 1,
    "formatters": {"short": {"format": "%(name)s:%(message)s"}},
    "handlers": {"mem": {"class": "logging.StreamHandler", "stream": stream, "formatter": "short"}},
    "loggers": {"app": {"handlers": ["mem"], "level": "INFO"}},
})
logging.getLogger("app.db").info("connected")
stream.getvalue()
""", "app.db:connected\n"),
    case("logging_memory_handler_flush", """
import io, logging, logging.handlers
stream = io.StringIO()
target = logging.StreamHandler(stream)
memory = logging.handlers.MemoryHandler(capacity=10, flushLevel=logging.ERROR, target=target)
log = logging.getLogger("buffered")
log.addHandler(memory)
log.setLevel(logging.INFO)
log.info("a")
before = stream.getvalue()
log.error("b")
[before, stream.getvalue()]
""", ["", "a\nb\n"]),
    case("warnings_become_logs", """
import warnings
warnings.warn("old api", DeprecationWarning)
warnings.warn("careful")
print("after")
""", None, ["[warn] DeprecationWarning: old api", "[warn] UserWarning: careful", "after"]),
]
