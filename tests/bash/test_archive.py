"""gzip, gunzip, zcat and tar driven directly through the command protocol."""

from __future__ import annotations

import io
import itertools
import os
import shutil
import subprocess
import tarfile
from pathlib import Path
from typing import Iterable, Iterator

import pytest

from bash.commands import files
from bash.commands.files.gzipfmt import GzipFormatError, gzip_compress, gzip_decompress
from bash.commands.base import CommandContext


def run(root: Path, argv: list[str], stdin: Iterable[bytes] = (), cwd: str = "/") -> tuple[bytes, bytes, int]:
    err = io.BytesIO()
    ctx = CommandContext(stdin=iter(stdin), stderr=err, cwd=cwd, env={}, root=str(root))
    gen = files.COMMANDS[argv[0]](ctx, argv)
    out = bytearray()
    while True:
        try:
            out += next(gen)
        except StopIteration as stop:
            return bytes(out), err.getvalue(), int(stop.value or 0)


@pytest.mark.skipif(shutil.which("gzip") is None, reason="GNU gzip is not installed")
def test_gzip_file_is_byte_identical_to_gnu_gzip(tmp_path: Path) -> None:
    data = b"".join(b"line %d\n" % i for i in range(2000))
    (tmp_path / "f").write_bytes(data)
    os.utime(tmp_path / "f", (1577934245, 1577934245))
    gnu = subprocess.run(["gzip", "-c", str(tmp_path / "f")], capture_output=True, check=True)
    out, err, status = run(tmp_path, ["gzip", "-c", "f"])
    assert (err, status) == (b"", 0)
    assert out == gnu.stdout


def test_gzip_replaces_file_and_gunzip_restores_it(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"hello\n")
    assert run(tmp_path, ["gzip", "a"])[2] == 0
    assert sorted(os.listdir(tmp_path)) == ["a.gz"]
    assert run(tmp_path, ["gunzip", "a.gz"])[2] == 0
    assert (tmp_path / "a").read_bytes() == b"hello\n"
    assert not (tmp_path / "a.gz").exists()


def test_gzip_refuses_to_overwrite_without_force(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"x")
    (tmp_path / "a.gz").write_bytes(b"keep")
    _, err, status = run(tmp_path, ["gzip", "a"])
    assert status == 2
    assert err == b"gzip: a.gz already exists;\tnot overwritten\n"
    assert (tmp_path / "a.gz").read_bytes() == b"keep"


def test_gunzip_reports_non_gzip_input_on_a_fresh_line(tmp_path: Path) -> None:
    (tmp_path / "fake.gz").write_bytes(b"plain text\n")
    _, err, status = run(tmp_path, ["gunzip", "fake.gz"])
    assert (err, status) == (b"\ngzip: fake.gz: not in gzip format\n", 1)


def test_zcat_reads_stdin_and_concatenated_members(tmp_path: Path) -> None:
    stream = gzip_compress(b"one\n") + gzip_compress(b"two\n")
    out, _, status = run(tmp_path, ["zcat"], stdin=[stream[:7], stream[7:]])
    assert (out, status) == (b"one\ntwo\n", 0)


def test_gzip_decompress_detects_corruption() -> None:
    good = gzip_compress(b"payload")
    with pytest.raises(GzipFormatError, match="crc error"):
        gzip_decompress(good[:-8] + b"\0\0\0\0" + good[-4:])
    with pytest.raises(GzipFormatError, match="unexpected end of file"):
        gzip_decompress(good[:12])


def test_gzip_list_shows_ratio_without_header_overhead(tmp_path: Path) -> None:
    (tmp_path / "a").write_bytes(b"hi\n")
    run(tmp_path, ["gzip", "a"])
    out, _, _ = run(tmp_path, ["gzip", "-l", "a.gz"])
    assert out == (b"         compressed        uncompressed  ratio uncompressed_name\n"
                   b"                 25                   3 -66.7% a\n")


def test_tar_round_trip_keeps_content_links_and_modes(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "one").write_bytes(b"1\n")
    (src / "sub" / "two").write_bytes(b"2\n")
    os.chmod(src / "one", 0o600)
    os.symlink("one", src / "link")
    assert run(tmp_path, ["tar", "czf", "t.tgz", "src"])[2] == 0
    out, _, _ = run(tmp_path, ["tar", "tzf", "t.tgz"])
    assert out == b"src/\nsrc/link\nsrc/one\nsrc/sub/\nsrc/sub/two\n"
    (tmp_path / "out").mkdir()
    assert run(tmp_path, ["tar", "xzf", "t.tgz", "-C", "out"])[2] == 0
    assert (tmp_path / "out/src/sub/two").read_bytes() == b"2\n"
    assert os.readlink(tmp_path / "out/src/link") == "one"
    assert os.stat(tmp_path / "out/src/one").st_mode & 0o777 == 0o600


def test_tar_verbose_listing_uses_gnu_columns(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"abcdef\n")
    os.chmod(tmp_path / "f", 0o644)
    os.utime(tmp_path / "f", (1577934245, 1577934245))
    run(tmp_path, ["tar", "cf", "t.tar", "f"])
    out, _, _ = run(tmp_path, ["tar", "tvf", "t.tar"])
    assert out == b"-rw-r--r-- user/user         7 2020-01-02 03:04 f\n"


def test_tar_extract_strips_parent_references(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        entry = tarfile.TarInfo("../../escape")
        entry.size = 3
        tar.addfile(entry, io.BytesIO(b"bad"))
    (tmp_path / "ws").mkdir()
    (tmp_path / "ws" / "evil.tar").write_bytes(buffer.getvalue())
    _, err, status = run(tmp_path / "ws", ["tar", "xf", "evil.tar"])
    assert status == 0
    assert err == b"tar: Removing leading `../../' from member names\n"
    assert (tmp_path / "ws" / "escape").read_bytes() == b"bad"
    assert not (tmp_path / "escape").exists()


def test_tar_reads_archive_from_stdin_and_writes_to_stdout(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"x\n")
    archive_bytes, _, status = run(tmp_path, ["tar", "cf", "-", "f"])
    assert status == 0
    out, _, _ = run(tmp_path, ["tar", "tf", "-"], stdin=[archive_bytes])
    assert out == b"f\n"


def test_tar_errors_follow_gnu(tmp_path: Path) -> None:
    _, err, status = run(tmp_path, ["tar", "xf", "nosuch.tar"])
    assert status == 2
    assert err == (b"tar: nosuch.tar: Cannot open: No such file or directory\n"
                   b"tar: Error is not recoverable: exiting now\n")
    _, err, status = run(tmp_path, ["tar", "cf", "e.tar"])
    assert status == 2 and err.startswith(b"tar: Cowardly refusing to create an empty archive")
    _, err, status = run(tmp_path, ["tar"])
    assert status == 2 and b"You must specify one of the '-Acdtrux'" in err


def test_gzip_streams_an_endless_input(tmp_path: Path) -> None:
    err = io.BytesIO()
    ctx = CommandContext(stdin=itertools.repeat(b"y\n" * 4096), stderr=err, cwd="/", env={},
                         root=str(tmp_path))
    gen = files.COMMANDS["gzip"](ctx, ["gzip"])
    produced = b""
    for _ in range(200):
        produced += next(gen)
        if len(produced) > 1000:
            break
    gen.close()
    assert produced[:2] == b"\x1f\x8b" and len(produced) > 1000


def test_zcat_yields_before_its_input_ends(tmp_path: Path) -> None:
    member = gzip_compress(b"first\n")

    def stdin() -> Iterator[bytes]:
        yield member
        raise AssertionError("zcat read past the data it needed")

    err = io.BytesIO()
    ctx = CommandContext(stdin=stdin(), stderr=err, cwd="/", env={}, root=str(tmp_path))
    gen = files.COMMANDS["zcat"](ctx, ["zcat"])
    assert next(gen) == b"first\n"
    gen.close()


def test_tar_lists_members_as_the_archive_streams_in(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for name in ("first", "second", "third"):
            entry = tarfile.TarInfo(name)
            entry.size = 50_000
            tar.addfile(entry, io.BytesIO(b"x" * 50_000))
    data = buffer.getvalue()

    def stdin() -> Iterator[bytes]:
        # tar reads 10 KiB records, like GNU tar; two records hold the first header.
        for start in range(0, 20480, 4096):
            yield data[start : start + 4096]
        raise AssertionError("tar read the whole archive before listing")

    err = io.BytesIO()
    ctx = CommandContext(stdin=stdin(), stderr=err, cwd="/", env={}, root=str(tmp_path))
    gen = files.COMMANDS["tar"](ctx, ["tar", "tf", "-"])
    assert next(gen) == b"first\n"
    gen.close()
