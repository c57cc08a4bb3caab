"""The worker pipe's frames: a message, then the raw parts its ``tail`` announces."""

from __future__ import annotations

import asyncio
import json
import os
import threading
from collections.abc import Iterator

import pytest

from sandbox._wire import (HEADER, MAX_FRAME, MAX_TAIL_PARTS, WireError, encode, encode_with_tail,
                           read_frame, tail_of, write_frame)
from sandbox.worker_main import request_text
from sandbox.workers import _WorkerProcess, _done


@pytest.fixture
def pipe() -> Iterator[tuple[int, int]]:
    read_fd, write_fd = os.pipe()
    yield read_fd, write_fd
    for fd in (read_fd, write_fd):
        try:
            os.close(fd)
        except OSError:
            pass


def _write_in_background(fd: int, message: dict[str, object], tail: list[object] | None) -> threading.Thread:
    # A part larger than the pipe's buffer blocks its writer until the reader takes it.
    thread = threading.Thread(target=write_frame, args=(fd, message, tail))
    thread.start()
    return thread


def test_a_message_without_a_tail_reads_as_it_was_written(pipe: tuple[int, int]) -> None:
    write_frame(pipe[1], {"op": "call", "name": "tool", "payload": "{}"})
    assert read_frame(pipe[0]) == {"op": "call", "name": "tool", "payload": "{}"}


def test_raw_parts_follow_their_message_byte_for_byte(pipe: tuple[int, int]) -> None:
    big = os.urandom(3 * 1024 * 1024)
    writer = _write_in_background(pipe[1], {"op": "done", "files": ["/a"]},
                                  [b'{"stdout":""}', [big[:5], big[5:]]])
    message = read_frame(pipe[0])
    writer.join()
    assert message["op"] == "done" and message["files"] == ["/a"]
    assert tail_of(message) == [b'{"stdout":""}', big]


def test_a_small_tail_is_one_buffer_and_a_large_one_is_not_joined() -> None:
    assert len(encode_with_tail({"op": "run"}, [b"x" * 100])) == 1
    large = encode_with_tail({"op": "run"}, [[b"a" * 70_000, b"b" * 70_000]])
    assert len(large) == 4  # the message, the part's length, and its two pieces as given


def test_the_tail_count_is_the_wire_s_own_field() -> None:
    with pytest.raises(WireError):
        encode({"op": "run", "tail": 1})
    with pytest.raises(WireError):
        encode_with_tail({"op": "run", "tail": 1}, [b""])


@pytest.mark.parametrize("count", [-1, True, "1", 1.0, MAX_TAIL_PARTS + 1])
def test_an_impossible_tail_count_is_refused(pipe: tuple[int, int], count: object) -> None:
    body = json.dumps({"op": "done", "tail": count}).encode()
    os.write(pipe[1], HEADER.pack(len(body)) + body)
    with pytest.raises(WireError):
        read_frame(pipe[0])


def test_parts_past_the_frame_limit_are_refused_before_they_are_read(pipe: tuple[int, int]) -> None:
    body = b'{"op":"done","tail":2}'
    # The first part claims all the frame may hold: the second's length alone is refused.
    os.write(pipe[1], HEADER.pack(len(body)) + body + HEADER.pack(0) + HEADER.pack(MAX_FRAME + 1))
    with pytest.raises(WireError, match="exceed"):
        read_frame(pipe[0])


def test_a_tail_cut_short_is_a_closed_pipe(pipe: tuple[int, int]) -> None:
    body = b'{"op":"done","tail":1}'
    os.write(pipe[1], HEADER.pack(len(body)) + body + HEADER.pack(10) + b"short")
    os.close(pipe[1])
    with pytest.raises(WireError, match="closed"):
        read_frame(pipe[0])


def _service_side(data: bytes) -> "asyncio.Future[dict[str, object]]":
    """What the service's reader (``workers._WorkerProcess.receive``) makes of ``data``."""
    reader = asyncio.StreamReader()
    reader.feed_data(data)
    reader.feed_eof()
    worker = _WorkerProcess.__new__(_WorkerProcess)
    worker.reader = reader
    return asyncio.ensure_future(worker.receive())


async def test_the_service_reads_a_tail_as_the_worker_does() -> None:
    frame = b"".join(encode_with_tail({"op": "done", "files": ["/a"]}, [b"{}", b"\x00\xff" * 40_000]))
    message = await _service_side(frame)
    assert message["files"] == ["/a"] and tail_of(message) == [b"{}", b"\x00\xff" * 40_000]


@pytest.mark.parametrize("data", [
    HEADER.pack(22) + b'{"op":"done","tail":2}' + HEADER.pack(0) + HEADER.pack(MAX_FRAME + 1),
    HEADER.pack(22) + b'{"op":"done","tail":1}' + HEADER.pack(10) + b"short",
    HEADER.pack(23) + b'{"op":"done","tail":-1}',
])
async def test_the_service_refuses_a_tail_out_of_bounds_or_cut_short(data: bytes) -> None:
    with pytest.raises(WireError):
        await _service_side(data)


@pytest.mark.parametrize("message", [
    {"op": "done"},                                                   # no response at all
    {"op": "done", "files": ["/a"], "tail": [b"{}"]},                 # a file it does not carry
    {"op": "done", "files": [7], "tail": [b"{}", b"x"]},              # a path that is not text
    {"op": "done", "files": "/a", "tail": [b"{}", b"x"]},
    {"op": "done", "tail": [b"\xff\xfe"]},                            # a response that is not UTF-8
    {"op": "done", "result": True, "tail": [b"{}"]},                  # a result it does not carry
    {"op": "done", "result": 1, "tail": [b"{}", b"[]"]},
    {"op": "done", "result": True, "tail": [b"{}", b"\xc3"]},         # a result that is not UTF-8
    {"op": "done", "result": True, "files": ["/a"], "tail": [b"{}", b"[]"]},
])
def test_a_done_message_that_does_not_carry_what_it_says_is_the_worker_s_error(message: dict[str, object]) -> None:
    with pytest.raises(WireError):
        _done(message, 0.0)


def test_a_done_message_gives_its_response_and_files() -> None:
    output = _done({"op": "done", "host_calls": 2, "files": ["/a"], "tail": [b'{"x":1}', b"\x00"]}, 0.5)
    assert (output.response, output.host_calls, output.uncharged_s, output.files) == ('{"x":1}', 2, 0.5, {"/a": b"\x00"})


def test_a_done_message_gives_the_result_it_carries_before_its_files() -> None:
    output = _done({"op": "done", "result": True, "files": ["/a"],
                    "tail": [b'{"status":"completed"}', '[1,"\u00e9"]'.encode(), b"\x00"]}, 0.0)
    assert (output.result, output.files) == ('[1,"\u00e9"]', {"/a": b"\x00"})
    assert _done({"op": "done", "tail": [b"{}"]}, 0.0).result is None


@pytest.mark.parametrize("message", [{"op": "run"}, {"op": "run", "tail": [b"\xc3"]}])
def test_a_run_without_its_request_as_text_is_refused(message: dict[str, object]) -> None:
    with pytest.raises(WireError):
        request_text(message)
