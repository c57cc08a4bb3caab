"""awk I/O: output redirections and pipes, ``getline`` sources, and the main input files.

``IO`` adds to the run-time state the ``print > file``, ``print | cmd``, ``getline`` sources, ``close``/``fflush`` and the walk over
``ARGV`` (operands, ``var=value`` assignments, ``-``).
"""

from __future__ import annotations

import re
from typing import Any, Iterator, cast

from .array import MawkArray
from .value import d_to_int, mkfield, to_num
from ..sed import argv_text
from .records import RecordReader
from .state import AwkError, State
from ... import fs


class IO(State):
    """Output streams, input sources and the main input, on top of the run-time state."""

    def print_record(self) -> None:
        self.out.append(self.record + self.to_str(self.g.get("ORS", "\n")))

    # -- I/O ---------------------------------------------------------------------------
    def write(self, mode: str, name: str, text: str) -> None:
        if mode == "|":
            key = "|" + name
            entry = self.outputs.get(key)
            if entry is None:
                # mawk flushes its output before starting a command.
                self.flush_stdout()
                entry = self.outputs[key] = []
            entry.append(text)
            return
        if name in ("/dev/stdout", "-", "/dev/fd/1"):
            self.out.append(text)
            return
        if name in ("/dev/stderr", "/dev/fd/2"):
            self.ctx.stderr.write(text.encode("latin-1"))
            return
        handle = self.outputs.get(name)
        if handle is None:
            try:
                handle = fs.open(self.ctx.host_path(argv_text(name)), "ab" if mode == ">>" else "wb")
            except OSError as exc:
                raise AwkError(f"cannot open \"{name}\" for output") from exc
            self.outputs[name] = handle
        handle.write(text.encode("latin-1"))

    def open_input(self, name: str) -> RecordReader | None:
        if name in self.inputs:
            return self.inputs[name]
        pipe = self.ctx.open_pipe(self.ctx.resolve(argv_text(name)), "r")
        if name in ("-", "/dev/stdin"):
            reader: RecordReader | None = RecordReader(self.ctx.stdin)
        elif pipe is not None:  # getline < "/dev/fd/63" of a <(...)
            reader = RecordReader(cast("Iterator[bytes]", pipe))
        else:
            path = self.ctx.host_path(argv_text(name))
            try:
                if fs.isdir(path):
                    raise OSError
                handle = fs.open(path, "rb")
            except OSError:
                return None

            def chunks() -> Iterator[bytes]:
                with handle:
                    while True:
                        data = handle.read(65536)
                        if not data:
                            return
                        yield data
            reader = RecordReader(chunks())
        self.inputs[name] = reader
        return reader

    def close(self, name: str) -> int:
        result = -1
        if name in self.outputs:
            handle = self.outputs.pop(name)
            handle.close()
            result = 0
        if "|" + name in self.outputs:
            chunks = self.outputs.pop("|" + name)
            status, data = self.run_shell_status(name, "".join(chunks).encode("latin-1"))
            self.flushed.append(data.decode("latin-1"))
            result = status
        if name in self.inputs:
            del self.inputs[name]
            result = 0
        if "|" + name in self.inputs:
            del self.inputs["|" + name]
            result = 0
        return result

    def flush_stdout(self) -> None:
        self.flushed.extend(self.out)
        self.out.clear()

    def take_output(self, final: bool = False) -> str:
        """The text to hand on now: everything when no command pipe is open (ordering
        cannot be observed), else only what mawk would have flushed (4 KiB buffer)."""
        if final or not any(k.startswith("|") for k in self.outputs) or sum(map(len, self.out)) >= 4096:
            self.flush_stdout()
        text = "".join(self.flushed)
        self.flushed.clear()
        return text

    def flush_pipes(self) -> None:
        for key in [k for k in self.outputs if k.startswith("|")]:
            self.close(key[1:])

    def close_all(self) -> None:
        self.flush_pipes()
        for key in list(self.outputs):
            handle = self.outputs.pop(key)
            handle.close()

    def run_shell(self, command: str, stdin: bytes) -> bytes:
        return self.run_shell_status(command, stdin)[1]

    def run_shell_status(self, command: str, stdin: bytes) -> tuple[int, bytes]:
        """Run ``command`` with ``sh -c`` through the interpreter; returns (status, stdout)."""
        runner = self.ctx.run_command
        if runner is None:
            raise AwkError("cannot run commands here (no shell available)")
        gen = runner(["sh", "-c", command], iter([stdin]))
        chunks: list[bytes] = []
        try:
            while True:
                chunks.append(next(gen))
        except StopIteration as stop:
            status = int(stop.value or 0)
        return status, b"".join(chunks)

    # -- main input --------------------------------------------------------------------
    def next_main_record(self) -> str | None:
        while True:
            if self.main_reader is None:
                if not self.open_next_main():
                    return None
            assert self.main_reader is not None
            rs = self.g.get("RS", "\n")
            record = self.main_reader.read(rs if type(rs) is str else self.to_str(rs))
            if record is not None:
                return record
            self.main_reader = None

    def open_next_main(self) -> bool:
        if self.main_done:
            return False
        argv = self.g["ARGV"]
        while True:
            self.argind += 1
            argc = d_to_int(to_num(self.g.get("ARGC", 1.0)))
            if self.argind >= argc:
                break
            arg = argv.peek(float(self.argind)) if isinstance(argv, MawkArray) else None
            if arg is None:
                continue
            text = self.to_str(arg)
            if text == "":
                continue
            m = re.match(r"([A-Za-z_][A-Za-z_0-9]*)=(.*)\Z", text, re.S)
            if m:
                from .parse import unescape
                self.g[m.group(1)] = mkfield(unescape(m.group(2)))
                continue
            self.used_stdin = True
            self.g["FILENAME"] = text
            self.g["FNR"] = 0.0
            if text == "-" or text == "/dev/stdin":
                self.main_reader = RecordReader(self.ctx.stdin)
                return True
            pipe = self.ctx.open_pipe(self.ctx.resolve(argv_text(text)), "r")
            if pipe is not None:  # <(...)
                self.main_reader = RecordReader(cast("Iterator[bytes]", pipe))
                return True
            path = self.ctx.host_path(argv_text(text))
            try:
                if fs.isdir(path):
                    raise IsADirectoryError
                handle = fs.open(path, "rb")
            except OSError:
                raise AwkError(f"cannot open {text} (No such file or directory)") from None

            def chunks(h: Any = handle) -> Iterator[bytes]:
                with h:
                    while True:
                        data = h.read(65536)
                        if not data:
                            return
                        yield data
            self.main_reader = RecordReader(chunks())
            return True
        self.main_done = True
        if not self.used_stdin:
            self.used_stdin = True
            self.main_reader = RecordReader(self.ctx.stdin)
            self.main_done = False
            self.argind = 1 << 30
            return True
        return False
