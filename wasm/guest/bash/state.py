"""Everything a shell remembers: variables (with attributes and local scopes), functions,
options, positional parameters, the directory stack, traps, aliases and resource limits.

A subshell is ``State.fork()``: nothing it changes leaks back, nor anything its parent
changes afterwards leaks in. Its variables are shared with the parent until one side
touches one: each ``Var`` records the state allowed to change it in place (``owner``), and
a state hands out only variables it owns, copying any other on first access
(``lookup``, ``writable``, ``owned``). A fork gives both sides new owner numbers, so
neither may change a shared variable in place. Copying every variable at every fork (about
thirty at start) was a fifth of ``cat FILE | wc -l``'s time, whose stages are subshells.
Code that changes a ``Var`` must have it from one of those three.
Counters that limit the whole run (commands executed, the deadline) are shared by forks.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .errors import BashError, LimitExceeded, TimeoutExpired
from .limits import BashLimits

if TYPE_CHECKING:
    from .syntax import FuncDef


_owners = itertools.count(1)
SHARED = -1
"""The owner of a variable no state may change in place: one shared unadopted by a fork, or
one every run starts with (``bash._initial_state``)."""


def _new_owner() -> int:
    return next(_owners)


class Var:
    """One variable: a scalar, an indexed array (sparse) or an associative array."""

    __slots__ = ("value", "array", "assoc", "attrs", "owner")

    def __init__(self, value: str | None = None) -> None:
        self.value = value
        self.array: dict[int, str] | None = None
        self.assoc: dict[str, str] | None = None
        self.attrs: set[str] = set()
        self.owner = 0
        """The ``State.owner`` that may change this variable in place; 0 for one just made,
        which the first state to hand it out adopts."""

    def copy(self, owner: int) -> "Var":
        # past __init__, a third cheaper
        v = Var.__new__(Var)
        v.owner = owner
        v.value = self.value
        v.array = dict(self.array) if self.array is not None else None
        v.assoc = dict(self.assoc) if self.assoc is not None else None
        v.attrs = set(self.attrs)
        return v

    @property
    def is_set(self) -> bool:
        if self.array is not None:
            return bool(self.array)
        if self.assoc is not None:
            return bool(self.assoc)
        return self.value is not None

    def scalar(self) -> str | None:
        """The value as ``$name`` sees it (element 0 of an array)."""
        if self.array is not None:
            return self.array.get(0)
        if self.assoc is not None:
            return self.assoc.get("0")
        return self.value

    def elements(self) -> list[str]:
        if self.array is not None:
            return [self.array[k] for k in sorted(self.array)]
        if self.assoc is not None:
            return [self.assoc[k] for k in bash_hash_order(self.assoc)]
        return [] if self.value is None else [self.value]

    def keys(self) -> list[str]:
        if self.array is not None:
            return [str(k) for k in sorted(self.array)]
        if self.assoc is not None:
            return bash_hash_order(self.assoc)
        return [] if self.value is None else ["0"]


def element_ref(target: str) -> tuple[str, str] | None:
    """(array name, subscript) when ``target``, the name a nameref leads to, is one array
    element (``declare -n r='a[1]'``); None for a plain name."""
    start = target.find("[")
    if start < 0 or not target.endswith("]"):
        return None
    return target[:start], target[start + 1 : -1]


def _fnv1(key: str) -> int:
    h = 2166136261
    for byte in key.encode("utf-8", "surrogateescape"):
        h = (h * 16777619) & 0xFFFFFFFF
        h ^= byte
    return h


def bash_hash_order(assoc: dict[str, str]) -> list[str]:
    """Keys in the order bash lists an associative array: its hash table (1024 buckets,
    FNV-1 hash) walked bucket by bucket, newest entry first within a bucket."""
    keys = list(assoc)
    buckets = 1024
    while len(keys) >= buckets * 2:
        buckets *= 4
    mask = buckets - 1
    ranked = sorted(range(len(keys)), key=lambda k: (_fnv1(keys[k]) & mask, -k))
    return [keys[k] for k in ranked]


@dataclass
class RunCounters:
    """Shared by a shell and all its subshells: the limits are per run, not per subshell."""

    limits: BashLimits
    deadline: float
    commands: int = 0
    next_pid: int = 1000
    scheduler: object | None = None
    """The run's ``background.Scheduler``, made by the first ``&``."""
    pipes: object | None = None
    """The run's ``procsub.PipeTable``, made by the first process substitution."""
    skipped_notes: dict[str, str] = field(default_factory=dict)
    """Workspace files the snapshot left out (path -> the note explaining why); ``ls`` of
    their directory says so on stderr, once per file per run."""
    noted: set[str] = field(default_factory=set)

    def tick(self) -> None:
        self.commands += 1
        if self.commands > self.limits.max_commands:
            raise LimitExceeded(f"command limit exceeded ({self.limits.max_commands} commands)")
        if time.monotonic() > self.deadline:
            raise TimeoutExpired(f"script timed out after {self.limits.timeout_ms} ms")

    def check_time(self) -> None:
        if time.monotonic() > self.deadline:
            raise TimeoutExpired(f"script timed out after {self.limits.timeout_ms} ms")


SHELL_OPTIONS = tuple("allexport braceexpand emacs errexit errtrace functrace hashall histexpand history ignoreeof interactive-comments keyword monitor noclobber noexec noglob nolog notify nounset onecmd physical pipefail posix privileged verbose vi xtrace".split())
OPTION_LETTERS = {"a": "allexport", "e": "errexit", "f": "noglob", "u": "nounset", "x": "xtrace", "C": "noclobber", "v": "verbose", "n": "noexec", "h": "hashall", "B": "braceexpand", "E": "errtrace", "T": "functrace", "P": "physical", "H": "histexpand", "m": "monitor", "b": "notify", "k": "keyword", "t": "onecmd", "p": "privileged"}
SHOPT_NAMES = tuple(
    "autocd assoc_expand_once cdable_vars cdspell checkhash checkjobs checkwinsize cmdhist compat31 compat32 "
    "compat40 compat41 compat42 compat43 compat44 complete_fullquote direxpand dirspell dotglob execfail "
    "expand_aliases extdebug extglob extquote failglob force_fignore globasciiranges globskipdots globstar "
    "gnu_errfmt histappend histreedit histverify hostcomplete huponexit inherit_errexit interactive_comments "
    "lastpipe lithist localvar_inherit localvar_unset login_shell mailwarn no_empty_cmd_completion nocaseglob "
    "nocasematch noexpand_translation nullglob patsub_replacement progcomp progcomp_alias promptvars "
    "restricted_shell shift_verbose sourcepath varredir_close xpg_echo".split()
)
"""In the order bash 5.2 lists them."""


@dataclass
class State:
    counters: RunCounters
    scopes: list[dict[str, Var]] = field(default_factory=lambda: [{}])
    functions: dict[str, "FuncDef"] = field(default_factory=dict)
    positional: list[str] = field(default_factory=list)
    script_name: str = "bash"
    options: dict[str, bool] = field(default_factory=dict)
    shopts: dict[str, bool] = field(default_factory=dict)
    dirstack: list[str] = field(default_factory=list)
    traps: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    last_status: int = 0
    pipestatus: list[int] = field(default_factory=list)
    call_depth: int = 0
    subst_depth: int = 0
    trace_depth: int = 0
    """How many ``eval``/``source`` levels are running (``set -x`` adds a PS4 character each)."""
    funcnames: list[str] = field(default_factory=list)
    pid: int = 4242
    bashpid: int = 4242
    last_bg_pid: int | None = None
    in_subshell: int = 0
    loop_depth: int = 0
    start_time: float = field(default_factory=time.monotonic)
    local_frames: list[dict[str, Var | None]] = field(default_factory=list)
    lineno: int = 0
    exported_functions: set[str] = field(default_factory=set)
    rlimits: dict[str, tuple[int, int]] = field(default_factory=dict)
    """The (soft, hard) resource limits ``ulimit`` has changed, by option letter; the others
    are the sandbox's starting ones (``builtins/ulimit.py``)."""
    owner: int = field(default_factory=lambda: _new_owner())
    """This state's number: the variables it may change in place carry it (see ``owned``)."""
    # Per-shell bookkeeping that a subshell starts afresh (``fork`` does not copy it):
    cmdsub_status: int | None = None
    """Status of the last ``$(...)`` run in this shell (an assignment-only command's status)."""
    sourcing: int = 0
    """How many ``source``/``.`` files are running (``return`` is valid in them)."""
    getopts_pos: int = 1
    """Where ``getopts`` is inside a clustered argument such as ``-abc``."""
    getopts_last_optind: int | None = None
    """The OPTIND ``getopts`` last set (a script that resets OPTIND restarts the scan)."""
    in_not_found_handler: bool = False
    """``command_not_found_handle`` is running (a missing command inside it is just missing)."""
    subscript_text: Callable[[str, bool], str] | None = None
    """Expands a subscript (an associative array's key when the flag is set, else an index
    expression): a nameref to an array element (``declare -n r='m[$k]'``) names the element
    its subscript expands to where it is used. The shell's ``Expander`` provides it."""

    def fork(self) -> "State":
        new = State(self.counters)
        new.scopes = [dict(scope) for scope in self.scopes]  # the variables shared: see owned
        for scope in self.scopes:
            for var in scope.values():
                if var.owner == 0:
                    var.owner = SHARED  # made but never adopted: now both sides'
        self.owner = _new_owner()
        new.functions = dict(self.functions)
        new.positional = list(self.positional)
        new.script_name = self.script_name
        new.options = dict(self.options)
        new.shopts = dict(self.shopts)
        new.dirstack = list(self.dirstack)
        # a subshell does not inherit traps, only ignored signals (an empty action)
        new.traps = {k: v for k, v in self.traps.items() if v == ""}
        new.aliases = dict(self.aliases)
        new.last_status = self.last_status
        new.pipestatus = list(self.pipestatus)
        new.call_depth = self.call_depth
        new.subst_depth = self.subst_depth
        new.trace_depth = self.trace_depth
        new.funcnames = list(self.funcnames)
        new.pid = self.pid
        self.counters.next_pid += 1
        new.bashpid = self.counters.next_pid
        new.last_bg_pid = self.last_bg_pid
        new.in_subshell = self.in_subshell + 1
        new.loop_depth = 0
        new.start_time = self.start_time
        new.local_frames = []
        new.lineno = self.lineno
        new.exported_functions = set(self.exported_functions)
        new.rlimits = dict(self.rlimits)
        return new

    # -- variables ---------------------------------------------------------------------
    def owned(self, scope: dict[str, Var], name: str) -> Var | None:
        """``scope``'s variable ``name``, this state's own to change (copied first if it is
        still shared with a fork or its parent)."""
        var = scope.get(name)
        if var is not None and var.owner != self.owner:
            if var.owner == 0:  # made since the last fork and placed here: no one else has it
                var.owner = self.owner
            else:
                var = scope[name] = var.copy(self.owner)
        return var

    def lookup(self, name: str) -> Var | None:
        for scope in reversed(self.scopes):
            var = scope.get(name)
            if var is not None:
                if var.owner != self.owner:
                    var = self.owned(scope, name)
                return var
        return None

    def resolve_nameref(self, name: str) -> str:
        for _ in range(10):
            var = self.lookup(name)
            if var is None or "n" not in var.attrs or not var.value:
                return name
            name = var.value
        return name

    def get(self, name: str) -> str | None:
        var = self.lookup(name)
        if var is not None and "n" not in var.attrs:  # no nameref to follow: read it here
            return var.scalar()
        target = self.resolve_nameref(name)
        if "[" in target:
            ref = element_ref(target)
            if ref is not None:
                return self.element_value(*ref)
        var = self.lookup(target)
        return None if var is None else var.scalar()

    def element_key(self, subscript: str, var: Var | None) -> str:
        """The key a nameref's subscript names in the array ``var``, as of now."""
        if self.subscript_text is None:
            return subscript
        return self.subscript_text(subscript, var is not None and var.assoc is not None)

    def element_value(self, name: str, subscript: str) -> str | None:
        """The element ``name[subscript]`` a nameref leads to (None when it is unset)."""
        var = self.lookup(self.resolve_nameref(name))
        if var is None:
            return None
        if subscript in ("@", "*"):
            return " ".join(var.elements()) if var.is_set else None
        key = self.element_key(subscript, var)
        if var.assoc is not None:
            return var.assoc.get(key)
        index = self.array_index(name, key, var)
        if var.array is None:
            return var.value if index == 0 else None
        return var.array.get(index)

    def scope_for_write(self, name: str) -> dict[str, Var]:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope
        return self.scopes[0]

    def writable(self, name: str) -> Var:
        """The variable ``name`` for writing (created as a global when missing)."""
        name = self.resolve_nameref(name)
        if "[" in name:
            # a nameref to an array element takes a value (``set``), not an array or attributes
            raise BashError(f"`{name}': not a valid identifier")
        return self._writable_resolved(name)

    def _writable_resolved(self, name: str) -> Var:
        scope = self.scope_for_write(name)
        var = self.owned(scope, name)
        if var is None:
            var = Var()
            var.owner = self.owner
            scope[name] = var
            if self.options.get("allexport"):
                var.attrs.add("x")
        if "r" in var.attrs:
            raise BashError(f"{name}: readonly variable")
        var.attrs.discard("unassigned")
        return var

    def set(self, name: str, value: str) -> None:
        var = self.lookup(name)
        if var is not None and not var.attrs and var.array is None and var.assoc is None:
            # a plain scalar with no attribute: no nameref, no transform, not readonly, and
            # ``lookup`` gave the copy this state owns, in the scope a write goes to
            var.value = value
            self._check_size(value)
            return
        target = self.resolve_nameref(name)
        if "[" in target:
            ref = element_ref(target)
            if ref is not None:
                self._set_element_ref(*ref, value)
                return
        var = self._writable_resolved(target)
        value = self._transform(var, value)
        if var.array is not None:
            var.array[0] = value
        elif var.assoc is not None:
            var.assoc["0"] = value
        else:
            var.value = value
        self._check_size(value)

    def _set_element_ref(self, array: str, subscript: str, value: str) -> None:
        """Assign through a nameref to the element ``array[subscript]``."""
        self.set_element(array, self.element_key(subscript, self.lookup(self.resolve_nameref(array))), value)

    def _transform(self, var: Var, value: str) -> str:
        if "i" in var.attrs:
            from . import arith

            value = str(arith.evaluate(value, _ArithView(self)) if value.strip() else 0)
        if "l" in var.attrs:
            value = value.lower()
        elif "u" in var.attrs:
            value = value.upper()
        return value

    def _check_size(self, value: str) -> None:
        if len(value) > self.counters.limits.max_string_bytes:
            raise LimitExceeded(f"string length limit exceeded ({self.counters.limits.max_string_bytes} bytes)")

    def set_element(self, name: str, key: str, value: str) -> None:
        var = self.writable(name)
        value = self._transform(var, value)
        self._check_size(value)
        if var.assoc is not None:
            var.assoc[key] = value
            return
        if var.array is None:
            var.array = {} if var.value is None else {0: var.value}
            var.value = None
        index = self.array_index(name, key, var)
        var.array[index] = value
        if len(var.array) > self.counters.limits.max_array_elements:
            raise LimitExceeded(f"array size limit exceeded ({self.counters.limits.max_array_elements} elements)")

    def array_index(self, name: str, key: str, var: Var) -> int:
        if key.isascii() and key.isdigit():
            return int(key)
        from . import arith

        index = arith.evaluate(key, _ArithView(self)) if key.strip() else 0
        if index < 0:
            size = (max(var.array) + 1) if var.array else 0
            index += size
            if index < 0:
                raise BashError(f"{name}[{key}]: bad array subscript")
        return index

    def set_array(self, name: str, values: list[str]) -> None:
        var = self.writable(name)
        if len(values) > self.counters.limits.max_array_elements:
            raise LimitExceeded(f"array size limit exceeded ({self.counters.limits.max_array_elements} elements)")
        var.value = None
        var.assoc = None
        var.array = {i: self._transform(var, v) for i, v in enumerate(values)}

    def unset(self, name: str) -> None:
        name = self.resolve_nameref(name)
        for scope in reversed(self.scopes):
            var = scope.get(name)
            if var is not None:
                if "r" in var.attrs:
                    raise BashError(f"unset: {name}: cannot unset: readonly variable")
                if scope is self.scopes[-1] and len(self.scopes) > 1:
                    # unsetting a local leaves it unset-but-local (bash's dynamic scoping)
                    scope[name] = Var()
                    scope[name].attrs = {a for a in var.attrs if a == "local"}
                else:
                    del scope[name]
                return

    def exported(self) -> dict[str, str]:
        env: dict[str, str] = {}
        for scope in self.scopes:
            for name, var in scope.items():
                if "x" in var.attrs:
                    value = var.scalar()
                    if value is not None:
                        env[name] = value
                    else:
                        env.pop(name, None)
                elif name in env:
                    del env[name]
        return env

    def all_names(self) -> list[str]:
        names: set[str] = set()
        for scope in self.scopes:
            names.update(n for n, v in scope.items() if v.is_set or v.attrs)
        return sorted(names)

    @property
    def cwd(self) -> str:
        return self.get("PWD") or "/"


class _ArithView:
    """Lets arithmetic read and write the shell's variables."""

    def __init__(self, state: State) -> None:
        self.state = state

    def arith_get(self, name: str, index: str | None) -> str:
        if index is None:
            var = self.state.lookup(name)
            if var is not None and "n" not in var.attrs:
                return var.scalar() or ""
        target = self.state.resolve_nameref(name)
        ref = element_ref(target) if "[" in target and index is None else None
        if ref is not None:
            return self.state.element_value(*ref) or ""
        var = self.state.lookup(target)
        if var is None:
            if self.state.options.get("nounset"):
                from .errors import FatalExpansionError

                raise FatalExpansionError(f"{name}: unbound variable")
            return ""
        if index is None:
            return var.scalar() or ""
        if var.assoc is not None:
            return var.assoc.get(index, "")
        if var.array is None:
            return (var.value or "") if self.state.array_index(name, index, var) == 0 else ""
        return var.array.get(self.state.array_index(name, index, var), "")

    def arith_set(self, name: str, index: str | None, value: int) -> None:
        if index is None:
            self.state.set(name, str(value))
        else:
            self.state.set_element(name, index, str(value))


def arith_view(state: State) -> _ArithView:
    return _ArithView(state)
