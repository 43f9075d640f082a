"""Work done in a forked child process while this one goes on.

A build has two such jobs: checking that the output holds what the last build wrote
(83,000 stat calls at 10,000 papers, beside the engine's update), and saving the entry
cache (beside rendering). A thread would not overlap them: both hold the GIL most of the time.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import tempfile
from collections.abc import Callable
from typing import Any, TypeVar

import msgspec

from . import platforms
from .fsutil import write_all


class ForkedBytes:
    """`work()` run in a forked child; `result()` waits for the child, once, and gives the bytes it returned.

    Without fork, if the fork fails, or with `beside=False` (nothing to do meanwhile),
    `work` runs here and now, and what it raises is raised. A child that raises, or dies,
    answers None. The child writes its answer to an anonymous file, not a pipe: a pipe holds
    64 KB, and a thread reading megabytes from it gets the GIL only between this process's
    own steps (an edit's 5.6 MB of pages took the child 0.15 s to hand over that way). The
    child leaves with `os._exit`: it runs none of this process's exit handlers and flushes
    none of its buffers.
    """

    def __init__(self, work: Callable[[], bytes], beside: bool = True):
        self._answer: bytes | None = None
        self._done = False
        self.pid = 0  # the child, 0 when the work ran here
        self._file = -1
        if beside and platforms.FORK:
            pid = -1
            try:
                self._file = anonymous_file()
                pid = os.fork()
            except OSError:  # no descriptors or processes left: work here
                self._close()
            if pid == 0:  # the child: answer, then leave
                status = 1
                try:
                    gc.disable()  # a collection would touch, and so copy, every page it shares with the parent
                    write_all(self._file, work())
                    status = 0
                finally:
                    os._exit(status)
            if pid > 0:
                self.pid = pid
                return
        self._answer, self._done = work(), True

    def cancel(self) -> None:
        """Stop a child whose answer is no longer wanted, and reap it; `result()` is then None."""
        if self._done:
            return
        if self.pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            self._close()
        self._answer, self._done = None, True

    def result(self) -> bytes | None:
        """What the work returned (waits for the child the first time); None if the child failed."""
        if not self._done:
            _, status = os.waitpid(self.pid, 0)
            try:
                if os.waitstatus_to_exitcode(status) == 0:
                    self._answer = os.pread(self._file, os.fstat(self._file).st_size, 0)
            finally:
                self._close()
            self._done = True
        return self._answer

    def _close(self) -> None:
        if self._file >= 0:
            os.close(self._file)
            self._file = -1


class Forked(ForkedBytes):
    """A forked job answering yes or no: `result()` is False when the work said so or raised in the child."""

    def __init__(self, work: Callable[[], bool], beside: bool = True):
        super().__init__(lambda: b"1" if work() else b"0", beside)

    def result(self) -> bool:  # type: ignore[override]
        return super().result() == b"1"


def anonymous_file() -> int:
    """A file with no name, in memory where the system allows (a child's answer, the numbers of parse runs)."""
    if hasattr(os, "memfd_create"):
        with contextlib.suppress(OSError):
            return os.memfd_create("sitegen-answer", os.MFD_CLOEXEC)
    fd, path = tempfile.mkstemp(prefix="sitegen-answer-")
    os.unlink(path)
    return fd


_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """In a forked worker: be killed when `parent` dies, rather than wait forever for its next word.

    Linux's PR_SET_PDEATHSIG where there is one; a parent already gone by now is caught by
    comparing the parent's id, which then is another process's.
    """
    if platforms.LINUX:
        with contextlib.suppress(OSError, AttributeError):
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


T = TypeVar("T")
Part = Callable[[int, int], dict[str, T]]  # the results of the items from one place to another, in their order
SPLIT_FROM = 2_000  # fewer items are worked out here: a fork and its answer cost more than half of them


def in_two(work: Part[T], count: int, answer: Any, smallest: int | None = None) -> dict[str, T]:
    """`work(0, count)`, its second half worked out in a forked child meanwhile (the neighbours and related lists
    of a whole list, one core each); the child's results cross as msgpack, decoded as `answer`. The result is
    the whole computation's, in its order; if the child fails, its half is worked out here. Fewer items than
    `smallest` (`SPLIT_FROM`) are all worked out here."""
    if count < (SPLIT_FROM if smallest is None else smallest) or not platforms.FORK:
        return work(0, count)
    middle = count // 2
    child = ForkedBytes(lambda: msgspec.msgpack.encode(work(middle, count)))
    try:
        mine = work(0, middle)
    except BaseException:
        child.cancel()  # stopped and reaped, not left behind
        raise
    data = child.result()
    try:
        theirs: dict[str, T] = msgspec.msgpack.decode(data, type=answer) if data is not None else work(middle, count)
    except msgspec.DecodeError:
        theirs = work(middle, count)
    return {**mine, **theirs}
