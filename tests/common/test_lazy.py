"""A lazy mapping behaves as the dict it stands for, making each value once, when first read."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitegen.common.lazy import LazyDict, copied, updated

KEYS = [f"k{i}" for i in range(8)]


def _lazy(keys: list[str] = KEYS) -> tuple[LazyDict[str, str], Counter[str]]:
    made: Counter[str] = Counter()

    def make(key: str) -> str:
        made[key] += 1
        return key.upper()

    return LazyDict(keys, make), made


def test_values_are_made_once_when_first_read_and_not_before() -> None:
    lazy, made = _lazy()
    assert list(lazy) == KEYS and len(lazy) == len(KEYS) and "k3" in lazy and "x" not in lazy
    assert not made  # listing, counting and membership make nothing
    assert lazy["k3"] == "K3" and lazy["k3"] == "K3" and lazy.get("k3") == "K3"
    assert made == Counter({"k3": 1}) and lazy.made("k3") == "K3" and lazy.made("k4") is None
    with pytest.raises(KeyError):
        lazy["x"]
    assert lazy.get("x") is None and made == Counter({"k3": 1})
    assert lazy == {k: k.upper() for k in KEYS} and dict(lazy) == {k: k.upper() for k in KEYS}
    assert all(n == 1 for n in made.values())


def test_a_copy_or_derived_mapping_shares_the_maker_and_keeps_its_own_values() -> None:
    lazy, made = _lazy()
    lazy["k1"]
    copy = copied(lazy)
    assert isinstance(copy, LazyDict)
    copy["k1"] = "set"
    copy["new"] = "NEW"
    del copy["k0"]
    assert lazy["k1"] == "K1" and "new" not in lazy and "k0" in lazy  # the original is as it was
    assert list(copy) == [*KEYS[1:], "new"] and copy["k1"] == "set"
    reordered = lazy.derive(["k5", "k1"], {"k5": "five"})
    assert list(reordered.items()) == [("k5", "five"), ("k1", "K1")]
    assert made["k5"] == 0 and made["k1"] == 1  # a value made before derive is not made again
    merged = lazy | {"k2": "two", "extra": "E"}
    assert list(merged) == [*KEYS, "extra"] and merged["k2"] == "two" and lazy["k2"] == "K2"


@settings(max_examples=200, deadline=None)
@given(values=st.dictionaries(st.sampled_from([*KEYS, "x", "y"]), st.text(max_size=3), max_size=6),
       order=st.none() | st.permutations(KEYS))
def test_updated_is_the_same_for_a_dict_and_a_lazy_mapping(values: dict[str, str], order: list[str] | None) -> None:
    lazy, _ = _lazy()
    plain = {k: k.upper() for k in KEYS}
    if order is not None:
        values = {k: v for k, v in values.items() if k in plain}  # a new order lists every key once
    got, expected = updated(lazy, values, order), updated(plain, values, order)
    assert isinstance(got, LazyDict) and isinstance(expected, dict)
    assert list(got.items()) == list(expected.items())
