"""`python -m benchmarks.run`, with every deletion, rename and process start it makes written to a log.

Python's audit hooks (PEP 578) see each call of shutil.rmtree, os.remove, os.rmdir, os.rename and subprocess.Popen
made by the runner's process, so test_runner can check the order of what it really did: nothing deleted (and no
folder moved) until the last process (a timed build or the serve session) has been started.

    BENCH_AUDIT_LOG=events.jsonl python -m tests.benchmarks.audited_run --sizes 200 ...
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

EVENTS = {"shutil.rmtree": "delete", "os.remove": "delete", "os.rmdir": "delete", "os.rename": "move",
          "subprocess.Popen": "start"}


def main() -> int:
    log = open(os.environ["BENCH_AUDIT_LOG"], "w", encoding="utf-8")  # noqa: SIM115 (open until the process ends)

    def hook(event: str, args: tuple[Any, ...]) -> None:
        kind = EVENTS.get(event)
        if kind is None:
            return
        if kind == "start":
            record = {"kind": kind, "argv": [os.fsdecode(a) if isinstance(a, bytes | os.PathLike) else str(a)
                                             for a in (args[1] or [])]}
        else:
            dir_fd = args[1] if event in ("os.remove", "os.rmdir") else None  # -1: none (a path from the cwd)
            relative = isinstance(dir_fd, int) and dir_fd >= 0  # a name inside a folder being deleted
            path = os.fsdecode(args[0])
            # The hook runs before the call: whether there was anything to delete, or a folder to move (a file
            # renamed into place, as compileall writes bytecode, frees nothing)
            record = {"kind": kind, "event": event, "path": path, "relative_to_fd": relative,
                      "existed": relative or os.path.lexists(path), "folder": os.path.isdir(path)}
        log.write(json.dumps(record) + "\n")
        log.flush()

    sys.addaudithook(hook)
    from benchmarks.run import main as run

    return run(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
