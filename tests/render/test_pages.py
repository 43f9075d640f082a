"""Key content of the built HTML pages, read with html5lib and compared with the entries' front matter."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from urllib.parse import parse_qs, urlsplit

from sitegen.model.routes import RECENT_SIZE
from sitegen.model.timeline import MONTH_NAMES

from ..conftest import BuiltSite
from ..html_tools import (
    by_class,
    committed_entries,
    entry_date,
    last_segment,
    listed_papers,
    main_links,
    main_of,
    meta_values,
    one,
    read_html,
    text_of,
    topic_tags,
)

VTC = "vtc-dnn-compilation-with-virtual-tensors-for-data-movement"
VTC_TITLE = "VTC: DNN Compilation with Virtual Tensors for Data Movement Elimination"


def _newest_first(slugs: set[str]) -> list[str]:
    """The committed entries among `slugs` in the site's order: newest first, undated last."""
    entries = committed_entries()
    by_title = sorted(slugs, key=lambda s: (entries[s]["title"].casefold(), s))
    dated = [s for s in by_title if entry_date(entries[s])]
    dated.sort(key=lambda s: entry_date(entries[s]), reverse=True)  # type: ignore[arg-type, return-value]
    return dated + [s for s in by_title if not entry_date(entries[s])]


def test_vtc_page_links_both_profile_authors_and_its_listed_authors(built_site: BuiltSite) -> None:
    doc = read_html(built_site.output / "papers" / VTC / "index.html")
    byline = one(doc, "paper-authors")
    links = {text_of(a): a.get("href", "") for a in byline.iter("a")}
    assert links == {
        "Muyan Hu": "../../authors/muyan-hu/",
        "Ahan Gupta": "../../authors/ahan-gupta/",
        "Jiachen Yuan": "../../authors/jiachen-yuan/",
        "Vima Gupta": "../../authors/vima-gupta/",  # hidden behind "et al." but in her profile dump
    }
    assert "et al." in text_of(byline)
    for slug in ("ahan-gupta", "vima-gupta"):
        profile_page = read_html(built_site.output / "authors" / slug / "index.html")
        assert VTC in listed_papers(profile_page)
        assert list(by_class(profile_page, "figures")), f"{slug}'s page shows the profile figures"


def test_vtc_page_carries_its_category_and_highwire_tags(built_site: BuiltSite) -> None:
    doc = read_html(built_site.output / "papers" / VTC / "index.html")
    facts = one(doc, "facts")
    category = [a for a in facts.iter("a") if "categories/" in a.get("href", "")]
    assert [(text_of(a), a.get("href")) for a in category] == [("cs.DC", "../../categories/cs-dc/")]
    assert "../../tags/cs-dc/" not in [href for _, href in main_links(doc, "tags/")]  # a category, not also a tag
    assert meta_values(doc, "citation_title") == [VTC_TITLE]
    assert meta_values(doc, "citation_author") == ["Muyan Hu", "Ahan Gupta", "Jiachen Yuan"]
    assert meta_values(doc, "citation_publication_date") == ["2026/02/11"]
    assert meta_values(doc, "og:type") == ["article"]
    assert meta_values(doc, "og:url") == [built_site.base_url + f"papers/{VTC}/"]


def test_paper_page_has_json_ld_coins_and_its_bibtex(built_site: BuiltSite) -> None:
    doc = read_html(built_site.output / "papers" / VTC / "index.html")
    [ld] = [s for s in doc.iter("script") if s.get("type") == "application/ld+json"]
    data = json.loads(ld.text or "")
    assert data["@type"] == "ScholarlyArticle" and data["name"] == VTC_TITLE
    assert data["datePublished"] == "2026-02-11"
    assert [a["name"] for a in data["author"]] == ["Muyan Hu", "Ahan Gupta", "Jiachen Yuan"]
    coins = parse_qs(one(doc, "Z3988", "span").get("title", ""))
    assert coins["rft.atitle"] == [VTC_TITLE] and coins["rft.date"] == ["2026-02-11"]
    bibtex = text_of(one(doc, "bibtex", "pre"))
    assert bibtex.startswith("@misc{hu2026vtc,") and "primaryclass" not in bibtex  # no arXiv id known
    # what the Copy button copies is what the BibTeX link downloads, and it cites without the abstract
    box = "".join(one(doc, "bibtex", "pre").itertext())
    assert box.strip() == (built_site.output / "papers" / VTC / "cite.bib").read_text("utf-8").strip()
    assert "abstract" not in bibtex


def test_every_paper_page_shows_its_title_tags_and_date(built_site: BuiltSite) -> None:
    for slug, meta in committed_entries().items():
        doc = read_html(built_site.output / "papers" / slug / "index.html")
        assert meta_values(doc, "citation_title") == [" ".join(meta["title"].split())], slug
        assert meta_values(doc, "citation_author") == list(meta.get("authors") or []), slug
        date = entry_date(meta)
        assert meta_values(doc, "citation_publication_date") == ([date.strftime("%Y/%m/%d")] if date else [])
        tags = [text_of(a) for a in by_class(doc, "tags", "ul") for a in a.iter("a")]
        assert tags == topic_tags(meta), slug


def test_author_page_lists_co_authors_papers_and_topics(built_site: BuiltSite) -> None:
    entries = committed_entries()
    doc = read_html(built_site.output / "authors" / "ahan-gupta" / "index.html")
    own = {s for s, m in entries.items() if "Ahan Gupta" in (m.get("authors") or [])}
    assert listed_papers(doc) == _newest_first(own)
    heading = doc.find(".//h2[@id='coauthors-heading']")
    assert heading is not None and text_of(heading) == "Co-authors"
    section = next(s for s in doc.iter("section") if s.get("aria-labelledby") == "coauthors-heading")
    coauthors = {text_of(a): a.get("href") for ul in section.iter("ul") for a in ul.iter("a")}
    expected = {a for s in own for a in entries[s]["authors"] if a != "Ahan Gupta"} | {"Vima Gupta"}
    assert set(coauthors) == expected
    # the drawing of the closest ones, out of the tab order, and the way to the whole network
    drawn = [a.get("href") for svg in section.iter("{http://www.w3.org/2000/svg}svg")
             for a in svg.iter("{http://www.w3.org/2000/svg}a")]
    assert drawn == list(coauthors.values())[: len(drawn)] and len(drawn) == min(8, len(coauthors))
    assert [a.get("href") for p in section.iter("p") for a in p.iter("a")] == ["../../network/?author=ahan-gupta"]
    for name, href in coauthors.items():
        assert href is not None and href.startswith("../")
        assert (built_site.output / "authors" / last_segment(href) / "index.html").is_file(), name
    figures = {text_of(dt): text_of(dd) for div in one(doc, "figures").iter("div")
               for dt, dd in [(div.find("dt"), div.find("dd"))] if dt is not None and dd is not None}
    assert figures["h-index"] == "12" and figures["Citations"] == "18" and figures["Its novelty score"] == "67%"
    topics = Counter(t for s in own for t in topic_tags(entries[s]))
    section = next(s for s in doc.iter("section") if s.get("aria-labelledby") == "topics-heading")
    shown = {text_of(a).rsplit(" ", 1)[0]: int(text_of(a).rsplit(" ", 1)[1]) for a in section.iter("a")}
    assert shown and all(topics[name] == count for name, count in shown.items())
    assert min(shown.values()) >= max((n for t, n in topics.items() if t not in shown), default=0)  # the top ones


def test_every_tag_page_lists_exactly_its_papers(built_site: BuiltSite) -> None:
    entries = committed_entries()
    index = read_html(built_site.output / "tags" / "index.html")
    slugs = {text_of(one(a, "tag-name")): last_segment(a.get("href", "")) for a in index.iter("a")
             if "/tags/" in "/" + a.get("href", "") and list(by_class(a, "tag-name"))}
    names = {t for m in entries.values() for t in topic_tags(m)}
    assert set(slugs) == names  # topics on the tag index; categories have their own section
    for name in names:
        slug = slugs.get(name) or name.lower().replace(".", "-")
        doc = read_html(built_site.output / "tags" / slug / "index.html")
        tagged = {s for s, m in entries.items() if name in topic_tags(m)}
        assert listed_papers(doc) == _newest_first(tagged), name
        count = text_of(one(main_of(doc), "muted", "p")).split(" ", 1)[0]
        assert int(count) == len(tagged), name
    assert len(list((built_site.output / "tags").glob("*/index.html"))) == len(names)


def test_tag_index_lists_topics_most_used_first_with_their_counts(built_site: BuiltSite) -> None:
    entries = committed_entries()
    used = Counter(t for m in entries.values() for t in topic_tags(m))
    index = read_html(built_site.output / "tags" / "index.html")
    topics = next(s for s in index.iter("section") if s.get("aria-labelledby") == "topics-heading")
    shown = [(text_of(one(a, "tag-name")), int(text_of(one(a, "count")))) for a in topics.iter("a")]
    assert shown == sorted(used.items(), key=lambda kv: (-kv[1], kv[0].casefold()))
    assert len(shown) > 10 and shown[0][1] > shown[-1][1]


def test_category_pages_list_exactly_their_papers(built_site: BuiltSite) -> None:
    entries = committed_entries()
    for code in {m["category"] for m in entries.values() if m.get("category")}:
        doc = read_html(built_site.output / "categories" / code.lower().replace(".", "-") / "index.html")
        assert listed_papers(doc) == _newest_first({s for s, m in entries.items() if m.get("category") == code})


def test_timeline_counts_including_undated_add_up_to_106(built_site: BuiltSite) -> None:
    """The chart is a table of years by months: each row's cells say its papers month by month, then in all."""
    entries = committed_entries()
    doc = read_html(built_site.output / "timeline" / "index.html")
    rows = [[text_of(cell) for cell in row] for row in one(doc, "month-chart", "table").iter("tr")]
    assert rows[0][1:] == [f"{name[0]}{name}" for name in MONTH_NAMES] + ["All"]  # a letter shown, the name said
    bars = {row[0]: int(row[-1]) for row in rows[1:]}
    assert sum(bars.values()) == len(entries) == 106
    by_month = Counter((d.year, d.month) for m in entries.values() if (d := entry_date(m)))
    for row in rows[1:-1]:
        assert [int(n) for n in row[1:13]] == [by_month[int(row[0]), month] for month in range(1, 13)], row[0]
    assert rows[-1][1:] == ["no date", str(bars["Undated"])]
    expected = Counter(str(d.year) if (d := entry_date(m)) else "Undated" for m in entries.values())
    assert bars == dict(expected)
    assert list(bars)[-1] == "Undated"
    for label, count in bars.items():
        page = read_html(built_site.output / "timeline" / label.lower() / "index.html")
        assert len(listed_papers(page)) == count, label
    assert "106 papers" in text_of(one(main_of(doc), "muted", "p"))


def _latest_added_first(slugs: set[str]) -> list[str]:
    """The home page's order: by date added (else published), newest first, ties in the site's order; undated last."""
    entries, order = committed_entries(), _newest_first(slugs)

    def day(slug: str) -> object:
        return entries[slug].get("added") or entry_date(entries[slug])

    dated = sorted((s for s in order if day(s)), key=day, reverse=True)  # type: ignore[arg-type]
    return dated + [s for s in order if not day(s)]


def test_home_pages_list_every_paper_once_latest_added_first(built_site: BuiltSite) -> None:
    entries = committed_entries()
    pages = [built_site.output / "index.html"]
    pages += [built_site.output / "page" / str(n) / "index.html" for n in range(2, math.ceil(len(entries) / 20) + 1)]
    listed = [slug for page in pages for slug in listed_papers(read_html(page))]
    assert listed == _latest_added_first(set(entries))
    assert not (built_site.output / "page" / str(len(pages) + 1)).exists()
    first = read_html(pages[0])
    items = list(by_class(first, "item", "article"))
    assert len(items) == 20
    assert all(item.find(".//time") is not None or "undated" in text_of(item) for item in items)


def test_recently_added_shows_the_latest_additions_grouped_by_day(built_site: BuiltSite) -> None:
    entries = committed_entries()
    doc = read_html(built_site.output / "recent" / "index.html")
    headings = [h for h in doc.iter("h2") if h.get("id", "").startswith("added-")]
    days = [h.get("id", "").removeprefix("added-") for h in headings]
    assert days == sorted(days, reverse=True) and days
    added = {slug: str(m["added"]) for slug, m in entries.items() if m.get("added")}
    listed = listed_papers(doc)
    assert len(listed) == min(RECENT_SIZE, len(added)) < len(added)  # the committed list is longer than the page
    assert min(added[s] for s in listed) >= max(added[s] for s in set(added) - set(listed))
    assert [added[s] for s in listed] == sorted((added[s] for s in listed), reverse=True)
    shown = Counter(added[s] for s in listed)
    assert [int(text_of(one(h, "count", "span"))) for h in headings] == [shown[d] for d in days]
    lede = text_of(next(by_class(main_of(doc), "muted", "p")))
    assert f"the latest {len(listed)} of {len(added)}" in lede
    assert ("../", "home page") in [(href, text) for text, href in main_links(doc, "")]


def test_authors_index_has_every_author_with_a_letter_index(built_site: BuiltSite) -> None:
    entries = committed_entries()
    doc = read_html(built_site.output / "authors" / "index.html")
    names = {text_of(a) for a in doc.iter("a") if re.fullmatch(r"\.\./authors/[a-z0-9-]+/", a.get("href", ""))}
    assert names == {a for m in entries.values() for a in m.get("authors") or []}
    letters = [a.get("href", "")[1:] for a in one(doc, "letters", "nav").iter("a")]
    assert letters and all(doc.find(f".//*[@id='{anchor}']") is not None for anchor in letters)


def test_every_page_has_one_h1_landmarks_and_a_canonical_url(built_site: BuiltSite) -> None:
    for path in sorted(built_site.output.rglob("*.html")):
        rel = path.relative_to(built_site.output).as_posix()
        doc = read_html(path)
        assert len(list(doc.iter("h1"))) == 1, rel
        for landmark in ("header", "nav", "main", "footer"):
            assert doc.find(f".//{landmark}") is not None, f"{rel} has no <{landmark}>"
        if rel == "404.html" or rel.startswith("pagefind/"):
            continue
        [canonical] = [link.get("href") for link in doc.iter("link") if link.get("rel") == "canonical"]
        assert canonical == built_site.base_url + rel.removesuffix("index.html"), rel


def test_every_paper_page_opens_with_links_to_the_paper_or_title_searches(built_site: BuiltSite) -> None:
    labels = {"pdf": "PDF", "code": "Code", "project": "Project", "hf": "Hugging Face", "html": "HTML"}
    for slug, meta in committed_entries().items():
        doc = read_html(built_site.output / "papers" / slug / "index.html")
        header = one(doc, "paper-header", "header")
        kids = [el.get("class") for el in header]
        assert kids.index("paper-links") == kids.index("paper-authors") + 1, slug  # right under the byline
        row = one(header, "paper-links", "nav")
        links = meta.get("links") or {}
        shown = [(text_of(a), a.get("href")) for ul in by_class(row, "buttons", "ul") if "searches" not in
                 (ul.get("class") or "") for a in ul.iter("a")]
        for kind, url in links.items():
            assert (labels.get(kind, kind), url) in shown, f"{slug}: {kind}"
        searches = [parse_qs(urlsplit(a.get("href", "")).query) for s in by_class(row, "searches", "ul")
                    for a in s.iter("a")]
        identified = any(meta.get(k) for k in ("arxiv", "doi")) or {"pdf", "abs"} & set(links)
        title = " ".join(meta["title"].split())
        assert searches == ([] if identified else [{"query": [title], "searchtype": ["title"]}, {"q": [title]},
                                                   {"q": [title]}]), slug
        assert not list(by_class(doc, "links", "ul")), f"{slug}: the old list of links is gone"


FLURKA = "flurka-fast-and-accurate-unified-low-rank-kernel-attention"  # $\textbf{F}$ast $\textbf{L}$ow-…
TEX = re.compile(r"\\[A-Za-z]|\$[^$\s][^$]*\$")  # a TeX command, or a `$…$` span


def test_descriptions_and_json_ld_are_text_without_tex(built_site: BuiltSite) -> None:
    doc = read_html(built_site.output / "papers" / FLURKA / "index.html")
    [description] = meta_values(doc, "description")
    assert description.startswith("Many efficient approximate self-attention techniques") and description.endswith("…")
    assert meta_values(doc, "og:description") == [description]
    [ld] = [s for s in doc.iter("script") if s.get("type") == "application/ld+json"]
    assert "FLuRKA (Fast Low-Rank & KernelAttention)" in json.loads(ld.text or "")["abstract"]
    for slug in committed_entries():
        doc = read_html(built_site.output / "papers" / slug / "index.html")
        [ld] = [s for s in doc.iter("script") if s.get("type") == "application/ld+json"]
        data = json.loads(ld.text or "")
        texts = [*meta_values(doc, "description"), *meta_values(doc, "og:description"), data["name"],
                 data.get("abstract", "")]
        assert not [t for t in texts if TEX.search(t)], slug
