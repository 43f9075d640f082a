"""The engine's memo: each key's fingerprint, what it read, its value, and who read it.

Validity is checked on small integers kept apart from values, as Salsa and Shake keep it:
a key has a stable 63-bit id (a digest of its step and argument, the same in every
process and worker), a fingerprint is a 63-bit digest, and a record's reads are two
integer arrays (the ids read, the fingerprints seen). Whether a record is still valid is
a look-up of each id read in the id -> fingerprint table, which touches no value.

The readers of a key (the reverse of what each record read) are what an update follows
upward from a changed input. The memo kept on disk between processes is store.DiskMemo.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Hashable, Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any

import msgspec
import xxhash

Key = tuple[str, Hashable]  # (step name, argument)
Encode = Callable[[Key, Any], Any]  # a value as msgpack can hold it, or ABSENT not to save it
Decode = Callable[[Key, bytes, Callable[[Key], Any]], Any]  # msgpack bytes; the third: another key's value

_key_bytes = msgspec.msgpack.Encoder().encode
_MASK = (1 << 63) - 1  # ids and fingerprints fit SQLite's signed 64-bit integers


def key_id(key: Key) -> int:
    """A key's id: the same in every process (arguments are strings, numbers, None and flat tuples of them)."""
    return xxhash.xxh3_64_intdigest(_key_bytes(key)) & _MASK


def fingerprint_of(text: str | bytes) -> int:
    """A step's fingerprint (text its step made) as the memo keeps it: a 63-bit digest, never the text."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return xxhash.xxh3_64_intdigest(data) & _MASK


class _Absent:
    """No value kept (the step keeps only its fingerprint, or the memo was loaded without it)."""

    def __repr__(self) -> str:
        return "ABSENT"

    def __reduce__(self) -> str:
        return "ABSENT"  # unpickled as the one ABSENT, which the engine tests by identity


ABSENT: Any = _Absent()


@dataclass(slots=True, eq=False)
class Record:
    """One key's memo: its id, its result's fingerprint, each read (id) with the fingerprint seen, and the result.

    `saved` is the value as the memo on disk holds it (encoded), when the value itself has
    not been decoded yet: a record read from disk, or shipped back by a render worker,
    decodes its value only when a step reads it.
    """

    id: int
    fingerprint: int
    reads: array[int]
    seen: array[int]
    value: Any = ABSENT
    saved: bytes | None = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record):
            return NotImplemented
        return (self.id, self.fingerprint, self.reads, self.seen) == (other.id, other.fingerprint, other.reads,
                                                                     other.seen) and self.value == other.value

    def pairs(self) -> Iterable[tuple[int, int]]:
        """Each id read with the fingerprint seen."""
        return zip(self.reads, self.seen, strict=True)


def make_record(key_or_id: Key | int, fingerprint: int, reads: dict[int, int], value: Any = ABSENT) -> Record:
    """A record from the reads a context collected (id -> fingerprint seen)."""
    ident = key_or_id if isinstance(key_or_id, int) else key_id(key_or_id)
    return Record(ident, fingerprint, array("q", reads.keys()), array("q", reads.values()), value)


class Memo:
    """Records by key, the fingerprint of every record by id, and the reverse edges by id.

    The reverse edges are made when first asked for and then kept in step: a cold build
    records 1.5 million reads at 10,000 papers and never follows one back.
    """

    def __init__(self, encode: Encode | None = None, decode: Decode | None = None) -> None:
        # how values are saved (a memo on disk) or cross from render workers, when they do
        self.encode, self._decode = encode, decode
        self.records: dict[Key, Record] = {}  # the records at hand (a memo on disk loads them as asked)
        self.fingerprints: MutableMapping[int, int] = {}  # id -> fingerprint, of every record
        self.keys: dict[int, Key] = {}  # id -> key, of the records at hand
        self._readers: dict[int, set[int]] | None = None
        self.log: list[Key] | None = None  # when a list: every key put since, in order (a worker's new records)

    # -- reading ------------------------------------------------------------------
    def get(self, key: Key) -> Record | None:
        """The record of `key`, if the memo has one."""
        return self.records.get(key)

    def load_many(self, keys: Iterable[Key]) -> None:
        """Have the records of these keys at hand (a memo on disk reads them in one query)."""

    def spared(self, ident: int, old: int, new: int, readers: list[Key]) -> tuple[set[Key], Callable[[], None] | None]:
        """Readers of `ident` that its change from fingerprint `old` to `new` left as they were, and which this
        memo answers for without their records being read (none here: each is told the new fingerprint), and
        how to take that back."""
        return set(), None

    def load_ids(self, idents: Iterable[int]) -> None:
        """Have the records of these ids at hand (a memo on disk reads those it has not read in one query)."""

    def keys_of(self, idents: Iterable[int]) -> dict[int, Key]:
        """The keys of many record ids at once (a memo on disk looks them up in one query)."""
        keys = self.keys
        return {i: keys[i] for i in idents if i in keys}

    def keys_of_step(self, name: str) -> list[Key]:
        """Every key of one step the memo holds."""
        return [key for key in self.records if key[0] == name]

    def readers_of(self, ident: int) -> set[int]:
        """The ids of the records that read the record `ident`."""
        if self._readers is None:
            readers: dict[int, set[int]] = {}
            for record in self.records.values():
                link(readers, record.id, record.reads)
            self._readers = readers
        return self._readers.get(ident, set())

    def decode(self, key: Key, saved: bytes, value_of: Callable[[Key], Any] | None = None) -> Any:
        """A value as saved, back as its step made it (the in-memory memo holds workers' values this way);
        `value_of` gives the value of another key it is made with (default: as the memo holds it)."""
        if self._decode is None:
            raise NotImplementedError("this memo decodes no values")
        return self._decode(key, unpacked(saved), value_of or self.value_of)

    def value_of(self, key: Key) -> Any:
        """The value the memo holds for `key`, decoded if need be (ABSENT if none)."""
        record = self.get(key)
        if record is None:
            return ABSENT
        if record.value is ABSENT and record.saved is not None:
            record.value = self.decode(key, record.saved)
        return record.value

    def use_codec(self, encode: Encode, decode: Decode) -> None:
        """Say how values are saved, for a memo opened without (one that reads no value need not import it)."""
        self.encode, self._decode = encode, decode

    # -- changes --------------------------------------------------------------------
    def put(self, key: Key, record: Record) -> None:
        old = self.records.get(key)
        if self._readers is not None:
            if old is None:
                link(self._readers, record.id, record.reads)
            elif old.reads != record.reads:  # it read other keys this time (a whole-list file mostly reads the same)
                _unlink(self._readers, old.id, old.reads)
                link(self._readers, record.id, record.reads)
        self.records[key] = record
        self.fingerprints[record.id] = record.fingerprint
        self.keys[record.id] = key
        if self.log is not None:
            self.log.append(key)

    def drop(self, key: Key) -> None:
        old = self.records.pop(key, None)
        if old is not None:
            self.fingerprints.pop(old.id, None)
            self.keys.pop(old.id, None)
            if self._readers is not None:
                _unlink(self._readers, old.id, old.reads)


def link(readers: dict[int, set[int]], reader: int, reads: Iterable[int]) -> None:
    """Add `reader` to the readers of each id it read."""
    for read in reads:
        found = readers.get(read)
        if found is None:
            readers[read] = {reader}
        else:
            found.add(reader)


def _unlink(readers: dict[int, set[int]], reader: int, reads: Iterable[int]) -> None:
    for read in reads:
        found = readers.get(read)
        if found is not None:
            found.discard(reader)
            if not found:
                del readers[read]


def packed(data: bytes) -> bytes:
    """A value's bytes as saved: compressed when large (the plan, the related lists: a third of their size); a
    small one as it is (compressing 100,000 list items and citations cost seconds of a cold build to save half).
    Zstandard at level 1: the saved model of 10,000 papers (31 MB) in 0.07 s and back in 0.04 s, against 0.21
    and 0.13 s with zlib at its fastest, and a sixth smaller."""
    if len(data) < 8192:
        return b"\x00" + data
    import zstandard  # when first needed: a rebuild with nothing to do packs nothing (its import is 10 ms)

    return b"\x02" + zstandard.compress(data, 1)


def unpacked(data: bytes) -> bytes:
    """A value's bytes back from `packed` (anything else raises: the value is made again)."""
    kind = data[:1]
    if kind == b"\x00":
        return data[1:]
    if kind == b"\x02":
        import zstandard

        return zstandard.decompress(data[1:])
    raise ValueError("a saved value packed in no known way")


def argument_of(argument: Any) -> Hashable:
    """An argument as saved (msgpack gives lists) back as the tuple it was (arguments are flat tuples)."""
    return tuple(argument) if type(argument) is list else argument  # exact type: the hot path
