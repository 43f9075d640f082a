"""How a memo saves a value's bytes: small ones as they are, large ones compressed, anything else refused."""

from __future__ import annotations

import os

import pytest
import zstandard

from sitegen.pipeline.engine.memo import packed, unpacked


@pytest.mark.parametrize("size", [0, 100, 8191, 8192, 200_000])
def test_a_value_comes_back_as_it_was_packed(size: int) -> None:
    data = (os.urandom(64) * (size // 64 + 1))[:size]
    saved = packed(data)
    assert unpacked(saved) == data
    assert (len(saved) < len(data)) == (size >= 8192), "large values compressed, small ones kept as they are"


@pytest.mark.parametrize("saved", [b"", b"\x01" + b"x" * 100, b"\x02not zstd at all", b"\x07abc"])
def test_bytes_packed_in_no_known_way_raise_so_the_value_is_made_again(saved: bytes) -> None:
    with pytest.raises((ValueError, zstandard.ZstdError)):  # the engine makes such a value again (Engine._value)
        unpacked(saved)
