"""Reading input into variables: ``read`` (with bash's IFS field splitting) and
``mapfile``/``readarray``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from ..errors import BashError
from ..streams import InputStream
from ._common import Builtin, Entry, encode, print_error

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO


_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _read_fd(sh: Shell, io: IO, fd_text: str | None) -> InputStream:
    if fd_text is None:
        return io.stdin()
    if not (fd_text.isascii() and fd_text.isdigit()):
        raise BashError(f"{fd_text}: invalid file descriptor specification")
    fd = io.fds.get(int(fd_text))
    return fd if isinstance(fd, InputStream) else InputStream.empty()


def run_read(sh: Shell, argv: list[str], io: IO) -> int:
    args = argv[1:]
    raw = False
    array: str | None = None
    delim = "\n"
    nchars: int | None = None
    exact = False
    prompt = ""
    fd_text: str | None = None
    k = 0
    try:
        while k < len(args) and args[k].startswith("-") and len(args[k]) > 1:
            a = args[k]
            if a == "--":
                k += 1
                break
            j = 1
            while j < len(a):
                f = a[j]
                if f in "adnNptu":
                    value = a[j + 1 :] if j + 1 < len(a) else args[k + 1]
                    if j + 1 >= len(a):
                        k += 1
                    if f == "a":
                        array = value
                    elif f == "d":
                        delim = value[:1] if value else "\0"
                    elif f in "nN":
                        if not re.match(r"[0-9]+\Z", value):
                            print_error(io, f"read: {value}: invalid number")
                            return 1
                        nchars = int(value)
                        exact = f == "N"
                    elif f == "t" and not re.match(r"[0-9]*\.?[0-9]+\Z|[0-9]+\.\Z", value):
                        print_error(io, f"read: {value}: invalid timeout specification")
                        return 1
                    elif f == "p":
                        prompt = value
                    elif f == "u":
                        fd_text = value
                    break
                if f == "r":
                    raw = True
                elif f in "se":
                    pass
                else:
                    print_error(io, f"read: -{f}: invalid option")
                    return 2
                j += 1
            k += 1
    except (IndexError, ValueError):
        print_error(io, "read: option requires an argument")
        return 2
    names = args[k:]
    if prompt:
        io.out(2).write(encode(prompt))
    stream = _read_fd(sh, io, fd_text)
    chars, eof = _read_chars(stream, delim, nchars, exact, raw)
    st = sh.state
    ifs = st.get("IFS")
    if ifs is None:
        ifs = " \t\n"
    line = chars if isinstance(chars, str) else "".join(c for c, _ in chars)
    if array is not None:
        target = st.lookup(array)
        if target is not None and target.assoc is not None:
            print_error(io, f"read: {array}: cannot convert associative to indexed array")
            return 1
        fields = _split(chars, ifs, None)
        try:
            st.set_array(array, fields)
        except BashError as exc:
            print_error(io, f"read: {exc.message}")
            return 1
        return 1 if eof else 0
    if not names:
        st.set("REPLY", line)
        return 1 if eof else 0
    fields = _split(chars, ifs, len(names))
    try:
        for idx, name in enumerate(names):
            if not _IDENT.match(name):
                print_error(io, f"read: `{name}': not a valid identifier")
                return 1
            st.set(name, fields[idx] if idx < len(fields) else "")
    except BashError as exc:
        print_error(io, f"read: {exc.message}")
        return 1
    return 1 if eof else 0


def _read_chars(stream: InputStream, delim: str, nchars: int | None, exact: bool,
                raw: bool) -> tuple[str | list[tuple[str, bool]], bool]:
    """Read one record for ``read``: its characters, each with whether a backslash escaped
    it, and whether the input ended. A record with nothing escaped (``-r``, or no backslash
    in it: nearly every line a loop reads) comes back as its text."""
    delim_b = delim.encode("utf-8", "surrogateescape") if delim != "\0" else b"\0"
    chars: list[tuple[str, bool]] = []
    eof = False
    # read byte-exactly so the rest of the input stays for the next command
    while True:
        if nchars is not None and len(chars) >= nchars:
            break
        data, hit_end = stream.read_until(None if exact else delim_b, 1 if nchars is not None else None)
        if nchars is None:
            text = data.decode("utf-8", "surrogateescape")
            ended_with_delim = text.endswith(delim) and not hit_end
            if ended_with_delim:
                text = text[: -len(delim)]
            if not chars and (raw or "\\" not in text):
                return text.replace("\0", "") if "\0" in text else text, hit_end
            if raw:
                chars.extend((c, False) for c in text)
            else:
                i = 0
                continued = False
                while i < len(text):
                    c = text[i]
                    if c == "\\" and i + 1 < len(text):
                        chars.append((text[i + 1], True))
                        i += 2
                        continue
                    if c == "\\" and i + 1 == len(text):
                        if ended_with_delim and delim == "\n":
                            continued = True
                        i += 1
                        continue
                    chars.append((c, False))
                    i += 1
                if continued:
                    continue
            eof = hit_end
            break
        if not data:
            eof = True
            break
        c = data.decode("utf-8", "surrogateescape")
        if not exact and c == delim:
            break
        if not raw and c == "\\":
            nxt, end2 = stream.read_until(None, 1)
            if not nxt:
                eof = True
                break
            c2 = nxt.decode("utf-8", "surrogateescape")
            if c2 == "\n":
                continue
            chars.append((c2, True))
            continue
        chars.append((c, False))
    # bash's strings cannot hold a NUL: read drops them from what it reads, silently.
    return [(c, escaped) for c, escaped in chars if c != "\0"], eof


def _split(record: str | list[tuple[str, bool]], ifs: str, count: int | None) -> list[str]:
    """``read``'s fields of a record, into at most ``count`` variables (None: an array)."""
    if isinstance(record, str):
        return _split_text(record, ifs, count)
    return _split_read(record, ifs, count)


@lru_cache(maxsize=32)
def _ifs_parts(ifs: str) -> tuple[str, frozenset[str], re.Pattern[str] | None]:
    """IFS's whitespace, all its characters, and what one field delimiter matches: its
    whitespace around at most one of its other characters (None: IFS has no character)."""
    white = "".join(sorted({c for c in ifs if c in " \t\n"}))
    others = "".join(sorted({c for c in ifs if c not in " \t\n"}))
    w = f"[{re.escape(white)}]" if white else ""
    d = f"[{re.escape(others)}]" if others else ""
    if w and d:
        pattern = f"{w}*{d}{w}*|{w}+"
    else:
        pattern = f"{w}+" if w else d
    return white, frozenset(ifs), re.compile(pattern) if pattern else None


def _split_text(text: str, ifs: str, count: int | None) -> list[str]:
    """``_split_read`` of a record in which nothing is escaped, a regular expression's split
    instead of a loop over its characters."""
    white, delims, delimiter = _ifs_parts(ifs)
    text = text.lstrip(white) if white else text
    if delimiter is None or not text:
        return [text] if text else []
    if count == 1:
        parts = [text]
    else:  # (a maxsplit of 0 is no limit)
        parts = delimiter.split(text, maxsplit=count - 1 if count is not None else 0)
    if count is None or len(parts) < count:
        if not parts[-1]:  # the record ended at a delimiter: no empty field after it
            parts.pop()
        return parts
    rest = parts.pop()
    if not rest:
        return parts
    end = len(rest.rstrip(white)) if white else len(rest)
    # a lone field followed by one delimiter loses that delimiter ("x:y:" -> "y")
    if end and rest[end - 1] in delims:
        cut = end - 1
        if white:
            cut = len(rest[:cut].rstrip(white))
        if delims.isdisjoint(rest[:cut]):
            end = cut
    parts.append(rest[:end])
    return parts


def _last_field_end(chars: list[tuple[str, bool]], i: int, ws: set[str], delims: set[str]) -> int:
    """Where the last variable's value, the rest of the record from ``i``, ends. As bash
    has it: when the rest is one word (a word, then at most one delimiter), that word, its
    escaped characters kept (``x:`` is ``x``, ``a\\ `` is ``a ``); else the rest, less its
    trailing IFS whitespace, escaped or not (``a b\\ `` is ``a b``)."""
    n = len(chars)
    k = i
    while k < n and (chars[k][1] or chars[k][0] not in delims):
        k += 1
    word_end = k
    while k < n and not chars[k][1] and chars[k][0] in ws:
        k += 1
    if k < n and not chars[k][1] and chars[k][0] in delims and chars[k][0] not in ws:
        k += 1
        while k < n and not chars[k][1] and chars[k][0] in ws:
            k += 1
    if k >= n:
        return word_end
    end = n
    while end > i and chars[end - 1][0] in ws:
        end -= 1
    return end


def _split_read(chars: list[tuple[str, bool]], ifs: str, count: int | None) -> list[str]:
    ws = set(c for c in ifs if c in " \t\n")
    delims = set(ifs)
    n = len(chars)
    i = 0
    while i < n and not chars[i][1] and chars[i][0] in ws:
        i += 1
    fields: list[str] = []
    while i < n:
        if count is not None and len(fields) == count - 1:
            end = _last_field_end(chars, i, ws, delims)
            fields.append("".join(c for c, _ in chars[i:end]))
            return fields
        buf: list[str] = []
        while i < n and (chars[i][1] or chars[i][0] not in delims):
            buf.append(chars[i][0])
            i += 1
        fields.append("".join(buf))
        if i >= n:
            break
        # consume one delimiter: surrounding IFS whitespace plus at most one non-whitespace
        while i < n and not chars[i][1] and chars[i][0] in ws:
            i += 1
        if i < n and not chars[i][1] and chars[i][0] in delims and chars[i][0] not in ws:
            i += 1
            while i < n and not chars[i][1] and chars[i][0] in ws:
                i += 1
    return fields


def run_mapfile(sh: Shell, argv: list[str], io: IO) -> int:
    args = argv[1:]
    strip = False
    delim = "\n"
    count = 0
    skip = 0
    origin: int | None = None
    fd_text: str | None = None
    k = 0
    try:
        while k < len(args) and args[k].startswith("-") and len(args[k]) > 1:
            a = args[k]
            f = a[1]
            value = None
            if f in "dnsOuCc":
                value = a[2:] if len(a) > 2 else args[k + 1]
                if len(a) <= 2:
                    k += 1
            if f == "t":
                strip = True
            elif f == "d":
                delim = value[:1] if value else "\0"
            elif f == "n":
                count = int(value or "0")
            elif f == "s":
                skip = int(value or "0")
            elif f == "O":
                origin = int(value or "0")
            elif f == "u":
                fd_text = value
            k += 1
    except (IndexError, ValueError):
        print_error(io, f"{argv[0]}: option requires an argument")
        return 2
    name = args[k] if k < len(args) else "MAPFILE"
    stream = _read_fd(sh, io, fd_text)
    delim_b = delim.encode() if delim != "\0" else b"\0"
    lines: list[str] = []
    seen = 0
    while True:
        if count and len(lines) >= count:
            break
        data, hit_end = stream.read_until(delim_b)
        if not data:
            break
        sh.state.counters.check_time()
        seen += 1
        if seen <= skip:
            continue
        text = data.decode("utf-8", "surrogateescape")
        if strip and text.endswith(delim):
            text = text[: -len(delim)]
        lines.append(text.split("\0", 1)[0])  # each element a C string, as bash keeps it
        if hit_end:
            break
    st = sh.state
    try:
        if origin is None:
            st.set_array(name, lines)
        else:
            for j, line in enumerate(lines):
                st.set_element(name, str(origin + j), line)
    except BashError as exc:
        print_error(io, f"{argv[0]}: {exc.message}")
        return 1
    return 0


BUILTINS: dict[str, Entry] = {
    "read": Builtin(run_read),
    "mapfile": Builtin(run_mapfile),
    "readarray": Builtin(run_mapfile),
}
