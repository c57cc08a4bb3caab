"""The ``ulimit`` builtin: bash 5.2's resource limits on Linux, kept per shell.

Each resource has a soft and a hard value (``State.rlimits``, only those the script has
changed; the rest are ``START``). The values are kept as Linux keeps them, in bytes for the
sizes counted in kbytes or blocks, with ``RLIM_INFINITY`` for "unlimited", so a number that
overflows, a limit set in POSIX mode's 512-byte blocks and read back outside it, and a number
that happens to equal ``RLIM_INFINITY`` all come out as in bash.

The sandbox's starting values are its own, the same on every machine (not the host's):
every resource that is a limit starts "unlimited", soft and hard; the three that are not
limits start where a Linux bash shows them: pipe size 8 (512-byte blocks; read-only, as in
bash, whose ``-p`` cannot be set), scheduling priority (``-e``) and real-time priority
(``-r``) 0. The script runs as a normal user, never root, so the kernel's rules for one
apply: lowering is always allowed, raising a hard limit is "Operation not permitted", a soft
limit above its hard one is "Invalid argument", and a soft-only ``unlimited`` means the hard
limit (bash's own rule for non-root users).

These values are bookkeeping only: nothing in the interpreter reads them. The sandbox's
real bounds are its ``BashLimits`` (commands run, output bytes, time, nesting and sizes),
which are not rlimits and which ``ulimit`` does not change.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ._common import Builtin, Entry, encode, print_error

if TYPE_CHECKING:
    from ..evaluate import Shell
    from ..redirects import IO
    from ..state import State

RLIM_INFINITY = 2 ** 64 - 1
"""Linux's ``RLIM_INFINITY`` (rlim_t is an unsigned 64-bit number)."""
_POSIX_BLOCKS = -2
"""The factor of ``-c`` and ``-f``: blocks of 512 bytes in POSIX mode, else of 1024."""
_SOFT, _HARD = 1, 2

EINVAL = "Invalid argument"
EPERM = "Operation not permitted"


@dataclass(frozen=True)
class Resource:
    letter: str
    description: str
    units: str | None
    factor: int
    """Bytes (or microseconds...) per unit the user writes, or ``_POSIX_BLOCKS``."""

    def label(self) -> str:
        """``ulimit -a``'s columns: the description left-aligned in 20, a space, then the
        units and option right-aligned in 20 (bash's ``"%-20s %20s"``)."""
        units = f"({self.units}, -{self.letter}) " if self.units else f"(-{self.letter}) "
        return f"{self.description:<20} {units:>20}"


RESOURCES = (
    Resource("R", "real-time non-blocking time", "microseconds", 1),
    Resource("c", "core file size", "blocks", _POSIX_BLOCKS),
    Resource("d", "data seg size", "kbytes", 1024),
    Resource("e", "scheduling priority", None, 1),
    Resource("f", "file size", "blocks", _POSIX_BLOCKS),
    Resource("i", "pending signals", None, 1),
    Resource("l", "max locked memory", "kbytes", 1024),
    Resource("m", "max memory size", "kbytes", 1024),
    Resource("n", "open files", None, 1),
    Resource("p", "pipe size", "512 bytes", 512),
    Resource("q", "POSIX message queues", "bytes", 1),
    Resource("r", "real-time priority", None, 1),
    Resource("s", "stack size", "kbytes", 1024),
    Resource("t", "cpu time", "seconds", 1),
    Resource("u", "max user processes", None, 1),
    Resource("v", "virtual memory", "kbytes", 1024),
    Resource("x", "file locks", None, 1),
)
"""What bash 5.2 offers on Linux, in its ``ulimit -a`` order (``-b -k -P -T`` are not
available there: they are invalid options)."""
BY_LETTER = {res.letter: res for res in RESOURCES}

_PIPE_BUF = 4096
START: dict[str, tuple[int, int]] = {
    res.letter: (RLIM_INFINITY, RLIM_INFINITY) for res in RESOURCES
} | {"p": (_PIPE_BUF, _PIPE_BUF), "e": (0, 0), "r": (0, 0)}
"""(soft, hard) of every resource when a run starts; see the module's docstring."""

USAGE = "ulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]\n"
HELP = """ulimit: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]
    Modify shell resource limits.
    
    Provides control over the resources available to the shell and processes
    it creates, on systems that allow such control.
    
    Options:
      -S\tuse the `soft' resource limit
      -H\tuse the `hard' resource limit
      -a\tall current limits are reported
      -b\tthe socket buffer size
      -c\tthe maximum size of core files created
      -d\tthe maximum size of a process's data segment
      -e\tthe maximum scheduling priority (`nice')
      -f\tthe maximum size of files written by the shell and its children
      -i\tthe maximum number of pending signals
      -k\tthe maximum number of kqueues allocated for this process
      -l\tthe maximum size a process may lock into memory
      -m\tthe maximum resident set size
      -n\tthe maximum number of open file descriptors
      -p\tthe pipe buffer size
      -q\tthe maximum number of bytes in POSIX message queues
      -r\tthe maximum real-time scheduling priority
      -s\tthe maximum stack size
      -t\tthe maximum amount of cpu time in seconds
      -u\tthe maximum number of user processes
      -v\tthe size of virtual memory
      -x\tthe maximum number of file locks
      -P\tthe maximum number of pseudoterminals
      -R\tthe maximum time a real-time process can run before blocking
      -T\tthe maximum number of threads
    
    Not all options are available on all platforms.
    
    If LIMIT is given, it is the new value of the specified resource; the
    special LIMIT values `soft', `hard', and `unlimited' stand for the
    current soft limit, the current hard limit, and no limit, respectively.
    Otherwise, the current value of the specified resource is printed.  If
    no option is given, then -f is assumed.
    
    Values are in 1024-byte increments, except for -t, which is in seconds,
    -p, which is in increments of 512 bytes, and -u, which is an unscaled
    number of processes.
    
    Exit Status:
    Returns success unless an invalid option is supplied or an error occurs.
"""


class _BadOption(Exception):
    """An option letter ulimit does not know (``-Z``; ``--x`` is the letter ``-``)."""


class _Help(Exception):
    """``--help`` among the options."""


@dataclass
class _Call:
    mode: int = 0
    all_limits: bool = False
    commands: list[tuple[str, str | None]] = field(default_factory=list)
    """(resource letter, its value or None to print it), in the order given."""
    operands: list[str] = field(default_factory=list)


def _parse(args: list[str]) -> _Call:
    """Options as bash's ``internal_getopt`` reads ulimit's: ``-S -H -a`` are flags, each
    resource letter takes an optional value (the rest of its word, else the next word unless
    that starts with ``-``); options end at ``--``, ``-`` or the first word without ``-``."""
    call = _Call()
    k = 0
    while k < len(args):
        word = args[k]
        if word == "--":
            k += 1
            break
        if not word.startswith("-") or word == "-":
            break
        if word == "--help":
            raise _Help
        k += 1
        for j, letter in enumerate(word[1:], start=1):
            if letter in "SH":
                call.mode |= _SOFT if letter == "S" else _HARD
            elif letter == "a":
                call.all_limits = True
            elif letter in BY_LETTER:
                value: str | None = None
                if j + 1 < len(word):
                    value = word[j + 1:]
                elif k < len(args) and not args[k].startswith("-"):
                    value = args[k]
                    k += 1
                call.commands.append((letter, value))
                if j + 1 < len(word):
                    break  # the rest of the word was the value
            else:
                raise _BadOption(letter)
    call.operands = args[k:]
    return call


def limits_of(state: State, letter: str) -> tuple[int, int]:
    return state.rlimits.get(letter, START[letter])


def _factor(res: Resource, posix: bool) -> int:
    if res.factor == _POSIX_BLOCKS:
        return 512 if posix else 1024
    return res.factor


def show(res: Resource, value: int, posix: bool, labelled: bool) -> str:
    """One line of output: the value in the resource's units, after its label if asked."""
    text = "unlimited" if value == RLIM_INFINITY else str(value // _factor(res, posix))
    return (res.label() if labelled else "") + text + "\n"


def show_all(state: State, hard: bool, posix: bool = False) -> str:
    """``ulimit -a`` (``-H -a`` with ``hard``)."""
    return "".join(show(res, limits_of(state, res.letter)[1 if hard else 0], posix, True)
                   for res in RESOURCES)


def _invalid_number(text: str) -> str:
    """bash's ``sh_invalidnum`` wording."""
    if text[:1] == "0" and (text[1:2].isascii() and text[1:2].isdigit()):
        return f"ulimit: {text}: invalid octal number"
    if text[:2] == "0x":
        return f"ulimit: {text}: invalid hex number"
    return f"ulimit: {text}: invalid number"


def _wanted(res: Resource, value: str, soft: int, hard: int, posix: bool) -> int | str:
    """The new limit ``value`` asks for, or the error message."""
    if value == "hard":
        return hard
    if value == "soft":
        return soft
    if value == "unlimited":
        return RLIM_INFINITY
    if not all("0" <= c <= "9" for c in value):
        return _invalid_number(value)
    # rlim_t arithmetic: the number wraps at 2^64 as bash reads it, and a product that
    # overflows is "out of range"
    number = int(value or "0") & RLIM_INFINITY
    factor = _factor(res, posix)
    wanted = (number * factor) & RLIM_INFINITY
    if wanted // factor != number:
        return f"ulimit: {value}: limit out of range"
    return wanted


def _set(state: State, res: Resource, value: str, mode: int, posix: bool) -> str | None:
    """Set the resource's soft and/or hard limit; the error message if it cannot be."""
    soft, hard = limits_of(state, res.letter)
    wanted = _wanted(res, value, soft, hard, posix)
    if isinstance(wanted, str):
        return wanted
    failure = f"ulimit: {res.description}: cannot modify limit: "
    if res.letter == "p":
        return failure + EINVAL
    if wanted == RLIM_INFINITY and not mode & _HARD and soft <= hard:
        wanted = hard
    new_soft = wanted if mode & _SOFT else soft
    new_hard = wanted if mode & _HARD else hard
    # the kernel's order: a soft limit above the hard one first, then raising the hard one
    if new_soft > new_hard:
        return failure + EINVAL
    if new_hard > hard:
        return failure + EPERM
    state.rlimits[res.letter] = (new_soft, new_hard)
    return None


def run_ulimit(sh: Shell, argv: list[str], io: IO) -> int:
    """bash's ``ulimit_builtin``: every option is read first, then each resource is printed
    or set in the order given, stopping at the first error."""
    try:
        call = _parse(argv[1:])
    except _Help:
        io.out(1).write(encode(HELP))
        return 2
    except _BadOption as exc:
        print_error(io, f"ulimit: -{exc.args[0]}: invalid option")
        io.out(2).write(encode(USAGE))
        return 2
    state = sh.state
    posix = bool(state.options.get("posix"))
    if call.all_limits:
        io.out(1).write(encode(show_all(state, hard=call.mode == _HARD, posix=posix)))
        return 0
    commands, operands = call.commands, call.operands
    if not commands:
        commands = [("f", operands.pop(0) if operands else None)]
    elif operands and commands[-1][1] is None:
        # POSIX: an operand is the value of the last option when that has none
        commands[-1] = (commands[-1][0], operands.pop(0))
    out = io.out(1)
    for letter, value in commands:
        res = BY_LETTER[letter]
        if value is None:
            soft, hard = limits_of(state, letter)
            shown = soft if call.mode & _SOFT or not call.mode else hard
            out.write(encode(show(res, shown, posix, len(commands) > 1)))
            continue
        error = _set(state, res, value, call.mode or _SOFT | _HARD, posix)
        if error is not None:
            print_error(io, error)
            return 1
    return 0


BUILTINS: dict[str, Entry] = {
    "ulimit": Builtin(run_ulimit),
}
