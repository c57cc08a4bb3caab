"""An execute's scratch ``/tmp``: writable, fresh for every run, capped while it runs."""

from __future__ import annotations

import os
from pathlib import Path

from sandbox import Limits, Sandbox
from sandbox.scratch import measure, remove_tree

FILL_UNTIL_STOPPED = (
    "import os\nn = 0\nwhile True:\n"
    "    with open(f'/tmp/f{n}', 'wb') as f:\n        f.write(b'x' * {size})\n    n += 1"
)


def test_tempfile_works_in_the_scratch_directory(sandbox: Sandbox) -> None:
    code = ("import tempfile, os\n"
            "with tempfile.NamedTemporaryFile('w+', suffix='.csv') as f:\n"
            "    f.write('a,b\\n')\n    f.flush()\n    f.seek(0)\n    text = f.read()\n"
            "    name = os.path.dirname(f.name)\n"
            "with tempfile.TemporaryDirectory() as d:\n"
            "    open(os.path.join(d, 'x'), 'w').write('1')\n    listed = os.listdir(d)\n"
            "[tempfile.gettempdir(), name, text, listed]")
    assert sandbox.execute(code).result == ["/tmp", "/tmp", "a,b\n", ["x"]]


def test_every_run_starts_with_an_empty_scratch_directory(sandbox: Sandbox) -> None:
    for _ in range(3):
        outcome = sandbox.execute("import os\nbefore = os.listdir('/tmp')\n"
                                  "open('/tmp/left-behind', 'w').write('x')\nbefore")
        assert outcome.result == []


def test_writing_past_the_byte_limit_stops_the_run(sandbox: Sandbox) -> None:
    limits = Limits(scratch_bytes=2 * 1024 * 1024, deadline_s=60)
    outcome = sandbox.execute(FILL_UNTIL_STOPPED.replace("{size}", "256 * 1024"), limits=limits)
    assert outcome.trap is not None and outcome.trap["kind"] == "scratch", outcome
    assert "2097152 bytes" in outcome.trap["message"]


def test_making_more_files_than_allowed_stops_the_run(sandbox: Sandbox) -> None:
    limits = Limits(scratch_files=50, deadline_s=60)
    outcome = sandbox.execute(FILL_UNTIL_STOPPED.replace("{size}", "0"), limits=limits)
    assert outcome.trap is not None and outcome.trap["kind"] == "scratch", outcome


def test_a_run_within_its_limits_is_not_stopped(sandbox: Sandbox) -> None:
    code = ("import time\nfor n in range(20):\n"
            "    open(f'/tmp/f{n}', 'wb').write(b'x' * 1000)\n    time.sleep(0.005)\n'ok'")
    assert sandbox.execute(code, limits=Limits(scratch_files=30)).result == "ok"


def test_a_tree_deeper_than_the_recursion_limit_is_measured_and_removed(tmp_path: Path) -> None:
    current = tmp_path / "scratch"
    current.mkdir()
    root = current
    for _ in range(1_500):
        current = current / "d"
        current.mkdir()
    (current / "leaf").write_bytes(b"y" * 10)
    usage = measure(root, Limits(scratch_files=10_000, scratch_bytes=10**9))
    assert usage.entries == 1_501
    remove_tree(root)
    assert not root.exists()


def test_a_symlink_out_of_the_scratch_directory_is_neither_followed_nor_removed_through(
        tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep").write_bytes(b"z" * 100_000)
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    os.symlink(outside, scratch / "link")
    assert measure(scratch, Limits()).bytes == 4096
    remove_tree(scratch)
    assert (outside / "keep").exists() and not scratch.exists()


def test_a_run_that_leaves_tmp_empty_hands_the_next_run_an_empty_tmp_too(sandbox: Sandbox) -> None:
    listing = "import os\nsorted(os.listdir('/tmp'))"
    assert sandbox.execute(listing).result == []
    assert sandbox.execute("import os\nos.mkdir('/tmp/d')\nos.rmdir('/tmp/d')\n"
                           "open('/tmp/f', 'w').write('x')\nos.remove('/tmp/f')\n1").result == 1
    assert sandbox.execute(listing).result == []
    assert sandbox.execute("open('/tmp/kept', 'w').write('x')\n1").result == 1
    for _ in range(3):
        assert sandbox.execute(listing).result == []
