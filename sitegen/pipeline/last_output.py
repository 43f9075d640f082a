"""The output as the last build or update left it: its plan and static files, as the memo holds them.

Decoded when first asked for: a rebuild that changes nothing never asks, and the plan of
56,000 files at 10,000 papers took a tenth of it. Whether the plan moved is told by its
fingerprint, so an update that moves no page (a notes edit) compares no plan.
"""

from __future__ import annotations

from pathlib import Path

from .engine.graph import Engine
from .engine.memo import ABSENT
from .steps.outputs import PageKey


class LastOutput:
    """The plan (each output's page key, by path) and static files (by name) the output was last written from."""

    def __init__(self, engine: Engine):
        self._engine = engine
        self._plan: dict[str, PageKey] | None = None
        self._static: dict[str, Path] | None = None
        self._seen: int | None = None  # the fingerprint of the plan `_plan` was made from

    @property
    def plan(self) -> dict[str, PageKey]:
        if self._plan is None:
            plan = self._engine.memoized("plan")
            self._plan = {} if plan is ABSENT else {row[0]: row for row in plan}
            self._seen = self._fingerprint()
        return self._plan

    @plan.setter
    def plan(self, plan: dict[str, PageKey]) -> None:
        self._plan = plan
        self._seen = self._fingerprint()

    @property
    def static(self) -> dict[str, Path]:
        if self._static is None:
            static = self._engine.memoized("static")
            self._static = {} if static is ABSENT else static
        return self._static

    @static.setter
    def static(self, static: dict[str, Path]) -> None:
        self._static = static

    def read(self) -> None:
        """Decode both now: an update is about to remake them in the memo."""
        _ = self.plan, self.static

    def plan_moved(self) -> bool:
        """Whether the memo's plan is not the one `plan` holds (or `plan` was never read)."""
        return self._plan is None or self._seen is None or self._fingerprint() != self._seen

    def _fingerprint(self) -> int | None:
        record = self._engine.memo.get(("plan", None))
        return None if record is None else record.fingerprint
