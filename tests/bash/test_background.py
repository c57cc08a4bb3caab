"""Background jobs (``background.py``): a job runs beside the script, ``wait`` collects it,
``kill`` ends it, and the run's deadline still bounds everything a job does."""

from __future__ import annotations

from pathlib import Path

from bash import BashLimits, run_script


def test_jobs_take_turns_with_the_script(tmp_path: Path) -> None:
    script = "(sleep 0.3; echo slow) & (sleep 0.1; echo quick) & echo first; wait; echo last"
    assert run_script(script, root=str(tmp_path)).stdout == b"first\nquick\nslow\nlast\n"


def test_wait_returns_the_jobs_status_and_remembers_it(tmp_path: Path) -> None:
    result = run_script("(exit 5) & p=$!; wait $p; echo $?; wait $p; echo $?; wait %4; echo $?", root=str(tmp_path))
    assert result.stdout == b"5\n5\n127\n"
    assert b"wait: %4: no such job" in result.stderr


def test_kill_ends_a_sleeping_job_with_the_signal_status(tmp_path: Path) -> None:
    result = run_script("sleep 50 & kill %1; wait $!; echo $?; sleep 50 & kill -KILL $!; wait; jobs", root=str(tmp_path))
    assert result.stdout == b"143\n"
    assert not result.timed_out


def test_jobs_lists_the_running_ones(tmp_path: Path) -> None:
    result = run_script("sleep 5 & sleep 5 & jobs; kill %1 %2", root=str(tmp_path))
    assert result.stdout == (b"[1]-  Running                 sleep 5 &\n"
                             b"[2]+  Running                 sleep 5 &\n")


def test_a_job_still_running_when_the_script_ends_is_finished(tmp_path: Path) -> None:
    result = run_script("{ sleep 0.1; echo done > marker; echo out; } & echo script", root=str(tmp_path))
    assert result.stdout == b"script\nout\n"
    assert (tmp_path / "marker").read_text() == "done\n"


def test_the_deadline_bounds_a_job_that_never_ends(tmp_path: Path) -> None:
    result = run_script("while :; do sleep 0.05; done & wait; echo never", root=str(tmp_path),
                        limits=BashLimits(timeout_ms=300))
    assert result.timed_out and result.exit_code == 124 and b"never" not in result.stdout


def test_the_deadline_bounds_a_busy_job(tmp_path: Path) -> None:
    result = run_script("while :; do :; done & echo started", root=str(tmp_path), limits=BashLimits(timeout_ms=300))
    assert result.stdout == b"started\n" and result.timed_out


def test_a_subshell_waits_only_for_its_own_jobs(tmp_path: Path) -> None:
    result = run_script("sleep 0.3 & x=$(jobs -p | wc -l; { sleep 0.1; echo mine; } &); echo $x; kill %1", root=str(tmp_path))
    assert result.stdout == b"1 mine\n"
