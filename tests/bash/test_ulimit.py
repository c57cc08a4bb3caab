"""``ulimit`` where the recorded cases (``cases/lang_ulimit.test.sh``) cannot reach: the
sandbox's starting limits, which are its own and not the recording machine's, and their
``-a`` listing. The listing's layout is GNU bash 5.2's as observed with ``bash -c 'ulimit
-a'`` on Linux: the description left-aligned in 20 columns, a space, the "(units, -x) " text
right-aligned in 20, then the value."""

from __future__ import annotations

import pytest

from bash import BashLimits, run_script
from bash.builtins.ulimit import RESOURCES, Resource, show
from bash.memfs import MemoryFS

STARTING_LISTING = """\
real-time non-blocking time  (microseconds, -R) unlimited
core file size              (blocks, -c) unlimited
data seg size               (kbytes, -d) unlimited
scheduling priority                 (-e) 0
file size                   (blocks, -f) unlimited
pending signals                     (-i) unlimited
max locked memory           (kbytes, -l) unlimited
max memory size             (kbytes, -m) unlimited
open files                          (-n) unlimited
pipe size                (512 bytes, -p) 8
POSIX message queues         (bytes, -q) unlimited
real-time priority                  (-r) 0
stack size                  (kbytes, -s) unlimited
cpu time                   (seconds, -t) unlimited
max user processes                  (-u) unlimited
virtual memory              (kbytes, -v) unlimited
file locks                          (-x) unlimited
"""


def run(script: str, limits: BashLimits | None = None) -> tuple[str, str, int]:
    memory = MemoryFS()
    memory.load(["/tmp"], [])
    result = run_script(script, root="/", filesystem=memory, limits=limits)
    return result.stdout.decode(), result.stderr.decode(), result.exit_code


def test_a_run_starts_from_the_sandboxs_fixed_limits() -> None:
    soft, _, status = run("ulimit -a")
    hard, _, _ = run("ulimit -H -a")
    assert status == 0
    assert soft == hard == STARTING_LISTING


def test_the_default_resource_and_the_fixed_ones_at_start() -> None:
    out, err, status = run("ulimit; ulimit -H; ulimit -n; ulimit -p; ulimit -e -r")
    assert (out, err, status) == ("unlimited\nunlimited\nunlimited\n8\n"
                                  "scheduling priority                 (-e) 0\n"
                                  "real-time priority                  (-r) 0\n", "", 0)


def test_what_a_run_changes_does_not_reach_the_next_run() -> None:
    assert run("ulimit -n 10; ulimit -c 0; ulimit -n -c")[0] == (
        "open files                          (-n) 10\ncore file size              (blocks, -c) 0\n")
    assert run("ulimit -n; ulimit -Hc")[0] == "unlimited\nunlimited\n"


def test_the_non_root_rules_from_unlimited() -> None:
    # a hard limit below the soft one (still unlimited) is refused; lowered, it stays so
    out, err, status = run("ulimit -H -n 100; echo $?; ulimit -n 100; ulimit -H -n unlimited; echo $?; "
                           "ulimit -S -n 50; ulimit -S -n unlimited; ulimit -n")
    assert out == "1\n1\n100\n"
    assert err == ("bash: line 1: ulimit: open files: cannot modify limit: Invalid argument\n"
                   "bash: line 1: ulimit: open files: cannot modify limit: Operation not permitted\n")


@pytest.mark.parametrize("res", RESOURCES, ids=lambda res: res.letter)
def test_every_label_keeps_bashs_columns(res: Resource) -> None:
    line = show(res, 7 * (1024 if res.units in ("kbytes", "blocks") else 512 if res.letter == "p" else 1),
                posix=False, labelled=True)
    units = f"({res.units}, -{res.letter}) " if res.units else f"(-{res.letter}) "
    head = res.description.ljust(20) + " "
    assert line.startswith(head)
    assert line[len(head):] == units.rjust(20) + "7\n"


def test_the_longest_description_pushes_its_columns_right() -> None:
    # "real-time non-blocking time" is 27 characters, past the 20 of its column
    assert show(RESOURCES[0], 5, posix=False, labelled=True) == \
        "real-time non-blocking time  (microseconds, -R) 5\n"


def test_ulimit_does_not_touch_the_sandboxs_own_limits() -> None:
    script = ("ulimit -f 0 -n 1 -t 1 -u 1 -v 1 -s 1; echo data > /tmp/f; cat /tmp/f; "
              "for i in 1 2 3 4 5 6; do :; done; echo done")
    out, _, status = run(script)
    assert (out, status) == ("data\ndone\n", 0)
    out, err, status = run("ulimit -u unlimited; for i in $(seq 50); do :; done; echo past",
                           BashLimits(max_commands=20))
    assert "past" not in out and "command limit exceeded" in err
