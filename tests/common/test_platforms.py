"""The paths macOS and Windows take, each forced here on Linux: the same site, the same guarantees."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from sitegen.common import fsutil, platforms
from sitegen.content import loader
from sitegen.pipeline import parallel
from sitegen.pipeline.build import build
from sitegen.publish import search
from sitegen.publish.writer import staged

from ..site_factory import copy_site, tree_bytes

WINDOWS_OS = SimpleNamespace(O_RDONLY=0, O_WRONLY=1, O_CREAT=0x100, O_TRUNC=0x200, O_BINARY=0x8000, O_NOINHERIT=0x80)


def test_windows_opens_binary_and_uninherited_and_never_asks_for_flags_it_lacks() -> None:
    read, write = platforms.open_flags(WINDOWS_OS)
    assert read == 0x8000 | 0x80  # no O_NONBLOCK, no O_CLOEXEC: Windows has neither
    assert write == 1 | 0x100 | 0x200 | 0x8000 | 0x80


@pytest.mark.posix
def test_linux_reads_never_block_and_are_never_inherited() -> None:
    read, write = platforms.open_flags(os)
    assert read & os.O_NONBLOCK and read & os.O_CLOEXEC and write & os.O_CLOEXEC and not write & os.O_NONBLOCK


def test_a_site_builds_with_only_the_flags_every_system_has(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    plain = platforms.open_flags(SimpleNamespace(O_RDONLY=os.O_RDONLY, O_WRONLY=os.O_WRONLY, O_CREAT=os.O_CREAT,
                                                 O_TRUNC=os.O_TRUNC))
    monkeypatch.setattr(platforms, "READ_FLAGS", plain[0])
    monkeypatch.setattr(platforms, "WRITE_FLAGS", plain[1])
    root = copy_site(tmp_path / "site", papers=4)
    build(root, search=False)
    monkeypatch.undo()
    expected = copy_site(tmp_path / "expected", papers=4)
    build(expected, search=False)
    assert tree_bytes(root / "public") == tree_bytes(expected / "public")


# -- swapping two folders ----------------------------------------------------------------------------------------


class _Libc:
    """A C library as ctypes shows it: the calls it has, each recording its arguments."""

    def __init__(self, *names: str):
        self.calls: list[tuple[str, tuple[Any, ...]]] = []
        for name in names:
            setattr(self, name, self._recorder(name))

    def _recorder(self, name: str) -> Any:
        def call(*args: Any) -> int:
            self.calls.append((name, args))
            return 0
        return call


def test_macos_swaps_with_renamex_np_and_linux_with_renameat2() -> None:
    mac = _Libc("renamex_np")
    swap = platforms.native_swap("darwin", lambda: mac)
    assert swap is not None and swap(b"a", b"b") == 0
    assert mac.calls == [("renamex_np", (b"a", b"b", 2))]  # RENAME_SWAP
    linux = _Libc("renameat2")
    swap = platforms.native_swap("linux", lambda: linux)
    assert swap is not None and swap(b"a", b"b") == 0
    assert linux.calls == [("renameat2", (-100, b"a", -100, b"b", 2))]  # AT_FDCWD, RENAME_EXCHANGE


def test_no_swap_where_the_system_has_none() -> None:
    assert platforms.native_swap("win32", lambda: _Libc("renameat2", "renamex_np")) is None
    assert platforms.native_swap("linux", lambda: _Libc()) is None  # a C library older than renameat2
    assert platforms.native_swap("darwin", lambda: _Libc()) is None

    def unloadable() -> Any:
        raise OSError("no C library here")
    assert platforms.native_swap("linux", unloadable) is None


def test_without_a_swap_a_full_build_takes_two_renames_and_leaves_nothing(tmp_path: Path,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(platforms, "SWAP", None)
    assert fsutil.exchange(tmp_path, tmp_path) is False
    output = tmp_path / "public"
    for text in ("old", "new"):
        with staged(output) as stage:
            stage.write("index.html", text.encode())
        assert (output / "index.html").read_text() == text
        assert sorted(p.name for p in tmp_path.iterdir()) == ["public"]


def test_without_a_swap_the_search_index_is_replaced_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(platforms, "SWAP", None)
    root = copy_site(tmp_path / "site", papers=4)
    first = build(root)
    assert first.search is not None and first.search.ok
    entry = sorted((root / "content" / "papers").glob("*.md"))[0]
    entry.write_text(entry.read_text(encoding="utf-8") + "\nA remark no other entry makes.\n", encoding="utf-8")
    again = build(root)
    assert again.search is not None and again.search.ok and again.search.indexed == 1
    assert sorted(p.name for p in (root / "public").iterdir() if p.name.startswith(".pagefind")) == []
    assert search.bundle_size(root / "public" / search.BUNDLE) is not None


# -- hard links, fork, wait4 --------------------------------------------------------------------------------------


def test_a_file_system_without_hard_links_gets_the_bytes_written(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """FAT and exFAT drives, some network shares: the link to the last build's file fails, the page is written."""
    root = copy_site(tmp_path / "site", papers=4)
    build(root, search=False)
    config = root / "site.yaml"  # a settings edit: a full build, staged, which links every unchanged file
    config.write_text(config.read_text(encoding="utf-8").replace("title:", "title: Renamed", 1), encoding="utf-8")

    def refused(*_: object, **__: object) -> None:
        raise OSError(errno.EPERM, "hard links are not supported here")
    monkeypatch.setattr(os, "link", refused)
    result = build(root, search=False)
    monkeypatch.undo()
    assert result.unchanged == 0 and result.written > 0
    expected = copy_site(tmp_path / "expected", papers=4)
    (expected / "site.yaml").write_bytes(config.read_bytes())
    build(expected, search=False)
    assert tree_bytes(root / "public") == tree_bytes(expected / "public")


@pytest.mark.posix
def test_without_fork_a_large_build_renders_and_parses_in_one_process(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "PARALLEL_THRESHOLD", 1)
    monkeypatch.setattr(loader, "PARALLEL_PARSE", 1)
    forked = copy_site(tmp_path / "forked", papers=8)
    build(forked, search=False, jobs=2)
    monkeypatch.setattr(platforms, "FORK", False)

    def no_fork() -> int:
        raise AssertionError("forked where the platform has no fork")
    monkeypatch.setattr(os, "fork", no_fork)
    serial = copy_site(tmp_path / "serial", papers=8)
    build(serial, search=False, jobs=2)
    entry = sorted((serial / "content" / "papers").glob("*.md"))[0]
    entry.write_text(entry.read_text(encoding="utf-8") + "\nLater.\n", encoding="utf-8")
    build(serial, search=False, jobs=2)  # an update: its output check runs here, not in a child
    (forked / "content" / "papers" / entry.name).write_bytes(entry.read_bytes())
    monkeypatch.undo()
    build(forked, search=False, jobs=2)
    assert tree_bytes(serial / "public") == tree_bytes(forked / "public")


@pytest.mark.posix
def test_without_wait4_pagefind_is_waited_for_and_its_memory_not_said(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "wait4")
    root = copy_site(tmp_path / "site", papers=4)
    result = build(root)
    assert result.search is not None and result.search.ok and result.search.peak_kb == 0
    assert result.search.files > 2


def test_a_search_index_killed_between_its_two_renames_is_put_back(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """`search.refresh` without a swap renames the index aside, then the new one in; killed between the two, the
    next start puts the old index back rather than leave the site without search."""
    from sitegen.publish.writer import recover

    monkeypatch.setattr(platforms, "SWAP", None)
    root = copy_site(tmp_path / "site", papers=4)
    assert build(root).search is not None
    output = root / "public"
    before = tree_bytes(output / search.BUNDLE)
    (output / search.BUNDLE).rename(output / f".{search.BUNDLE}-old")  # the first rename, then the kill
    (output / f".{search.BUNDLE}-new").mkdir()  # the new index, whole or not: never trusted
    recover(output)
    assert tree_bytes(output / search.BUNDLE) == before
    assert sorted(p.name for p in output.iterdir() if p.name.startswith(".pagefind")) == []


EXIT_CODES = {1: 259, 2: 0}  # process id -> STILL_ACTIVE, an exit code


class _Kernel32:
    """Windows' answers for a few process ids: running, ended, gone, another user's."""

    def __init__(self) -> None:
        self.closed: list[int] = []

    def open(self, pid: int) -> tuple[int, int]:
        return (pid + 100, 0) if pid in EXIT_CODES else (0, 5 if pid == 4 else 87)  # ACCESS_DENIED, INVALID_PARAMETER

    def exit_code(self, handle: int) -> int | None:
        return EXIT_CODES[handle - 100]

    def close(self, handle: int) -> None:
        self.closed.append(handle)


def test_whether_a_process_runs_is_asked_without_signalling_it_on_windows() -> None:
    """`os.kill(pid, 0)` on Windows sends CTRL_C_EVENT: a leftover's owner is looked up through kernel32 instead."""
    k32 = _Kernel32()
    assert [platforms.process_alive(pid, windows=True, kernel32=k32) for pid in (1, 2, 3, 4)] == [
        True, False, False, True]
    assert k32.closed == [101, 102]
    assert platforms.process_alive(os.getpid(), windows=False)
