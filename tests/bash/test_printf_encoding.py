"""printf and echo -e: literal non-ASCII text stays UTF-8; octal and hex escapes are raw bytes."""

from __future__ import annotations

from pathlib import Path

from bash import run_script


def test_literal_non_ascii_is_written_as_utf8(tmp_path: Path) -> None:
    result = run_script("printf '%s|' 'é'; printf 'ü\\n'; echo -e 'ß'", root=str(tmp_path))
    assert result.stdout == "é|ü\nß\n".encode()


def test_octal_and_hex_escapes_are_single_raw_bytes(tmp_path: Path) -> None:
    result = run_script("printf '\\351\\x41'; echo -e '\\xff\\0101'", root=str(tmp_path))
    assert result.stdout == b"\xe9A\xffA\n"


def test_printf_v_keeps_raw_bytes_for_later_output(tmp_path: Path) -> None:
    result = run_script("printf -v v '\\xe9%s' 'é'; printf '%s' \"$v\"", root=str(tmp_path))
    assert result.stdout == b"\xe9" + "é".encode()
