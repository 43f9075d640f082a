"""Work done in a forked child process while this one goes on.

A build has two such jobs: checking that the output holds what the last build wrote
(64,672 stat calls at 10,000 papers, beside restoring the entries) and saving the
entry cache and notes records (beside rendering). A thread would not overlap them:
both hold the GIL most of the time.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Callable


class Forked:
    """`work()` run in a forked child; `result()` waits for the child, once, and gives its answer.

    Without fork, if the fork fails, or with `beside=False` (nothing to do meanwhile),
    `work` runs here and now. A child that raises answers False. The child leaves with
    `os._exit`: it runs none of this process's exit handlers and flushes none of its buffers.
    """

    def __init__(self, work: Callable[[], bool], beside: bool = True):
        self._answer: bool | None = None
        self.pid = 0  # the child, 0 when the work ran here
        self._pipe = -1
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
            if pid == 0:  # the child: answer one byte, then leave
                answer = False
                try:
                    gc.disable()  # a collection would touch, and so copy, every page it shares with the parent
                    os.close(read_end)
                    answer = bool(work())
                finally:
                    os.write(write_end, b"1" if answer else b"0")
                    os._exit(0)
            if pid > 0:
                os.close(write_end)
                self.pid, self._pipe = pid, read_end
                return
        self._answer = bool(work())

    def result(self) -> bool:
        """The work's answer (waits for the child the first time)."""
        if self._answer is None:
            with os.fdopen(self._pipe, "rb") as pipe:
                self._answer = pipe.read(1) == b"1"
            os.waitpid(self.pid, 0)
        return self._answer
