"""What every git subcommand works with: the command context, the repository, the ``-c``
overrides, output, identities and dates, revisions and pathspecs.

Output is collected (``out``) and yielded by the entry point when the subcommand ends;
messages git writes to standard error go to ``ctx.stderr`` at once.
"""

from __future__ import annotations

import fnmatch
import os
import re
import stat
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

from dulwich.config import ConfigFile
from dulwich.objects import Blob, Commit, Tag, Tree

from ..base import CommandContext
from ..files.common import WASI, effective_mode, mode_set_by_script, set_mode
from .repo import GitError, Identity, Repository, dec, enc, find_repository, ref
from ... import fs
from ...tz import UTC, Zone, wall_seconds, zone_of

DEFAULT_NAME = "sandbox"
DEFAULT_EMAIL = "sandbox@localhost"
"""The identity used when neither the environment nor any config names one (real git
would refuse to commit; a sandboxed agent has no account to take one from)."""

_GLOB = re.compile(r"[*?\[]")


@dataclass
class Git:
    ctx: CommandContext
    overrides: dict[str, str] = field(default_factory=dict)
    """``-c name=value`` settings, by lower-cased ``section.key``."""
    out: list[bytes] = field(default_factory=list)
    _repo: Repository | None = None

    def close(self) -> None:
        if self._repo is not None:
            self._repo.close()

    # -- output --------------------------------------------------------------------------
    def print(self, text: str = "") -> None:
        self.out.append((text + "\n").encode("utf-8", "surrogateescape"))

    def write(self, data: bytes) -> None:
        self.out.append(data)

    def warn(self, text: str) -> None:
        self.ctx.error(text)

    # -- the repository ------------------------------------------------------------------
    def cwd_real(self) -> str:
        return self.ctx.host_path(self.ctx.cwd)

    @property
    def repo(self) -> Repository:
        if self._repo is None:
            found = find_repository(self.cwd_real(), self.ctx.cwd, self.ctx.host_path("/"))
            if found is None:
                raise GitError("fatal: not a git repository (or any of the parent directories): .git")
            found.mode_of = self._mode_of
            found.set_executable = self._set_executable
            self._repo = found
        return self._repo

    def _mode_of(self, real: str, st: os.stat_result, recorded: int | None) -> int:
        """The file's git mode, with the permission bits the script set by ``chmod`` (the
        isolate's files have none); a file no ``chmod`` touched in this run keeps the mode
        the index records there, as git does on a filesystem without modes
        (``core.fileMode = false``)."""
        if stat.S_ISLNK(st.st_mode):
            return 0o120000
        if WASI and recorded in (0o100644, 0o100755) and not mode_set_by_script(self.ctx, real):
            return recorded
        bits = effective_mode(self.ctx, real, st)
        return 0o100755 if bits & 0o111 else 0o100644

    def _set_executable(self, real: str, on: bool) -> None:
        set_mode(self.ctx, real, 0o755 if on else 0o644)

    def prefix(self) -> str:
        """The current directory relative to the top of the working tree ('' at the top)."""
        rel = os.path.relpath(self.cwd_real(), self.repo.top)
        return "" if rel == "." else rel.replace(os.sep, "/") + "/"

    def to_repo_path(self, arg: str) -> str:
        """A path argument (relative to the current directory) as a path in the repository."""
        virtual = self.ctx.resolve(arg)
        real = self.ctx.host_path(virtual)
        rel = os.path.relpath(real, self.repo.top)
        if rel == ".":
            return ""
        if rel.startswith(".."):
            raise GitError(f"fatal: {arg}: '{arg}' is outside repository at '{self.repo.top_virtual}'")
        return rel.replace(os.sep, "/")

    def shown(self, path: str) -> str:
        """A repository path as git prints it: relative to the current directory."""
        prefix = self.prefix()
        if not prefix:
            return path
        rel = os.path.relpath("/" + path, "/" + prefix.rstrip("/"))
        return rel + ("/" if path.endswith("/") and not rel.endswith("/") else "")

    # -- config and identity -------------------------------------------------------------
    def setting(self, name: str) -> str | None:
        """A config value: ``-c`` first, then the repository's config, then the global one."""
        key = name.lower()
        if key in self.overrides:
            return self.overrides[key]
        section, _, option = name.rpartition(".")
        files: list[ConfigFile] = []
        if self._repo is not None or self._find_quietly():
            files.append(self.repo.config())
        files.extend(self._global_configs())
        for config in files:
            try:
                value = config.get((enc(section),), enc(option))
            except KeyError:
                continue
            return dec(value)
        return None

    def _find_quietly(self) -> bool:
        try:
            self.repo
        except GitError:
            return False
        return True

    def _global_configs(self) -> list[ConfigFile]:
        found = []
        home = self.ctx.env.get("HOME", "/")
        for path in (os.path.join(home, ".gitconfig"), os.path.join(home, ".config/git/config")):
            real = self.ctx.host_path(path)
            if fs.isfile(real):
                found.append(ConfigFile.from_path(real))
        return found

    def identity(self, role: str) -> Identity:
        """The author or committer (``role``): ``GIT_<ROLE>_*`` variables, then
        ``user.name``/``user.email``, then the sandbox's default."""
        env = self.ctx.env
        name = env.get(f"GIT_{role}_NAME") or self.setting("user.name") or DEFAULT_NAME
        email = env.get(f"GIT_{role}_EMAIL") or self.setting("user.email") or env.get("EMAIL") or DEFAULT_EMAIL
        stamp = env.get(f"GIT_{role}_DATE")
        where = zone_of(env)
        when, tz = parse_date(stamp, where) if stamp else _now(where)
        return Identity(name, email, when, tz)

    # -- revisions -----------------------------------------------------------------------
    def resolve(self, spec: str) -> str:
        """A revision (``HEAD``, a branch or tag, a sha or its prefix, with ``~n``/``^n``
        suffixes) as a commit sha; ``fatal`` if it names nothing."""
        sha = self.try_resolve(spec)
        if sha is None:
            raise GitError(f"fatal: ambiguous argument '{spec}': unknown revision or path not in the working tree.\n"
                           "Use '--' to separate paths from revisions, like this:\n"
                           "'git <command> [<revision>...] -- [<file>...]'")
        return sha

    def try_resolve(self, spec: str) -> str | None:
        m = re.fullmatch(r"(.*?)((?:[~^]\d*)*)", spec)
        assert m is not None
        base, suffix = m.group(1), m.group(2)
        sha = self._base(base or "HEAD")
        for op, digits in re.findall(r"([~^])(\d*)", suffix):
            if sha is None:
                return None
            count = int(digits) if digits else 1
            if op == "~":
                for _ in range(count):
                    parents = self.repo.commit(sha).parents
                    if not parents:
                        return None
                    sha = dec(parents[0])
            else:
                if count == 0:
                    continue
                parents = self.repo.commit(sha).parents
                if len(parents) < count:
                    return None
                sha = dec(parents[count - 1])
        return sha

    def _base(self, name: str) -> str | None:
        repo = self.repo
        if name in ("HEAD", "@"):
            return repo.head()
        for name_ in (f"refs/heads/{name}", f"refs/tags/{name}", f"refs/{name}", name):
            try:
                sha = dec(repo.refs[ref(name_)])
            except (KeyError, ValueError):
                continue
            return self._peel(sha)
        if re.fullmatch(r"[0-9a-f]{4,40}", name):
            matches = [sha for sha in self._shas_with_prefix(name)]
            if len(matches) == 1:
                return self._peel(matches[0])
            if len(matches) > 1:
                raise GitError(f"fatal: short object ID {name} is ambiguous")
        return None

    def _peel(self, sha: str) -> str | None:
        obj = self.repo.object(sha)
        while isinstance(obj, Tag):
            sha = dec(obj.object[1])
            obj = self.repo.object(sha)
        return sha if isinstance(obj, Commit) else None

    def _shas_with_prefix(self, prefix: str) -> list[str]:
        if len(prefix) == 40:
            return [prefix] if self.repo.has(prefix) else []
        return sorted({dec(sha) for sha in self.repo.store if dec(sha).startswith(prefix)})

    def object_at(self, spec: str) -> Blob | Tree | None:
        """``rev:path``: the blob or tree at ``path`` in ``rev``."""
        rev, _, path = spec.partition(":")
        commit = self.repo.commit(self.resolve(rev or "HEAD"))
        obj: object = self.repo.object(dec(commit.tree))
        for part in [p for p in path.split("/") if p]:
            if not isinstance(obj, Tree):
                return None
            try:
                _mode, sha = obj[enc(part)]
            except KeyError:
                return None
            obj = self.repo.object(dec(sha))
        return obj if isinstance(obj, (Blob, Tree)) else None


def matches(path: str, specs: list[str]) -> bool:
    """Whether a repository path is selected by pathspecs (repository-relative: a file, a
    directory holding it, or a glob matched across ``/`` as git does)."""
    if not specs:
        return True
    for spec in specs:
        if spec in ("", "."):
            return True
        if path == spec or path.startswith(spec.rstrip("/") + "/"):
            return True
        if _GLOB.search(spec) and fnmatch.fnmatchcase(path, spec):
            return True
    return False


def _now(where: Zone) -> tuple[int, int]:
    now = int(time.time())
    return now, where.at(now).offset


_TZ = re.compile(r"([+-])(\d{2}):?(\d{2})\Z")


def parse_date(text: str, where: Zone = UTC) -> tuple[int, int]:
    """``GIT_*_DATE``: git's internal format (``[@]<epoch> <+hhmm>``), ISO 8601 (``Z`` or an
    offset; none means local time in ``where``) or RFC 2822. With no offset given, the one
    recorded is the local offset, as git's ``mktime`` gives it."""
    text = text.strip()
    m = re.fullmatch(r"@?(\d+)(?:\s+([+-]\d{4}))?", text)
    if m:
        when = int(m.group(1))
        return when, _offset(m.group(2)) if m.group(2) else where.at(when).offset
    for fmt in ("%a, %d %b %Y %H:%M:%S %z", "%d %b %Y %H:%M:%S %z", "%a %b %d %H:%M:%S %Y %z"):
        try:
            parsed = datetime.strptime(text, fmt)
        except ValueError:
            continue
        return _from_datetime(parsed)
    iso = text.replace("T", " ", 1)
    iso = iso[:-1] + "+0000" if iso.endswith("Z") else iso
    tz_match = re.search(r"\s*([+-]\d{2}:?\d{2})\Z", iso)
    tz_text = None
    if tz_match:
        tz_text, iso = tz_match.group(1), iso[: tz_match.start()]
    for fmt in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d", "%Y.%m.%d %H:%M:%S"):
        try:
            parsed = datetime.strptime(iso.strip(), fmt)
        except ValueError:
            continue
        if tz_text is None:
            wall = wall_seconds(parsed.year, parsed.month, parsed.day, parsed.hour, parsed.minute, parsed.second)
            when = where.mktime(wall)
            return when, wall - when
        offset = _offset(tz_text)
        return _from_datetime(parsed.replace(tzinfo=timezone(timedelta(seconds=offset))))
    raise GitError(f"fatal: invalid date format: {text}")


def _offset(text: str) -> int:
    m = _TZ.match(text)
    if not m:
        return 0
    seconds = int(m.group(2)) * 3600 + int(m.group(3)) * 60
    return -seconds if m.group(1) == "-" else seconds


def _from_datetime(value: datetime) -> tuple[int, int]:
    offset = value.utcoffset()
    return int(value.timestamp()), int(offset.total_seconds()) if offset else 0


def format_date(when: int, tz: int) -> str:
    """git's default date: ``Thu Jan 1 00:00:00 2026 +0000``, in the recorded zone."""
    moment = datetime.fromtimestamp(when, timezone(timedelta(seconds=tz)))
    sign = "-" if tz < 0 else "+"
    hours, minutes = divmod(abs(tz) // 60, 60)
    return (f"{moment.strftime('%a %b')} {moment.day} {moment.strftime('%H:%M:%S %Y')} "
            f"{sign}{hours:02d}{minutes:02d}")


def glob_like(spec: str) -> bool:
    return bool(_GLOB.search(spec))


def split_flags(args: list[str], with_value: str = "") -> list[str]:
    """Bundled short options one by one (``-sb`` -> ``-s -b``; ``-qam msg`` -> ``-q -a -m
    msg``; ``-mtext`` -> ``-m text``); ``with_value`` names the letters taking a value."""
    out: list[str] = []
    for n, arg in enumerate(args):
        if arg == "--":
            return out + args[n:]
        if not arg.startswith("-") or arg.startswith("--") or len(arg) <= 2 or (arg[1:].isascii() and arg[1:].isdigit()):
            out.append(arg)
            continue
        for k, letter in enumerate(arg[1:], start=1):
            out.append("-" + letter)
            if letter in with_value:
                if k + 1 < len(arg):
                    out.append(arg[k + 1 :])
                break
    return out


def leading_int(text: str) -> int:
    """A count as git's ``strtol`` reads it: its leading digits, 0 if none."""
    digits = re.match(r"\s*(\d*)", text)
    return int(digits.group(1)) if digits and digits.group(1) else 0
