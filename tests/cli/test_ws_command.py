"""The ``sandbox ws`` command (sandbox.cli.workspaces), run through a real argparse tree."""

import argparse
import io
import json
from pathlib import Path

import pytest

from sandbox.cli.workspaces import register
from sandbox.service import default_data_dir


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="sandbox")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SANDBOX_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def test_put_cat_ls_and_rm_round_trip(data_dir: Path, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    src = tmp_path / "local.txt"
    src.write_bytes(b"from disk\n")
    assert run(["ws", "put", "/docs/a.txt", str(src)]) == 0
    assert (data_dir / "sandbox.db").exists()
    capsysbinary.readouterr()
    assert run(["ws", "cat", "/docs/a.txt"]) == 0
    assert capsysbinary.readouterr().out == b"from disk\n"
    assert run(["ws", "ls", "/docs"]) == 0
    assert capsysbinary.readouterr().out == b"a.txt\n"
    assert run(["ws", "ls", "-l", "/"]) == 0
    assert b"docs/" in capsysbinary.readouterr().out
    assert run(["ws", "rm", "/docs"]) == 1
    assert b"ENOTEMPTY" in capsysbinary.readouterr().err
    assert run(["ws", "rm", "-r", "/docs"]) == 0
    assert run(["ws", "cat", "/docs/a.txt"]) == 1
    assert b"ENOENT" in capsysbinary.readouterr().err


def test_put_reads_stdin_and_workspace_option_selects_workspace(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"\x00\x01binary")))
    assert run(["ws", "-w", "other", "put", "/b.bin"]) == 0
    assert "application/octet-stream" in capsys.readouterr().out
    assert run(["ws", "list"]) == 0
    assert capsys.readouterr().out == "other\n"
    assert run(["ws", "info", "--workspace", "other"]) == 0
    assert json.loads(capsys.readouterr().out)["file_count"] == 1
    assert run(["ws", "info"]) == 1  # "default" was never created
    assert "no workspace named 'default'" in capsys.readouterr().err


def test_tool_mkdir_mv_find_and_drop(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["ws", "tool", "write", '{"path": "/src/a.py", "content": "print(1)\\n"}']) == 0
    assert json.loads(capsys.readouterr().out) == {"path": "/src/a.py", "bytes_written": 9, "lines": 1}
    assert run(["ws", "tool", "read", '{"path": "/nope"}']) == 1
    assert json.loads(capsys.readouterr().out) == {"error": "File not found: /nope"}
    assert run(["ws", "mkdir", "-p", "/x/y"]) == 0
    assert run(["ws", "mv", "/src", "/x/y/src"]) == 0
    capsys.readouterr()
    assert run(["ws", "find", "**/*.py"]) == 0
    assert capsys.readouterr().out == "/x/y/src/a.py\n"
    assert run(["ws", "drop"]) == 2
    assert run(["ws", "drop", "--yes"]) == 0
    assert run(["ws", "drop", "--yes"]) == 1


def test_bad_input_gives_a_message_not_a_traceback(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as usage:
        run(["ws", "tool", "read", "{oops"])
    assert usage.value.code == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert run(["ws", "mkdir", "/d"]) == 0
    assert run(["ws", "-w", "../bad", "ls"]) == 1
    assert "EINVAL" in capsys.readouterr().err
    assert run(["ws", "tool", "read", '{"path": 3}']) == 1
    assert "EINVAL" in capsys.readouterr().err


def test_data_dir_defaults(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("SANDBOX_DATA_DIR", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_data_dir() == tmp_path / ".local" / "share" / "sandbox"
    monkeypatch.setenv("SANDBOX_DATA_DIR", "/srv/sandbox")
    assert default_data_dir() == Path("/srv/sandbox")


@pytest.mark.parametrize("argv", [["ls"], ["ls", "-l", "/x"], ["cat", "/f"], ["info"], ["rm", "-f", "/f"],
                                  ["mv", "/a", "/b"], ["find", "*"], ["tool", "read", '{"path": "/f"}'],
                                  ["drop", "--yes"]])
def test_a_missing_workspace_is_exit_1_for_every_subcommand(
        argv: list[str], data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["ws", "-w", "nosuch", *argv]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no workspace named 'nosuch'" in err
    assert run(["ws", "list"]) == 0 and capsys.readouterr().out == "", "refusing created nothing"


def test_put_mkdir_and_tool_write_create_the_workspace_they_name(
        data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"x")))
    assert run(["ws", "-w", "one", "put", "/f"]) == 0
    assert run(["ws", "-w", "two", "mkdir", "/d"]) == 0
    assert run(["ws", "-w", "three", "tool", "write", '{"path": "/f", "content": "x"}']) == 0
    capsys.readouterr()
    assert run(["ws", "list"]) == 0
    assert capsys.readouterr().out.split() == ["one", "three", "two"]
