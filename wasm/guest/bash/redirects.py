"""The descriptor table (``IO``) and redirections: opening targets (``/dev/*`` included),
applying ``<``, ``>``, ``>>``, ``>&``, ``&>``, ``<>``, here-documents and here-strings onto
an ``IO``, and closing what they opened."""

from __future__ import annotations

from typing import TYPE_CHECKING, BinaryIO, Iterator, Protocol, cast

from .errors import BashError, LimitExceeded
from .streams import Channel, ClosedFd, FileSink, InputStream, NullSink, read_file_chunks
from . import fs

if TYPE_CHECKING:
    from .evaluate import Shell
    from .syntax import Redir


class Sink(Protocol):
    """Anything a command can write its output to."""

    def write(self, data: bytes, /) -> object: ...


class IO:
    """A file-descriptor table plus the channel its generator context drains."""

    __slots__ = ("fds", "channel")

    def __init__(self, fds: dict[int, object], channel: Channel) -> None:
        self.fds = fds
        self.channel = channel

    def copy(self) -> "IO":
        return IO(dict(self.fds), self.channel)

    def stdin(self) -> InputStream:
        fd = self.fds.get(0)
        return fd if isinstance(fd, InputStream) else InputStream.empty()

    def out(self, n: int = 1) -> Sink:
        """Descriptor ``n`` to write to (a closed one, if it is not open for writing)."""
        fd = self.fds.get(n)
        if fd is not None and hasattr(fd, "write") and not isinstance(fd, InputStream):
            return cast(Sink, fd)
        return ClosedFd()


def close_all(opened: list[object]) -> None:
    """Close what a redirection opened (files, here-document streams); errors are ignored."""
    for item in opened:
        close = getattr(item, "close", None)
        if close is not None:
            try:
                close()
            except OSError:
                pass


def open_target(shell: Shell, path: str, mode: str, io: IO) -> object:
    """Open a redirection target; ``/dev/*`` names map onto the fd table."""
    if path == "/dev/null":
        return InputStream.empty() if mode == "r" else NullSink()
    special = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}
    if path in special:
        return io.fds.get(special[path], ClosedFd())
    pipe = shell.open_pipe(path, "r" if mode == "r" else "w") if path.startswith("/dev/fd/") else None
    if pipe is not None:
        if mode == "r":
            return InputStream(cast("Iterator[bytes]", pipe))  # closed by the redirection
        return FileSink(cast(BinaryIO, pipe), path)  # its close lets go of the pipe
    if path.startswith("/dev/fd/") and (path[8:].isascii() and path[8:].isdigit()):
        return io.fds.get(int(path[8:]), ClosedFd())
    if path == "":
        raise BashError(": No such file or directory")
    host = shell.host_path(path)
    try:
        if mode == "r":
            reader = fs.open(host, "rb")
            return InputStream(read_file_chunks(reader), handle=reader)  # closed by the redirection
        if mode == "w" and shell.state.options.get("noclobber") and fs.isfile(host):
            raise BashError(f"{path}: cannot overwrite existing file")
        if mode == "rw":
            return FileSink(fs.open_rw(host), path)
        handle = fs.open(host, "ab" if mode == "a" else "wb", buffering=0)
        return FileSink(handle, path)
    except IsADirectoryError:
        raise BashError(f"{path}: Is a directory") from None
    except FileNotFoundError:
        raise BashError(f"{path}: No such file or directory") from None
    except NotADirectoryError:
        raise BashError(f"{path}: Not a directory") from None
    except PermissionError:
        raise BashError(f"{path}: Permission denied") from None
    except OSError as exc:  # a name too long, too many links...: bash names the reason
        raise BashError(f"{path}: {exc.strerror or type(exc).__name__}") from None


def apply_redirs(shell: Shell, redirs: list[Redir], io: IO, in_place: bool = False) -> tuple[IO, list[object]]:
    new = io if in_place else io.copy()
    opened: list[object] = []
    try:
        for r in redirs:
            _redirect(shell, r, new, opened)
    except BaseException:
        close_all(opened)
        raise
    return new, opened


def _redirect(shell: Shell, r: Redir, io: IO, opened: list[object]) -> None:
    op = r.op
    ex = shell.expander
    if op in ("<<", "<<-"):
        assert r.heredoc is not None
        body = r.heredoc.body
        text = body if r.heredoc.quoted else ex.heredoc(body)
        data = text.encode("utf-8", "surrogateescape")
        if len(data) > shell.limits.max_heredoc_bytes:
            raise LimitExceeded(f"here-document larger than {shell.limits.max_heredoc_bytes} bytes")
        io.fds[r.fd if r.fd is not None else 0] = InputStream(data=data)
        return
    if op == "<<<":
        text = ex.string(r.target) + "\n"
        io.fds[r.fd if r.fd is not None else 0] = InputStream(data=text.encode("utf-8", "surrogateescape"))
        return
    target = ex.string(r.target)
    if op in (">&", "<&"):
        default = 1 if op == ">&" else 0
        fd = r.fd if r.fd is not None else default
        if r.fdvar is not None:
            if target == "-":
                held = shell.state.get(r.fdvar)
                if held is not None and (held.isascii() and held.isdigit()):
                    closing = io.fds.pop(int(held), None)
                    if isinstance(closing, FileSink):
                        closing.close()
                return
            fd = 10
            while fd in io.fds:
                fd += 1
            shell.state.set(r.fdvar, str(fd))
        if target == "-":
            io.fds.pop(fd, None)
            return
        if target.isascii() and target.isdigit():
            src = int(target)
            if src not in io.fds:
                raise BashError(f"{target}: Bad file descriptor")
            io.fds[fd] = io.fds[src]
            return
        if target.endswith("-") and (target[:-1].isascii() and target[:-1].isdigit()):
            src = int(target[:-1])
            io.fds[fd] = io.fds.get(src, ClosedFd())
            io.fds.pop(src, None)
            return
        if target == "-" or (r.fdvar is not None and target == "-"):
            pass
        if op == ">&" and r.fd is None:
            sink = open_target(shell, target, "w", io)
            opened.append(sink)
            io.fds[1] = sink
            io.fds[2] = sink
            return
        raise BashError(f"{target}: ambiguous redirect")
    if op in ("&>", "&>>"):
        sink = open_target(shell, target, "a" if op == "&>>" else "w", io)
        opened.append(sink)
        io.fds[1] = sink
        io.fds[2] = sink
        return
    if r.fdvar is not None:
        fd = 10
        while fd in io.fds:
            fd += 1
        shell.state.set(r.fdvar, str(fd))
    else:
        fd = r.fd if r.fd is not None else (0 if op in ("<", "<>") else 1)
    if op == "<>" and fd != 0:
        sink = open_target(shell, target, "rw", io)
        if isinstance(sink, FileSink):
            opened.append(sink)
        io.fds[fd] = sink
        return
    if op in ("<", "<>"):
        if op == "<>" and not fs.exists(shell.host_path(target)) and target != "/dev/null":
            open_target(shell, target, "rw", io).close()  # type: ignore[attr-defined]
        stream = open_target(shell, target, "r", io)
        opened.append(stream)
        io.fds[fd] = stream
        return
    mode = "a" if op == ">>" else "w"
    if op == ">|":
        saved = shell.state.options.get("noclobber")
        shell.state.options["noclobber"] = False
        try:
            sink = open_target(shell, target, mode, io)
        finally:
            shell.state.options["noclobber"] = bool(saved)
    else:
        sink = open_target(shell, target, mode, io)
    if isinstance(sink, FileSink):
        opened.append(sink)
    io.fds[fd] = sink
