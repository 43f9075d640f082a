"""The incremental engine: memoized steps, reads recorded as they happen, early cutoff.

A step is a function of a context and one argument. It reads other steps' results only
through `Context.get`, which records each read with the fingerprint it saw. A memo stays
valid while every read it recorded would still see the same fingerprint (a verifying
trace, as Shake and Salsa keep); a step that re-runs and gives an equal fingerprint
leaves its readers valid (early cutoff), so the wave of work stops there.

Steps have levels and read only lower ones. An update is pushed, not pulled: from the
inputs named changed it follows the recorded readers upward, level by level, each key
settled once, so a rebuild touches what an edit reaches and never looks at the rest of
a 64,000-page memo. Nothing lists a step's dependencies by hand.
"""

from __future__ import annotations

import heapq
from array import array
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .memo import ABSENT, Key, Memo, Record, fingerprint_of, key_id, make_record

Fingerprint = Callable[[Any], str | bytes]  # text of which the memo keeps a digest
_UNREAD = object()  # a context's previous result, not decoded yet


class StepError(Exception):
    """A step broke the engine's rules (read a step at its own level or above, or an unknown step)."""


@dataclass(frozen=True)
class Step:
    """One kind of memoized work: `run(ctx, argument)`, at a level above every step it reads.

    An input step reads the world (a file, a folder's listing) and no other step; it runs
    again when an update names its key. `keep=False` memoizes only the fingerprint, for
    results too large to hold (a page's bytes go to the writer, not the memo).
    """

    name: str
    level: int
    run: Callable[[Context, Any], Any]
    fingerprint: Fingerprint
    keep: bool = True
    input: bool = False
    # Given a changed result's old and new value, which of its readers it can have changed
    # (None: all). A step that knows its own delta (the model's patch) spares the readers
    # of what it left as it was, rather than each of 30,000 being run to find that out.
    spread: Callable[[Any, Any], Callable[[Key], bool] | None] | None = None
    # Whether a re-run reads again most of what it read last time (a page: its items, a sitemap's 10,000 dates),
    # so that a memo on disk fetches those records in one query first rather than one query each.
    rereads: bool = False


@dataclass
class Update:
    """What one update did: the keys that ran, those whose fingerprint changed, and their new values."""

    ran: list[Key] = field(default_factory=list)
    changed: list[Key] = field(default_factory=list)
    values: dict[Key, Any] = field(default_factory=dict)  # every key that ran, its result
    deferred: list[Key] = field(default_factory=list)  # keys due to run, left for whoever asks for them


class Context:
    """What a running step reads through: each read is recorded (id) with the fingerprint seen."""

    __slots__ = ("_before", "_engine", "_frame", "_key", "_level", "_moved", "_previous", "_records", "_steps",
                 "reads", "undo")

    def __init__(self, engine: Engine, level: int, key: Key, before: Record | None = None):
        self._engine, self._level, self._before, self._steps = engine, level, before, engine._steps
        self._records = engine.memo.records
        self.reads: dict[int, int] = {}
        # The step's last result (ABSENT if none is kept) and what it read then that has since
        # changed (`moved`): a step may update its last result rather than start again (the model delta).
        self._key, self._previous = key, _UNREAD
        self._moved: frozenset[int] | None = None
        self.undo: list[Callable[[], object]] = []  # run if the update fails: a delta done in place is undone
        self._frame: dict[str, Any] | None = None

    @property
    def previous(self) -> Any:
        """The step's last result (ABSENT if none is kept), decoded when first asked for: a step that starts
        again from nothing never pays for it (a model of 10,000 papers, when a paper came)."""
        if self._previous is _UNREAD:
            before = self._before
            self._previous = ABSENT if before is None else self._engine._value(self._key, before)
        return self._previous

    def _moved_ids(self) -> frozenset[int]:
        if self._moved is None:
            before = self._before
            fingerprints = self._engine.memo.fingerprints
            self._moved = frozenset() if before is None else frozenset(
                r for r, seen in before.pairs() if fingerprints.get(r) != seen)
        return self._moved

    @property
    def moved(self) -> frozenset[Key]:
        """What the last run read that has since changed (worked out when asked: 40,000 reads of a whole list).

        A read whose record is gone is given as ("", id): no step has that name."""
        ids = self._moved_ids()
        keys = self._engine.memo.keys_of(ids)
        return frozenset(keys.get(i, ("", i)) for i in ids)

    def carry(self) -> None:
        """Record again every read of the last run that has not moved: a step updating its previous
        result reads only what moved, yet still depends on all the rest."""
        moved = self._moved_ids()
        if self._before is not None:
            for read, seen in self._before.pairs():
                if read not in moved:
                    self.reads.setdefault(read, seen)

    def preload(self, name: str, arguments: Iterable[Hashable]) -> None:
        """Say that this step is about to read step `name` for each of `arguments`: a memo on disk reads
        their records in one query, not one each (nothing is recorded as read until it is read)."""
        self._engine.memo.load_many([(name, argument) for argument in arguments])

    def use_frame(self, values: dict[str, Any]) -> None:
        """From now on, read these steps (those of no argument) from `values`, which this step has read as one
        (a page's frame: what every page reads, recorded once, as Salsa groups inputs that rarely change)."""
        self._frame = values

    def get(self, name: str, argument: Hashable = None, keep: bool = True) -> Any:
        """The result of step `name` for `argument`, recorded as read; `keep=False` for a large value read once,
        which, decoded from the memo's saved form, is not kept decoded (a whole-list file's runs: 150 MB)."""
        if self._frame is not None and argument is None and name in self._frame:
            return self._frame[name]
        key = (name, argument)
        step = self._steps.get(name)
        if step is None or step.level >= self._level:
            self._engine.step(name)  # no such step: says so
            raise StepError(f"a step at level {self._level} read {name!r} at level {step.level}: "  # type: ignore[union-attr]
                            "steps read only lower levels")
        record = self._records.get(key)
        if record is not None and record.value is not ABSENT:  # the common case, inline: 140,000 reads at 1,000 papers
            self.reads[record.id] = record.fingerprint
            return record.value
        value, record = self._engine.demand(key, keep)
        self.reads[record.id] = record.fingerprint
        return value


class Engine:
    """Memoized steps over a memo that may come from an earlier process (see memo.py)."""

    def __init__(self, steps: Iterable[Step], memo: Memo | None = None):
        self._steps = {s.name: s for s in steps}
        self.memo = memo if memo is not None else Memo()
        self._journal: dict[Key, Record | None] | None = None
        self._undo: list[Callable[[], object]] | None = None
        self._update: Update | None = None

    def step(self, name: str) -> Step:
        try:
            return self._steps[name]
        except KeyError:
            raise StepError(f"no step named {name!r}") from None

    def get(self, name: str, argument: Hashable = None) -> Any:
        """The result for one key, made now if the memo has none (a read from outside, not recorded)."""
        return self._transaction(lambda: self.demand((name, argument))[0])

    def memoized(self, name: str, argument: Hashable = None) -> Any:
        """The value the memo holds for one key, made nowhere (ABSENT if it holds none)."""
        key = (name, argument)
        record = self.memo.get(key)
        return ABSENT if record is None else self._value(key, record)

    def update(self, changed: Iterable[Key], defer: Callable[[Key], bool] | None = None) -> Update:
        """Bring the memo up to date after the inputs `changed` may have changed in the world.

        Each named input runs again; where its fingerprint moved, its recorded readers are
        verified in level order and re-run only if something they read now differs. All or
        nothing: a step that raises leaves the memo as it was before the update.
        A key that no step reads and `defer` picks is not run but dropped from the memo and
        listed in `Update.deferred`: the preview writes such pages after the browser reloads.
        """
        update = Update()

        def run() -> Update:
            memo = self.memo
            pending: list[tuple[int, int, Key]] = []
            queued: set[Key] = set()
            count = 0
            unreached: list[tuple[list[Key], int, Record]] = []  # readers a change was spread past, its old
            # fingerprint, and the change
            for key in changed:
                step = self.step(key[0])
                if not step.input:
                    raise StepError(f"{key!r} is no input: only inputs change from outside")
                if key not in queued and memo.get(key) is not None:
                    queued.add(key)
                    heapq.heappush(pending, (step.level, count, key))
                    count += 1
            while pending:
                _, _, key = heapq.heappop(pending)
                record = memo.get(key)
                if record is None:
                    continue  # forgotten meanwhile
                if not self.step(key[0]).input and self._verified(record):
                    continue  # what it read moved and came back, or was cut off below
                if defer is not None and defer(key) and not memo.readers_of(record.id):
                    if self._journal is not None and key not in self._journal:
                        self._journal[key] = record
                    memo.drop(key)
                    update.deferred.append(key)
                    continue
                new, _ = self._run(key, record)
                if new.fingerprint == record.fingerprint:
                    continue  # early cutoff: its readers saw this fingerprint
                spread = self.step(key[0]).spread
                reached = spread(self._value(key, record), new.value) if spread is not None else None
                # any order: a level settles whole before the next
                spared: list[Key] = []
                for reader in memo.keys_of(memo.readers_of(new.id)).values():
                    if reached is not None and not reached(reader):
                        spared.append(reader)
                        continue
                    if reader not in queued:
                        queued.add(reader)
                        heapq.heappush(pending, (self.step(reader[0]).level, count, reader))
                        count += 1
                if spared:
                    unreached.append((spared, record.fingerprint, new))
            seen_again(memo, self._journal, self._undo, unreached)
            return update

        self._update = update
        try:
            return self._transaction(run)
        finally:
            self._update = None

    def seed(self, key: Key, value: Any, reads: Iterable[Key] = ()) -> None:
        """Memoize a result made outside the engine by what its step would do (a cold build's entries,
        parsed across processes), with the keys that read (each already in the memo)."""
        step = self.step(key[0])
        seen: dict[int, int] = {}
        for read in reads:
            record = self.memo.get(read)
            assert record is not None, f"{read!r} seeded before what it read"
            seen[record.id] = record.fingerprint
        fingerprint = fingerprint_of(step.fingerprint(value))
        self.memo.put(key, make_record(key, fingerprint, seen, value if step.keep else ABSENT))

    def forget(self, keys: Iterable[Key]) -> None:
        """Drop these keys' memos: outputs no longer in the site, which no step reads."""
        for key in keys:
            self.memo.drop(key)

    # -- the work -------------------------------------------------------------
    def demand(self, key: Key, keep: bool = True) -> tuple[Any, Record]:
        """A key's value and record: from the memo, else run.

        A memo is current: whatever changes in the world is named to `update`, which settles
        every key it reaches, lower levels first, before any step above reads them.
        """
        record = self.memo.get(key)
        if record is not None:
            value = self._value(key, record, keep)
            if value is not ABSENT:
                return value, record
        record, value = self._run(key)  # a step that keeps no value runs again when asked (no step reads a page)
        return value, record

    def _value(self, key: Key, record: Record, keep: bool = True) -> Any:
        """A record's value, decoded from its saved form when first read (and kept so, unless not `keep`; ABSENT
        when it has none)."""
        if record.value is ABSENT and record.saved is not None:
            try:
                value = self.memo.decode(key, record.saved, lambda other: self.demand(other)[0])
            except Exception:  # a value that cannot be decoded is made again
                record.saved = None
                return ABSENT
            if keep:
                record.value = value
            return value
        return record.value

    def _verified(self, record: Record) -> bool:
        """Whether everything the record read has the fingerprint it saw (lower levels are settled)."""
        fingerprints = self.memo.fingerprints
        return all(fingerprints.get(read) == seen for read, seen in zip(record.reads, record.seen, strict=True))

    def _run(self, key: Key, old: Record | None = None) -> tuple[Record, Any]:
        step = self.step(key[0])
        if old is not None and step.rereads:
            self.memo.load_ids(old.reads)
        context = Context(self, step.level, key, old)
        try:
            value = step.run(context, key[1])
        except BaseException:
            for undo in reversed(context.undo):
                undo()
            raise
        if self._undo is not None:
            self._undo.extend(context.undo)
        fingerprint = fingerprint_of(step.fingerprint(value))
        record = make_record(old.id if old is not None else key_id(key), fingerprint, context.reads,
                             value if step.keep else ABSENT)
        old = self.memo.get(key)
        if self._journal is not None and key not in self._journal:
            self._journal[key] = old
        self.memo.put(key, record)
        if self._update is not None:
            self._update.ran.append(key)
            self._update.values[key] = value
            if old is None or old.fingerprint != record.fingerprint:
                self._update.changed.append(key)
        return record, value

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Updates and reads inside one all-or-nothing unit: if anything in it raises, the memo is as before."""
        if self._journal is not None:  # nested: the outer transaction answers for it
            yield
            return
        self._journal, self._undo = {}, []
        try:
            yield
        except BaseException:
            self._rollback()
            raise
        finally:
            self._journal = self._undo = None

    def _rollback(self) -> None:
        """Undo in-place work and put back every record the transaction replaced."""
        assert self._journal is not None and self._undo is not None
        for undo in reversed(self._undo):
            undo()
        for key, record in self._journal.items():
            if record is None:
                self.memo.drop(key)
            else:
                self.memo.put(key, record)

    def _transaction(self, work: Callable[[], Any]) -> Any:
        """Run `work` as one transaction."""
        with self.transaction():
            return work()


def seen_again(memo: Memo, journal: dict[Key, Record | None] | None, undo: list[Callable[[], object]] | None,
               spared: list[tuple[list[Key], int, Record]]) -> None:
    """Readers that `spread` says a change left as they were: their records now say they saw its new
    fingerprint, so that a later process verifies them instead of running them again (a paper whose model
    moved elsewhere would otherwise rebuild the model at its next notes edit). Done once, when the update has
    settled, with the readers of every change read in one query (one per change took a new entry 0.9 s). A memo
    on disk answers for the readers it has not read by a hop (hops.py) and reads none of them."""
    new: dict[Key, dict[int, int]] = {}
    for readers, old, changed in spared:
        answered, take_back = memo.spared(changed.id, old, changed.fingerprint, readers)
        if take_back is not None and undo is not None:
            undo.append(take_back)
        for reader in readers:
            if reader not in answered:
                new.setdefault(reader, {})[changed.id] = changed.fingerprint
    memo.load_many(list(new))
    for reader, fingerprints in new.items():
        found = memo.get(reader)
        if found is None:
            continue
        seen = array("q", found.seen)
        for i, read in enumerate(found.reads):
            if read in fingerprints:
                seen[i] = fingerprints[read]
        if journal is not None and reader not in journal:
            journal[reader] = found
        memo.put(reader, Record(found.id, found.fingerprint, found.reads, seen, found.value, found.saved))
