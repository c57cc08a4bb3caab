"""awk input records: a byte stream split by RS (newline, one character, paragraphs, a regex)."""

from __future__ import annotations

import re
from typing import Iterator

from ..sed import RegexError, compile_posix


class RecordReader:
    """Splits a stream of byte chunks into records according to RS.

    ``buf[pos:]`` is the unread text; consuming a record only moves ``pos`` (slicing the
    buffer per record would make a single large chunk quadratic to read).
    """

    def __init__(self, chunks: Iterator[bytes]) -> None:
        self.chunks = chunks
        self.buf = ""
        self.pos = 0
        self.eof = False

    def _fill(self) -> bool:
        if self.eof:
            return False
        for chunk in self.chunks:
            if chunk:
                self.buf = self.buf[self.pos :] + chunk.decode("latin-1")
                self.pos = 0
                return True
        self.eof = True
        return False

    def _take_rest(self) -> str | None:
        if self.pos < len(self.buf):
            record = self.buf[self.pos :]
            self.buf = ""
            self.pos = 0
            return record
        return None

    def read(self, rs: str) -> str | None:
        if len(rs) == 1:
            while True:
                cut = self.buf.find(rs, self.pos)
                if cut >= 0:
                    record = self.buf[self.pos : cut]
                    self.pos = cut + 1
                    return record
                if not self._fill():
                    return self._take_rest()
        if rs == "":
            return self._read_paragraph()
        return self._read_regex(rs)

    def _read_paragraph(self) -> str | None:
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] == "\n":
                self.pos += 1
            if self.pos < len(self.buf) or not self._fill():
                break
        rx = re.compile(r"\n\n+")
        while True:
            m = rx.search(self.buf, self.pos)
            if m is not None and (m.end() < len(self.buf) or self.eof):
                record = self.buf[self.pos : m.start()]
                self.pos = m.end()
                return record
            if not self._fill():
                rest = self._take_rest()
                return rest.rstrip("\n") if rest is not None else None

    def _read_regex(self, rs: str) -> str | None:
        try:
            rx = compile_posix(rs, True, awk=True)
        except RegexError:
            rx = re.compile(re.escape(rs))
        while True:
            m = rx.search(self.buf, self.pos)
            if m is not None and m.end() > m.start() and (m.end() < len(self.buf) or self.eof):
                record = self.buf[self.pos : m.start()]
                self.pos = m.end()
                return record
            if not self._fill():
                return self._take_rest()
