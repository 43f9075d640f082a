"""A build killed at any moment: `public/` is a whole site, old or new, and the next start leaves nothing behind.

Each build runs in a child process whose renames (os.replace, os.rename and the atomic
exchange) and memo rows written are counted; the child kills itself with SIGKILL just before
the N-th one, for every N a complete run makes that touches the output, for the first, middle
and last of the rows of the engine's memo (written in one SQLite transaction, or into a new
file renamed over the old one), and at random moments besides.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sitegen.content.cache import CACHE_DIR
from sitegen.publish.writer import recover

from ..site_factory import copy_site, tree_bytes

pytestmark = pytest.mark.posix  # SIGKILL at chosen moments

PAPERS = 4

# Run in the child: sitegen's command line, killed just before rename number $KILL_AT (0: never).
# Each rename's source name is added to $COUNT_FILE as it comes, so a complete run tells how many there are.
INTERPOSER = """
import os, signal, sys
kill_at = int(os.environ["KILL_AT"])
count_file = os.environ["COUNT_FILE"]
seen = [0]
def counted(call):
    def wrapped(*args, **kwargs):
        if os.getpid() == parent:  # forked helpers (cache savers) are not the build
            seen[0] += 1
            with open(count_file, "a") as out:
                out.write(os.fsdecode(args[0]) + "\\n")
            if seen[0] == kill_at:
                os.kill(os.getpid(), signal.SIGKILL)
        return call(*args, **kwargs)
    return wrapped
parent = os.getpid()
os.replace, os.rename = counted(os.replace), counted(os.rename)
import sitegen.common.fsutil, sitegen.publish.search, sitegen.publish.writer, sitegen.pipeline.engine.store as store
if os.environ.get("NO_SWAP"):  # as on Windows: no atomic exchange of two folders, two renames instead
    import sitegen.common.platforms
    sitegen.common.platforms.SWAP = None
sitegen.publish.writer.exchange = sitegen.publish.search.exchange = counted(sitegen.common.fsutil.exchange)
row = store.DiskMemo._row
store.DiskMemo._row = lambda memo, key, record: counted(lambda *_: row(memo, key, record))(
    os.fsdecode(memo.folder / "row"))
from sitegen.cli import run
sys.argv = ["sitegen", *sys.argv[1:]]
run()
"""


SLOW_WORKERS = """
import time, sitegen.pipeline.parallel as parallel
parallel.PARALLEL_THRESHOLD = 1
render_chunk = parallel._render_chunk
def slow(specs):
    time.sleep(30)
    return render_chunk(specs)
parallel._render_chunk = slow
from sitegen.cli import run
run()
"""


def _sitegen(root: Path, kill_at: int = 0, *args: str) -> tuple[int, int]:
    """`sitegen build` of `root` in a child; its exit status and how many renames it reached."""
    count = root.parent / f"{root.name}.renames"
    count.write_text("")
    env = os.environ | {"KILL_AT": str(kill_at), "COUNT_FILE": str(count)} | EXTRA_ENV
    run = subprocess.run([sys.executable, "-c", INTERPOSER, "build", "--root", str(root), "--no-search", *args],
                         env=env, capture_output=True, text=True, timeout=120, check=False)
    assert "Traceback" not in run.stderr, run.stderr
    return run.returncode, len(_renamed_paths(root))


EXTRA_ENV: dict[str, str] = {}  # set by a test for its children


def _renamed_paths(root: Path) -> list[str]:
    """The source names of the renames the last `_sitegen` of `root` made."""
    return [os.path.basename(path) for path in (root.parent / f"{root.name}.renames").read_text().splitlines()]


def _kill_points(root: Path) -> list[int]:
    """Which renames of the last `_sitegen` of `root` to kill the build before (numbered from 1): the first and last
    four of the output's and two from their middle, and the first, middle and last of the memo's. The renames
    between an update's first and last few are alike (one page each, under the same journal), so a kill before
    each of them would test the same thing a hundred times."""
    paths = (root.parent / f"{root.name}.renames").read_text().splitlines()
    memo = [n for n, path in enumerate(paths, 1) if f"/{CACHE_DIR}/" in path]
    output = [n for n in range(1, len(paths) + 1) if n not in memo]
    middle = len(output) // 2
    return sorted(set(output[:4] + output[middle - 1:middle + 1] + output[-4:]
                      + memo[:1] + memo[len(memo) // 2:][:1] + memo[-1:]))


def _leftovers(root: Path) -> list[str]:
    beside = [p.name for p in root.iterdir() if p.name.startswith(".public.")]
    inside = [p.relative_to(root).as_posix() for p in (root / "public").rglob("*")
              if p.name.endswith(".tmp") or p.name.startswith(".pagefind-")]
    return beside + inside


def _edit_title(root: Path) -> None:
    entry = sorted((root / "content" / "papers").glob("*.md"))[1]
    entry.write_text(entry.read_text(encoding="utf-8").replace("\ntitle: ", "\ntitle: Revisited ", 1),
                     encoding="utf-8")


def _edit_notes(root: Path) -> None:
    for entry in sorted((root / "content" / "papers").glob("*.md"))[:2]:
        entry.write_text(entry.read_text(encoding="utf-8") + "\nA new remark, added later.\n", encoding="utf-8")


def _edit_settings(root: Path) -> None:
    config = root / "site.yaml"
    config.write_text(config.read_text(encoding="utf-8").replace("title:", "title: Renamed", 1), encoding="utf-8")


EDITS = {"full build": _edit_settings, "entry edit in place": _edit_title, "notes edit in place": _edit_notes}


def _scenario(base: Path, edit: str) -> tuple[Path, dict[str, bytes], dict[str, bytes]]:
    """A built site about to be edited (kept aside), the output before and the output of a clean build after.

    Each try copies it back to the same place, `base/site`, where it was built: a build
    state names the output folder, so a copy elsewhere would make every try a full build.
    """
    site = copy_site(base / "site", PAPERS)
    assert _sitegen(site)[0] == 0
    old = tree_bytes(site / "public")
    clean = base / "clean"
    shutil.copytree(site, clean, symlinks=True)
    EDITS[edit](clean)
    shutil.rmtree(clean / "public")
    shutil.rmtree(clean / ".sitegen-cache")
    assert _sitegen(clean)[0] == 0
    site.rename(base / "before")
    return base / "before", old, tree_bytes(clean / "public")


def _killed_copy(base: Path, before: Path, edit: str) -> Path:
    root = base / "site"
    if root.exists():
        shutil.rmtree(root)
    shutil.copytree(before, root, symlinks=True)
    EDITS[edit](root)
    return root


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_build_killed_before_any_rename_leaves_a_whole_site_and_no_leftovers(tmp_path: Path, edit: str) -> None:
    before, old, new = _scenario(tmp_path, edit)
    probe = _killed_copy(tmp_path, before, edit)
    status, renames = _sitegen(probe)
    assert status == 0 and tree_bytes(probe / "public") == new
    assert renames >= 2
    if edit != "full build":  # an update in place: the journal and no staging folder
        assert not any(name.startswith(".public.build-") for name in _renamed_paths(probe))
    for kill_at in _kill_points(probe):
        root = _killed_copy(tmp_path, before, edit)
        status, reached = _sitegen(root, kill_at)
        assert status == -signal.SIGKILL and reached == kill_at
        recover(root / "public")  # what the next start does first
        assert tree_bytes(root / "public") in (old, new), f"a mixed site after a kill at rename {kill_at}"
        assert _leftovers(root) == []
        assert _sitegen(root)[0] == 0, f"the build after a kill at rename {kill_at} failed"
        assert tree_bytes(root / "public") == new
        assert _leftovers(root) == []


def test_builds_killed_at_random_moments_are_repaired_by_the_next(tmp_path: Path) -> None:
    before, old, new = _scenario(tmp_path, "full build")
    chance = random.Random(35)
    for _ in range(4):
        root = _killed_copy(tmp_path, before, "full build")
        child = subprocess.Popen([sys.executable, "-c", "from sitegen.cli import run; run()", "build", "--root",
                                  str(root), "--no-search", "--jobs", "2"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(chance.uniform(0.05, 0.6))
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
        assert tree_bytes(root / "public") in (old, new)
        assert _sitegen(root)[0] == 0
        assert tree_bytes(root / "public") == new and _leftovers(root) == []


def test_leftovers_of_a_running_build_are_left_alone(tmp_path: Path) -> None:
    output = tmp_path / "public"
    output.mkdir()
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        mine = tmp_path / f".public.build-{sleeper.pid}-abc"
        dead = tmp_path / ".public.build-999999999-abc"
        mine.mkdir()
        dead.mkdir()
        (output / ".pagefind-new").mkdir()
        recover(output)
        assert mine.is_dir() and not dead.exists() and not (output / ".pagefind-new").exists()
    finally:
        sleeper.kill()
        sleeper.wait()


def test_render_workers_exit_when_the_build_is_killed(tmp_path: Path) -> None:
    """A build forking render workers, killed while they render (slowly: each chunk waits 30 s first):
    none of them is left behind."""
    root = copy_site(tmp_path / "site", PAPERS)
    child = subprocess.Popen([sys.executable, "-c", SLOW_WORKERS, "build", "--root", str(root), "--no-search",
                              "--jobs", "2"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while time.monotonic() < deadline and len(workers) < 2:
        workers = _children(child.pid)
        time.sleep(0.02)
    assert len(workers) >= 2, "the build forked no render workers"
    time.sleep(0.5)
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=30)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
        time.sleep(0.05)
    assert not [pid for pid in workers if _alive(pid)]


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


DYING_WORKER = """
import os, sitegen.pipeline.parallel as parallel
parallel.PARALLEL_THRESHOLD = 1
parallel._render_chunk = lambda specs: os._exit(9)
from sitegen.cli import run
run()
"""


def test_a_render_worker_that_dies_is_an_error_and_the_previous_site_stays(tmp_path: Path) -> None:
    root = copy_site(tmp_path / "site", PAPERS)
    assert _sitegen(root)[0] == 0
    before = tree_bytes(root / "public")
    _edit_settings(root)
    run = subprocess.run([sys.executable, "-c", DYING_WORKER, "build", "--root", str(root), "--no-search",
                          "--jobs", "2"], capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert ".: error[E510]: a render worker exited unexpectedly (exit code 9)" in run.stderr
    assert tree_bytes(root / "public") == before and _leftovers(root) == []


def test_builds_run_at_once_leave_a_memo_the_next_build_is_right_with(tmp_path: Path) -> None:
    """Two `sitegen build`s of one site at the same moment (a build beside a scheduled one): each writes
    its memo in a transaction of its own, and whatever mix they leave, the next build equals a clean one."""
    before, _, new = _scenario(tmp_path, "entry edit in place")
    root = _killed_copy(tmp_path, before, "entry edit in place")
    command = [sys.executable, "-c", "from sitegen.cli import run; run()", "build", "--root", str(root), "--no-search"]
    builds = [subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
              for _ in range(2)]
    _edit_notes(root)  # and an edit while they run
    for build in builds:
        _, errors = build.communicate(timeout=120)
        assert "Traceback" not in errors
    assert _sitegen(root)[0] == 0
    clean = tmp_path / "clean-after"
    shutil.copytree(root, clean, symlinks=True, ignore=shutil.ignore_patterns(CACHE_DIR, "public"))
    assert _sitegen(clean)[0] == 0
    assert tree_bytes(root / "public") == tree_bytes(clean / "public") != new


def test_a_full_build_without_an_atomic_swap_killed_at_each_rename_leaves_a_whole_site(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Windows has no exchange of two folders: the old output is renamed aside, then the new one in. A kill between
    the two leaves no `public/` at all for a moment; the next start puts the old one back, and builds the new."""
    monkeypatch.setitem(globals(), "EXTRA_ENV", {"NO_SWAP": "1"})
    before, old, new = _scenario(tmp_path, "full build")
    probe = _killed_copy(tmp_path, before, "full build")
    status, renames = _sitegen(probe)
    assert status == 0 and tree_bytes(probe / "public") == new
    assert any(name.startswith("public") for name in _renamed_paths(probe)), "the output renamed aside"
    for kill_at in range(1, renames + 1):
        if "/.sitegen-cache/" in (probe.parent / f"{probe.name}.renames").read_text().splitlines()[kill_at - 1]:
            continue  # the memo's rows: the kills of the test above
        root = _killed_copy(tmp_path, before, "full build")
        status, reached = _sitegen(root, kill_at)
        assert status == -signal.SIGKILL and reached == kill_at
        recover(root / "public")
        assert tree_bytes(root / "public") in (old, new), f"no whole site after a kill at rename {kill_at}"
        assert _leftovers(root) == []
        assert _sitegen(root)[0] == 0 and tree_bytes(root / "public") == new
        assert _leftovers(root) == []
