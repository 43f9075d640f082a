"""One file per person: names that only share a slug are different people."""

from __future__ import annotations

import datetime as dt
import unicodedata
from pathlib import Path
from typing import Any

from sitegen.content import frontmatter
from sitegen.content.slugs import is_safe_slug
from sitegen.ingest.importers.run import run_import

from .conftest import DUMPS, PROFILE_A, write_dump

CAPTURED = dt.date(2026, 6, 1)
AHAN = "content/authors/ahan-gupta.yaml"


def profile(name: str) -> str:
    """Ahan Gupta's committed profile page under another name."""
    return (DUMPS / PROFILE_A).read_text(encoding="utf-8").replace("Ahan Gupta\n", f"{name}\n", 1)


def author(root: Path, shown: str) -> dict[str, Any]:
    data, _ = frontmatter.load_yaml((root / shown).read_text(encoding="utf-8"), shown)
    assert isinstance(data, dict)
    return data


def test_a_different_person_with_the_same_slug_gets_a_file_of_their_own(site: Path) -> None:
    before = (site / AHAN).read_bytes()
    dump = write_dump(site, "004_ahan.txt", profile("Ahán Gupta"))
    result = run_import(site, [dump], captured=CAPTURED)
    assert not result.failed and (site / AHAN).read_bytes() == before
    (shown,) = result.authors
    assert shown != AHAN and is_safe_slug(Path(shown).stem) and Path(shown).stem.startswith("ahan-gupta-")
    assert author(site, shown)["name"] == "Ahán Gupta" and author(site, shown)["source"] == "004_ahan.txt"
    assert [d.format() for d in result.report.items] == [
        f"content/dumps/004_ahan.txt:1: warning[W712]: author profile 'Ahán Gupta' is not 'Ahan Gupta' ({AHAN}), "
        f"though both make the file name ahan-gupta.yaml; it gets its own file {shown}\n"
        "  hint: if they are one person, merge the two files by hand and delete one"]
    again = run_import(site, [dump])
    assert not again.failed and again.authors == [shown] and again.report.items == []


def test_the_same_name_but_for_unicode_composition_and_spacing_is_the_same_person(site: Path) -> None:
    first = run_import(site, [write_dump(site, "004_a.txt", profile("Ahán Gupta"))], captured=CAPTURED)
    decomposed = unicodedata.normalize("NFD", "Ahán") + "   Gupta"
    second = run_import(site, [write_dump(site, "005_b.txt", profile(decomposed))], captured=CAPTURED)
    assert not second.failed and second.authors == first.authors and second.report.items == []
    assert len(list((site / "content" / "authors").glob("*.yaml"))) == 3


def test_two_look_alike_profiles_in_one_import(bare_site: Path) -> None:
    dumps = [write_dump(bare_site, "004_a.txt", profile("Ahan Gupta")),
             write_dump(bare_site, "005_b.txt", profile("Ahán Gupta"))]
    result = run_import(bare_site, dumps, captured=CAPTURED)
    assert not result.failed
    assert [author(bare_site, s)["name"] for s in result.authors] == ["Ahan Gupta", "Ahán Gupta"]
    assert result.authors[0] == AHAN and len(set(result.authors)) == 2
