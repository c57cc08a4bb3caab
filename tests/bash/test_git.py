"""``git`` over the workspace, beyond the recorded cases (``cases/cmd_git.test.sh``): the
repository persists between bash calls, real git reads what ours wrote (and the other way
round), and a damaged repository or hostile input fails cleanly."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from bash import run_script

if TYPE_CHECKING:
    from sandbox import Sandbox

ENV = {"GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": "ada@example.com", "GIT_COMMITTER_NAME": "Ada",
       "GIT_COMMITTER_EMAIL": "ada@example.com", "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
       "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z", "TZ": "UTC", "PATH": "/usr/bin:/bin", "HOME": "/"}

REAL_GIT = shutil.which("git")
needs_git = pytest.mark.skipif(REAL_GIT is None, reason="real git is not installed (scripts/install adds it)")


def sh(root: Path, script: str, cwd: str = "/") -> tuple[str, int, str]:
    result = run_script(script, root=str(root), cwd=cwd, env=dict(ENV))
    return result.stdout.decode(), result.exit_code, result.stderr.decode()


def real_git(root: Path, *args: str) -> str:
    assert REAL_GIT is not None
    env = {**ENV, "HOME": str(root), "GIT_CONFIG_NOSYSTEM": "1"}
    done = subprocess.run([REAL_GIT, *args], cwd=root, env=env, capture_output=True, text=True, check=True)
    return done.stdout


def test_a_commit_made_in_one_call_is_logged_and_diffed_in_the_next(tmp_path: Path) -> None:
    out, status, _ = sh(tmp_path, "git init -q && printf 'a\\nb\\n' > f && git add f && git commit -q -m first")
    assert (out, status) == ("", 0)
    assert (tmp_path / ".git" / "HEAD").read_text() == "ref: refs/heads/master\n"
    out, status, _ = sh(tmp_path, "git log --oneline; echo c >> f; git diff --stat 2>/dev/null; git diff")
    assert status == 0
    assert out.splitlines()[0].endswith(" first")
    assert out.endswith("@@ -1,2 +1,3 @@\n a\n b\n+c\n")


def test_the_same_inputs_give_the_same_commit_hash_every_time(tmp_path: Path) -> None:
    hashes = []
    for name in ("one", "two"):
        root = tmp_path / name
        root.mkdir()
        out, _, _ = sh(root, "git init -q; echo x > f; git add f; git commit -q -m m; git log --format=%H")
        hashes.append(out)
    assert hashes[0] == hashes[1] and len(hashes[0].strip()) == 40


@needs_git
def test_real_git_reads_the_repository_ours_wrote(tmp_path: Path) -> None:
    sh(tmp_path, "git init -q; mkdir d; echo 1 > d/a; echo 2 > b; git add .; git commit -q -m one;"
                 " git checkout -q -b topic; echo 3 >> b; git commit -qam two")
    assert real_git(tmp_path, "log", "--format=%s %an", "topic") == "two Ada\none Ada\n"
    assert real_git(tmp_path, "status", "--porcelain") == ""
    real_git(tmp_path, "fsck", "--strict")
    assert real_git(tmp_path, "branch") == "  master\n* topic\n"


@needs_git
def test_ours_reads_a_repository_real_git_wrote_with_packed_objects(tmp_path: Path) -> None:
    real_git(tmp_path, "init", "-q")
    (tmp_path / "f").write_text("v1\n")
    real_git(tmp_path, "add", "f")
    real_git(tmp_path, "commit", "-q", "-m", "one")
    (tmp_path / "f").write_text("v2\n")
    real_git(tmp_path, "commit", "-q", "-am", "two")
    real_git(tmp_path, "gc", "-q")  # everything into a pack file, refs into packed-refs
    assert not any((tmp_path / ".git" / "objects").glob("??/*"))
    out, status, err = sh(tmp_path, "git log --oneline; git show HEAD~1:f; git status -s; git diff HEAD~1 --name-only")
    assert status == 0, err
    assert out.split("\n")[0].endswith(" two") and out.split("\n")[1].endswith(" one")
    assert out.endswith("v1\nf\n")


def test_outside_a_repository_git_says_so(tmp_path: Path) -> None:
    out, status, err = sh(tmp_path, "git status")
    assert (out, status) == ("", 128)
    assert err == "fatal: not a git repository (or any of the parent directories): .git\n"


def test_remote_operations_say_the_network_is_off(tmp_path: Path) -> None:
    for sub in ("clone https://example.com/r.git", "push origin master", "pull", "fetch", "remote add o x"):
        out, status, err = sh(tmp_path, f"git {sub}")
        assert (out, status) == ("", 1)
        assert "network is off" in err


def test_unsupported_subcommands_and_flags_exit_1_saying_what_is_offered(tmp_path: Path) -> None:
    sh(tmp_path, "git init -q")
    _, status, err = sh(tmp_path, "git rebase -i HEAD~3")
    assert status == 1 and "'rebase' is not a git command the sandbox offers" in err and "commit" in err
    _, status, err = sh(tmp_path, "git log --graph")
    assert status == 1 and err == "error: unsupported option for log in the sandbox's git: '--graph'\n"


def test_commit_without_a_message_asks_for_m_since_there_is_no_editor(tmp_path: Path) -> None:
    out, status, err = sh(tmp_path, "git init -q; echo a > a; git add a; git commit")
    assert status == 1 and "use -m" in err


def test_the_identity_falls_back_to_a_fixed_default(tmp_path: Path) -> None:
    result = run_script("git init -q; echo a > a; git add a; git commit -q -m m; git log --format='%an <%ae>'",
                        root=str(tmp_path), env={"PATH": "/usr/bin:/bin", "HOME": "/"})
    assert result.stdout == b"sandbox <sandbox@localhost>\n"


def test_a_damaged_object_is_a_clear_fatal_error_not_a_crash(tmp_path: Path) -> None:
    sh(tmp_path, "git init -q; echo a > a; git add a; git commit -q -m m")
    for loose in (tmp_path / ".git" / "objects").glob("??/*"):
        loose.write_bytes(b"not zlib at all")
    out, status, err = sh(tmp_path, "git log; echo after=$?")
    assert out.endswith("after=128\n")
    assert err.startswith("fatal: ")


def test_a_hostile_head_cannot_point_outside_the_repository(tmp_path: Path) -> None:
    sh(tmp_path, "git init -q")
    (tmp_path / ".git" / "HEAD").write_text("ref: ../../../../etc/passwd\n")
    out, status, err = sh(tmp_path, "git log; echo s=$?")
    assert out.endswith("s=128\n") and err.startswith("fatal: ")


def test_paths_given_from_a_subdirectory_are_relative_to_it(tmp_path: Path) -> None:
    sh(tmp_path, "git init -q; mkdir -p src; echo 1 > src/a; git add .; git commit -q -m one")
    out, status, _ = sh(tmp_path, "echo 2 > a; git status -s; git add a; git diff --cached --name-only", cwd="/src")
    assert status == 0 and out == " M a\nsrc/a\n"


def test_git_dir_contents_are_ordinary_workspace_files(tmp_path: Path) -> None:
    sh(tmp_path, "git init -q; echo a > a; git add a; git commit -q -m m")
    names = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()}
    assert {".git/HEAD", ".git/config", ".git/index", ".git/refs/heads/master"} <= names
    assert all(not os.path.islink(tmp_path / n) for n in names)


@pytest.mark.slow
def test_in_the_isolate_a_committed_executable_stays_clean_in_the_next_call(sandbox: "Sandbox", tmp_path: Path) -> None:
    """The isolate's files carry no permission bits: the mode the index records holds for
    a file no chmod touched in this call (git's ``core.fileMode = false``)."""
    from sandbox import Limits

    def run(script: str) -> dict[str, object]:
        return sandbox.run_bash({"script": script, "cwd": "/", "env": ENV, "limits": {"timeout_ms": 20000}},
                                str(tmp_path), Limits(deadline_s=30))

    first = run("git init -q; echo 'echo hi' > run.sh; chmod +x run.sh; git add .; git commit -q -m one;"
                " git ls-files 2>/dev/null; git log --format=%s")
    assert first["exit_code"] == 0 and first["stdout"] == "one\n"
    second = run("git status --porcelain; git show --format= HEAD | head -2")
    assert second["stdout"] == "diff --git a/run.sh b/run.sh\nnew file mode 100755\n"


def test_amend_replaces_the_last_commit_keeping_its_author_date(tmp_path: Path) -> None:
    sh(tmp_path, "git init -q; echo a > a; git add a; git commit -q -m first; echo b > b; git add b")
    result = run_script("git commit -q --amend -m better; git log --format='%s|%ad|%cd'",
                        root=str(tmp_path), env={**ENV, "GIT_COMMITTER_DATE": "2026-03-01T00:00:00Z"})
    assert result.stdout.decode() == "better|Thu Jan 1 00:00:00 2026 +0000|Sun Mar 1 00:00:00 2026 +0000\n"
