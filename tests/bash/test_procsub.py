"""Process substitution beyond the recorded cases (``cases/lang_procsub.test.sh``): the
deadline bounds every list, an endless list ends with its reader, and whatever a command
feeding ``>(...)`` raises (exit, return, break, a limit) acts as if it had run directly."""

from __future__ import annotations

from pathlib import Path

from bash import BashLimits, run_script


def sh(tmp_path: Path, script: str, **limits: int) -> tuple[str, int, str, bool]:
    result = run_script(script, root=str(tmp_path), limits=BashLimits(**limits) if limits else None)
    return result.stdout.decode(), result.exit_code, result.stderr.decode(), result.timed_out


def test_the_deadline_stops_lists_that_would_outlive_it(tmp_path: Path) -> None:
    out, status, err, timed_out = sh(tmp_path, "diff <(sleep 30) <(sleep 30); echo never", timeout_ms=300)
    assert (out, status, timed_out) == ("", 124, True)
    assert "timed out" in err


def test_the_deadline_stops_an_output_list_that_never_ends(tmp_path: Path) -> None:
    out, status, _, timed_out = sh(tmp_path, "echo x > >(while :; do sleep 1; done); wait $!; echo never", timeout_ms=300)
    assert (status, timed_out) == (124, True) and "never" not in out


def test_an_endless_list_ends_when_its_reader_stops(tmp_path: Path) -> None:
    out, status, _, timed_out = sh(tmp_path, "head -c 5 <(yes); echo; cat <(yes) | head -2; echo done")
    assert (out, status, timed_out) == ("y\ny\ny" + "\n" + "y\ny\ndone\n", 0, False)


def test_a_list_nobody_reads_does_not_keep_the_script_alive(tmp_path: Path) -> None:
    out, status, _, timed_out = sh(tmp_path, "echo <(yes) <(sleep 30); echo done", timeout_ms=5000)
    assert (out, status, timed_out) == ("/dev/fd/63 /dev/fd/62\ndone\n", 0, False)


def test_exit_in_a_command_feeding_an_output_list_exits_the_script(tmp_path: Path) -> None:
    out, status, _, _ = sh(tmp_path, "f() { echo bye; exit 3; }; f > >(cat); echo not-reached")
    assert status == 3 and "not-reached" not in out


def test_return_and_break_pass_through_a_command_feeding_an_output_list(tmp_path: Path) -> None:
    out, status, _, _ = sh(tmp_path, "g() { return 5 > >(cat); echo no; }; g; echo \"g=$?\";"
                                     " for i in 1 2 3; do echo $i; break > >(cat); done; echo after")
    assert status == 0 and out == "g=5\n1\nafter\n"


def test_process_substitutions_are_not_jobs(tmp_path: Path) -> None:
    out, status, _, _ = sh(tmp_path, "cat <(echo a) > /dev/null; echo x > >(cat > /dev/null); jobs; echo end")
    assert (out, status) == ("end\n", 0)


def test_a_list_writing_far_ahead_of_its_reader_waits_for_it(tmp_path: Path) -> None:
    # seq would print 10 MB at once; it is held back to what the reader has taken
    out, status, _, _ = sh(tmp_path, "while read -r n; do [ $n -ge 3 ] && break; done < <(seq 2000000); echo \"n=$n\"",
                           max_string_bytes=1_000_000)
    assert (out, status) == ("n=3\n", 0)
