"""`Forked`: work done in a forked child beside this process, answered once and reaped."""

from __future__ import annotations

import os
import signal
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from sitegen.common.forked import Forked, ForkedBytes, in_two


def _children() -> set[int]:
    """This process's child processes, zombies included, from /proc."""
    found = set()
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line)
        except OSError:
            continue
        if fields.get("PPid", "").strip() == str(os.getpid()):
            found.add(int(status.parent.name))
    return found


pytestmark = pytest.mark.skipif(not hasattr(os, "fork") or not Path("/proc/self/status").exists(),
                                reason="needs fork and /proc")


def test_the_work_runs_in_a_child_and_its_answer_comes_back(tmp_path: Path) -> None:
    mark = tmp_path / "pid"
    before = _children()

    def work() -> bool:
        mark.write_text(str(os.getpid()))
        return True

    job = Forked(work)
    assert job.pid and job.pid != os.getpid()
    assert job.result() is True and job.result() is True  # asked twice, waited for once
    assert mark.read_text() == str(job.pid)
    assert _children() <= before  # reaped: no zombie left


def test_a_false_or_raising_work_answers_false(tmp_path: Path) -> None:
    def fails() -> bool:
        raise RuntimeError("lost")

    assert Forked(lambda: False).result() is False
    assert Forked(fails).result() is False


def test_beside_false_runs_here_and_now(tmp_path: Path) -> None:
    ran: list[int] = []
    job = Forked(lambda: ran.append(os.getpid()) is None, beside=False)
    assert job.pid == 0 and ran == [os.getpid()]
    assert job.result() is True


def test_a_fork_that_fails_runs_the_work_here_and_leaks_no_descriptor(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise OSError("no more processes")

    monkeypatch.setattr(os, "fork", no_fork)
    before = set(os.listdir("/proc/self/fd"))
    ran: list[int] = []
    job = Forked(lambda: ran.append(os.getpid()) is None)
    assert job.pid == 0 and ran == [os.getpid()] and job.result() is True
    assert set(os.listdir("/proc/self/fd")) == before


def test_no_descriptor_to_be_had_runs_the_work_here(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_descriptor(*args: object, **kwargs: object) -> int:
        raise OSError("too many open files")

    monkeypatch.setattr(os, "memfd_create", no_descriptor, raising=False)
    monkeypatch.setattr(tempfile, "mkstemp", no_descriptor)
    assert Forked(lambda: True).pid == 0
    assert Forked(lambda: False).result() is False


def test_without_memfd_the_answer_comes_through_a_nameless_temporary_file(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    """The file is made in a temporary folder of this test's own: the system's is shared with every test running
    beside it, and another's new file there once failed this test."""
    monkeypatch.delattr(os, "memfd_create", raising=False)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    job = ForkedBytes(lambda: b"through a file" * 10_000)
    assert job.pid and job.result() == b"through a file" * 10_000
    assert list(tmp_path.iterdir()) == []  # unlinked as soon as it was made


def test_megabytes_of_answer_come_back_whole_while_this_process_goes_on() -> None:
    before = _children()
    answer = os.urandom(5 << 20)  # far more than a pipe holds: the child must not wait for us
    job = ForkedBytes(lambda: answer)
    here = sum(range(200_000))  # this process goes on meanwhile
    assert job.pid and job.result() == answer and job.result() == answer
    assert here == 19_999_900_000 and _children() <= before
    assert ForkedBytes(lambda: b"").result() == b""


def test_a_raising_child_answers_none_and_a_raising_work_here_raises() -> None:
    def fails() -> bytes:
        raise RuntimeError("lost")

    assert ForkedBytes(fails).result() is None
    with pytest.raises(RuntimeError, match="lost"):
        ForkedBytes(fails, beside=False)


def test_no_job_starts_a_thread_so_the_process_may_fork_again() -> None:
    before = threading.active_count()
    job = Forked(lambda: time.sleep(0.3) is None)  # still working when the threads are counted
    big = ForkedBytes(lambda: b"x" * (3 << 20))  # more than a pipe holds
    assert job.pid and big.pid and threading.active_count() == before
    assert job.result() is True and big.result() == b"x" * (3 << 20)
    assert threading.active_count() == before


def test_a_child_that_dies_answers_none_and_leaves_no_descriptor() -> None:
    before = set(os.listdir("/proc/self/fd"))

    def dies() -> bytes:
        os.kill(os.getpid(), signal.SIGKILL)
        return b"never"

    assert ForkedBytes(dies).result() is None
    assert ForkedBytes(lambda: os._exit(3)).result() is None  # type: ignore[func-returns-value]
    assert set(os.listdir("/proc/self/fd")) == before


def test_a_cancelled_job_is_stopped_and_reaped_and_answers_none() -> None:
    before = _children()
    slow: list[Callable[[], ForkedBytes]] = [lambda: Forked(lambda: time.sleep(30) is None),
                                             lambda: ForkedBytes(lambda: time.sleep(30) or b"late")]
    for make in slow:
        job = make()
        assert job.pid
        started = time.monotonic()
        job.cancel()
        assert time.monotonic() - started < 5 and _children() <= before
        assert not job.result()
        job.cancel()  # twice is harmless
    done = Forked(lambda: True)
    assert done.result() is True
    done.cancel()  # an answer taken stays
    assert done.result() is True


def test_work_in_two_is_the_whole_work_in_its_order_and_a_failed_child_s_half_is_done_here() -> None:
    here = os.getpid()
    ran: list[tuple[int, int, bool]] = []

    def squares(start: int, end: int) -> dict[str, int]:
        ran.append((start, end, os.getpid() == here))
        return {f"k{i:03}": i * i for i in range(start, end)}

    assert in_two(squares, 101, dict[str, int], smallest=10) == squares(0, 101)
    assert list(in_two(squares, 101, dict[str, int], smallest=10)) == [f"k{i:03}" for i in range(101)]
    ran.clear()
    in_two(squares, 101, dict[str, int], smallest=10)
    assert ran == [(0, 50, True)]  # the other half ran in the child, whose list this is not
    ran.clear()
    assert in_two(squares, 9, dict[str, int], smallest=10) == squares(0, 9)
    assert ran[0] == (0, 9, True)

    def failing_in_the_child(start: int, end: int) -> dict[str, int]:
        if os.getpid() != here:
            os._exit(3)
        return squares(start, end)

    ran.clear()
    assert in_two(failing_in_the_child, 101, dict[str, int], smallest=10) == squares(0, 101)
    assert ran[:2] == [(0, 50, True), (50, 101, True)]


def test_work_in_two_failing_here_leaves_no_child_behind() -> None:
    before = _children()

    def failing_here(start: int, end: int) -> dict[str, int]:
        if start == 0:
            raise ValueError("this half failed")
        time.sleep(5)
        return {}

    with pytest.raises(ValueError, match="this half failed"):
        in_two(failing_here, 100, dict[str, int], smallest=10)
    assert _children() == before
