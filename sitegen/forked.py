"""Work done in a forked child process while this one goes on.

A build has three such jobs: checking that the output holds what the last build wrote
(64,672 stat calls at 10,000 papers, beside restoring the entries), saving the entry
cache, notes records and model (beside rendering), and, in a front-matter edit, rendering
the pages that list the edited papers while this process joins the whole-list files.
A thread would not overlap them: all hold the GIL most of the time.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import threading
from collections.abc import Callable


class ForkedBytes:
    """`work()` run in a forked child; `result()` waits for the child, once, and gives the bytes it returned.

    Without fork, if the fork fails, or with `beside=False` (nothing to do meanwhile),
    `work` runs here and now, and what it raises is raised. A child that raises answers
    None. With `streamed`, a thread reads the child's answer as it is written (a pipe holds
    64 KB), so a child with megabytes to say never waits for this process; without, the
    answer is read by `result()`, and this process starts no thread (a process with threads
    should not fork again). The child leaves with `os._exit`: it runs none of this
    process's exit handlers and flushes none of its buffers.
    """

    def __init__(self, work: Callable[[], bytes], beside: bool = True, streamed: bool = True):
        self._answer: bytes | None = None
        self._done = False
        self.pid = 0  # the child, 0 when the work ran here
        self._chunks: list[bytes] = []
        self._pipe = -1
        self._reader: threading.Thread | None = None
        if beside and hasattr(os, "fork"):
            pid = -1
            try:
                read_end, write_end = os.pipe()
            except OSError:  # no descriptors left: work here
                read_end = write_end = -1
            if read_end >= 0:
                try:
                    pid = os.fork()
                except OSError:
                    os.close(read_end)
                    os.close(write_end)
            if pid == 0:  # the child: answer, then leave
                try:
                    gc.disable()  # a collection would touch, and so copy, every page it shares with the parent
                    os.close(read_end)
                    _write_all(write_end, b"\x01" + work())
                finally:
                    os._exit(0)
            if pid > 0:
                os.close(write_end)
                self.pid, self._pipe = pid, read_end
                if streamed:
                    self._reader = threading.Thread(target=self._read, daemon=True)
                    self._reader.start()
                return
        self._answer, self._done = work(), True

    def _read(self) -> None:
        with os.fdopen(self._pipe, "rb") as handle:
            while chunk := handle.read(1 << 20):
                self._chunks.append(chunk)

    def cancel(self) -> None:
        """Stop a child whose answer is no longer wanted, and reap it; `result()` is then None."""
        if self._done:
            return
        if self.pid:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            if self._reader is None:
                os.close(self._pipe)
            else:
                self._reader.join()  # the pipe reads as ended, and the reader closes it
        self._chunks.clear()
        self._answer, self._done = None, True

    def result(self) -> bytes | None:
        """What the work returned (waits for the child the first time); None if the child failed."""
        if not self._done:
            if self._reader is None:
                self._read()
            else:
                self._reader.join()
            os.waitpid(self.pid, 0)
            data = b"".join(self._chunks)
            self._chunks.clear()
            self._answer = data[1:] if data[:1] == b"\x01" else None
            self._done = True
        return self._answer


class Forked(ForkedBytes):
    """A forked job answering yes or no: `result()` is False when the work said so or raised in the child.

    Its answer is one byte, which a pipe always holds: it is read by `result()`, no thread waits for it.
    """

    def __init__(self, work: Callable[[], bool], beside: bool = True):
        super().__init__(lambda: b"1" if work() else b"0", beside, streamed=False)

    def result(self) -> bool:  # type: ignore[override]
        return super().result() == b"1"


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
