"""What differs between Linux, macOS and Windows, decided in one place (see docs/platforms.md).

Linux gets the fast paths it has: forked workers, an atomic exchange of two folders
(`renameat2`), a parent-death signal for workers. macOS swaps with `renamex_np(RENAME_SWAP)`
and renders in one process (fork is unsafe there once system libraries start threads);
Windows does neither, and each caller falls back on a path with the same guarantees: one
process, and two renames a journal or the next start completes. Tests force each fallback
on Linux by setting these names.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

LINUX = sys.platform.startswith("linux")
MACOS = sys.platform == "darwin"

# Work done in forked processes (render workers, parse runs, the output check beside an update).
FORK = LINUX and hasattr(os, "fork")


def open_flags(system: Any = os) -> tuple[int, int]:
    """The flags of a read and of a write by descriptor: binary (Windows would translate line ends otherwise),
    not inherited by children, and a read that never blocks on a FIFO; each where the system has it."""
    extra = 0
    for name in ("O_BINARY", "O_NOINHERIT", "O_CLOEXEC"):
        extra |= getattr(system, name, 0)
    read = system.O_RDONLY | extra | getattr(system, "O_NONBLOCK", 0)
    write = system.O_WRONLY | system.O_CREAT | system.O_TRUNC | extra
    return read, write


READ_FLAGS, WRITE_FLAGS = open_flags()

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2  # linux/fs.h
_RENAME_SWAP = 2  # macOS stdio.h


def _libc() -> Any:
    import ctypes

    return ctypes.CDLL(None, use_errno=True)


def native_swap(platform: str = sys.platform, libc: Callable[[], Any] = _libc) -> Callable[[bytes, bytes], int] | None:
    """The system call that exchanges two paths in one step, as `call(a, b) -> 0 or -1 (errno set)`; None where
    there is none (Windows, an old C library)."""
    try:
        if platform.startswith("linux"):
            renameat2 = getattr(libc(), "renameat2", None)
            if renameat2 is not None:
                return lambda a, b: int(renameat2(_AT_FDCWD, a, _AT_FDCWD, b, _RENAME_EXCHANGE))
        elif platform == "darwin":
            renamex_np = getattr(libc(), "renamex_np", None)
            if renamex_np is not None:
                return lambda a, b: int(renamex_np(a, b, _RENAME_SWAP))
    except (OSError, TypeError):  # no C library to load this way
        return None
    return None


_UNKNOWN: Any = object()
SWAP: Any = _UNKNOWN  # the system's swap, looked up on first use (loading the C library costs every run a little)


def swap() -> Callable[[bytes, bytes], int] | None:
    """`native_swap()` of this system, once; a test sets SWAP to None to force the two-rename path."""
    global SWAP
    if SWAP is _UNKNOWN:
        SWAP = native_swap()
    return SWAP  # type: ignore[no-any-return]


def errno_now() -> int:
    import ctypes

    return ctypes.get_errno()


_STILL_ACTIVE = 259
_PROCESS_QUERY_LIMITED_INFORMATION = 0x1000
_ERROR_ACCESS_DENIED = 5


class Kernel32:
    """The three calls of Windows' kernel32 that tell whether a process runs."""

    def __init__(self) -> None:
        import ctypes

        self._ctypes = ctypes
        self._dll = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]

    def open(self, pid: int) -> tuple[int, int]:
        """(a handle, 0), or (0, the error code)."""
        handle = self._dll.OpenProcess(_PROCESS_QUERY_LIMITED_INFORMATION, False, pid)
        return (handle, 0) if handle else (0, self._ctypes.get_last_error())  # type: ignore[attr-defined]

    def exit_code(self, handle: int) -> int | None:
        code = self._ctypes.c_ulong()
        return code.value if self._dll.GetExitCodeProcess(handle, self._ctypes.byref(code)) else None

    def close(self, handle: int) -> None:
        self._dll.CloseHandle(handle)


def process_alive(pid: int, windows: bool = os.name == "nt", kernel32: Kernel32 | None = None) -> bool:
    """Whether process `pid` is running. POSIX asks with signal 0; on Windows `os.kill(pid, 0)` would send
    CTRL_C_EVENT to it, so the process is opened and its exit code read instead."""
    if not windows:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except OSError:  # there, but another user's
            return True
        return True
    k32 = kernel32 or Kernel32()
    handle, error = k32.open(pid)
    if not handle:
        return error == _ERROR_ACCESS_DENIED  # there, but another user's
    try:
        return k32.exit_code(handle) == _STILL_ACTIVE
    finally:
        k32.close(handle)
