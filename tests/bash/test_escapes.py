"""The one escape decoder, in each of the shell's dialects."""

from __future__ import annotations

import pytest

from bash.escapes import (
    QUOTE_ESCAPES, Decoded, decode, decode_ansi_c, decode_at, decode_echo, decode_printf_b,
    decode_printf_format, raw_byte,
)


def test_raw_byte_maps_high_bytes_to_surrogates_that_encode_back_to_the_byte() -> None:
    assert raw_byte(0x41) == "A"
    assert raw_byte(0xE9).encode("utf-8", "surrogateescape") == b"\xe9"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a\\tb\\n", Decoded("a\tb\n", False)),
        ("\\0101\\101", Decoded("A\\101", False)),
        ("\\x41\\x\\u00e9", Decoded("A\\x\u00e9", False)),
        ("one\\ctwo", Decoded("one", True)),
        ("\\q\\'", Decoded("\\q\\'", False)),
        ("trailing\\", Decoded("trailing\\", False)),
    ],
)
def test_echo_dialect(text: str, expected: Decoded) -> None:
    assert decode_echo(text) == expected


def test_printf_b_takes_octal_with_or_without_the_leading_zero() -> None:
    assert decode_printf_b("\\0101\\101\\c!") == Decoded("AA", True)


def test_printf_format_takes_quotes_and_keeps_backslash_c() -> None:
    assert decode_printf_format("\\101\\0101\\'\\\"\\?\\c") == "A\b1'\"?\\c"
    assert decode_printf_format("\\351").encode("utf-8", "surrogateescape") == b"\xe9"


def test_ansi_c_gives_raw_bytes_control_characters_and_stops_at_nul() -> None:
    assert decode_ansi_c("\\351\\x41\\ca\\c").encode("utf-8", "surrogateescape") == b"\xe9A\x01\\c"
    assert decode_ansi_c("\\u00e9") == "\u00e9"
    assert decode_ansi_c("ab\\0cd") == "ab"


def test_parameters_describe_a_commands_own_dialect() -> None:
    assert decode("\\q\\x41\\u0041", simple=QUOTE_ESCAPES, hex_digits=0, unicode=False, unknown="drop").text == "qx41u0041"
    assert decode("\\101", octal="none").text == "\\101"
    assert decode("\\777").text == raw_byte(0xFF)


def test_octal_overflow_stop_leaves_the_last_digit_out_as_tr_does() -> None:
    assert decode("\\777", octal_overflow="stop", byte_values="codepoint").text == "?7"
    assert decode("\\377", octal_overflow="stop", byte_values="codepoint").text == "\xff"


def test_decode_at_decodes_one_escape_and_says_where_it_ends() -> None:
    assert decode_at("a\\101%n", 1) == ("A", 5)
    assert decode_at("\\x4g", 0) == ("\x04", 3)
    assert decode_at("\\q", 0, unknown="drop") == ("q", 2)
