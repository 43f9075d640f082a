"""Slugs: lowercase ASCII, bounded, never empty, never a path, stable, unique."""

from __future__ import annotations

import string
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from slugify import slugify as _slugify

from sitegen.content.slugs import MAX_SLUG, is_safe_slug, short_hash, slugify, unique_slug


@pytest.mark.parametrize(("text", "slug"), [
    ("Łukasz Kaiser", "lukasz-kaiser"),
    ("VTC: DNN Compilation with Virtual Tensors for Data Movement Elimination",
     "vtc-dnn-compilation-with-virtual-tensors-for-data-movement"),
    ("TPLA: Tensor Parallel Latent Attention for Efficient Disaggregated Prefill \\& Decode Inference",
     "tpla-tensor-parallel-latent-attention-for-efficient"),
    ("FlashAttention-2: Faster Attention", "flashattention-2-faster-attention"),
    ("Ünïcödé Çafé", "unicode-cafe"),
    ("Straße", "strasse"),
    ("../../etc/passwd", "etc-passwd"),
    ("<script>alert(1)</script>", "script-alert-1-script"),
    ("ＦＵＬＬＷＩＤＴＨ", "fullwidth"),
])
def test_examples(text: str, slug: str) -> None:
    assert slugify(text) == slug


@pytest.mark.parametrize("text", ["", "   ", "---", ".", "..", "/", "../", "???", "\u200b", "😀😀"])
def test_nothing_to_slug_falls_back_to_a_stable_hash(text: str) -> None:
    slug = slugify(text)
    assert slug == "p-" + short_hash(text) and len(slug) == 10 and is_safe_slug(slug)
    assert slugify(text) == slug


def test_cjk_is_transliterated_or_hashed_but_never_empty() -> None:
    slug = slugify("論文のタイトル")
    assert slug and is_safe_slug(slug) and slug.isascii()


def test_long_titles_are_cut_at_a_word_boundary() -> None:
    slug = slugify("word " * 30)
    assert len(slug) <= MAX_SLUG and slug.endswith("word") and not slug.endswith("-")
    assert len(slugify("a" * 200)) == MAX_SLUG


def test_unique_slug_suffixes_on_clash_and_stays_bounded() -> None:
    base = slugify("x" * 100)
    taken = {base}
    seen = set()
    for _ in range(5):
        slug = unique_slug(base, taken, "seed")
        assert slug not in taken and is_safe_slug(slug) and len(slug) <= MAX_SLUG + 12
        taken.add(slug)
        seen.add(slug)
    assert len(seen) == 5
    assert unique_slug("free", taken, "seed") == "free"
    assert unique_slug(base, {base}, "seed") == unique_slug(base, {base}, "seed")  # stable


@pytest.mark.parametrize("slug", ["a", "a-b", "abc-123"])
def test_safe_slugs(slug: str) -> None:
    assert is_safe_slug(slug)


@pytest.mark.parametrize("slug", ["", "A", "a/b", "..", "a..b", "-a", "a-", "a--b", "a_b", "a.md", "é", "a" * 73])
def test_unsafe_slugs(slug: str) -> None:
    assert not is_safe_slug(slug)


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_slug_properties(text: str) -> None:
    slug = slugify(text)
    assert slug and len(slug) <= MAX_SLUG
    assert "/" not in slug and "\\" not in slug and ".." not in slug and "." not in slug
    assert set(slug) <= set(string.ascii_lowercase + string.digits + "-")
    assert is_safe_slug(slug)
    assert slugify(slug) == slug
    assert slugify(text) == slug  # stable


@settings(max_examples=100, deadline=None)
@given(st.text(st.characters(categories=("Lu", "Ll", "Nd", "Zs", "Po")), min_size=1, max_size=200))
def test_slug_properties_on_wordy_text(text: str) -> None:
    slug = slugify(text)
    assert is_safe_slug(slug) and slugify(slug) == slug and len(slug) <= MAX_SLUG


def _reference(text: str) -> str:
    """What slugify promises, spelled out with the transliterator alone: its slug, else a hash."""
    text = unicodedata.normalize("NFKC", text).replace("\\&", "&")
    slug = _slugify(text, max_length=MAX_SLUG, word_boundary=True, save_order=True)
    return slug if is_safe_slug(slug) and len(slug) <= MAX_SLUG else "p-" + short_hash(text)


@given(st.lists(st.text(alphabet="abcXYZ019.-", min_size=1, max_size=12), min_size=1, max_size=8))
@settings(max_examples=300)
def test_plain_ascii_shortcut_agrees_with_the_library(words: list[str]) -> None:
    text = " ".join(words)
    assert slugify(text) == _reference(text)


_LATIN_WORD = st.text(alphabet=st.characters(min_codepoint=0x30, max_codepoint=0x24F, categories=("L", "Nd"))
                      | st.sampled_from(".-"), min_size=1, max_size=10)


@given(st.lists(_LATIN_WORD, min_size=1, max_size=5))
@settings(max_examples=1000)
def test_accent_shortcut_agrees_with_the_library(words: list[str]) -> None:
    """Latin letters with accents take the shortcut; the result must be the transliterator's."""
    text = " ".join(words)
    assert slugify(text) == _reference(text)


def test_accented_names_take_the_shortcut_correctly() -> None:
    for name in ("José Müller", "Zoë Ångström", "Đorđe Łukasz Øster", "Ǆemal Ñúñez", "Ken L. Dijkstra-1675",
                 "J.-P. Sartre", "-.-", "Ö. -Ü"):
        assert slugify(name) == _reference(name)
