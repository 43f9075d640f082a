"""How good the related papers are, on the bundled reading list, against papers picked at random.

    python -m benchmarks.related_quality [--root DIR] [--seeds N] [--timing]

For each paper, its related papers are checked against what the curator wrote down: the
share of them sharing a tag with it (and, for the few papers whose authors are named, an
author), and the mean overlap of their tag sets (Jaccard). The same figures are taken for
5 other papers picked at random (the mean over seeds), for the 5 most alike texts alone,
and for the lists ranked with the tags withheld (text and authors only): the tags are in
the score, so only the last two say whether the rest of it finds what the curator grouped.
benchmarks/README.md ("Related papers") discusses the figures. `--timing` prints instead
what working out the neighbours and the lists costs on the site (`--root`), in CPU seconds.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sitegen.common.errors import Report
from sitegen.content import config as site_config
from sitegen.content.loader import Content, load_content
from sitegen.model import model, related, similar
from sitegen.model.site import Paper, Site

REPO = Path(__file__).resolve().parent.parent
Ranker = Callable[[Paper], Sequence[str]]


@dataclass(frozen=True)
class Figures:
    """How one way of choosing a paper's related papers agrees with the curator's tags and the authors."""

    tag: float  # share of (paper, related) pairs sharing a tag, over papers with tags
    jaccard: float  # mean overlap of the two papers' tag sets
    author: float | None  # share sharing an author, over papers with named authors (None: no such paper)
    listed: float  # mean length of a list


def measure(root: Path = REPO, seeds: int = 50) -> dict[str, Figures]:
    """The figures of the shipped lists, the text alone, the lists with tags withheld, and random picks."""
    content = load_content(root, Report(), None)
    config = site_config.load(root)
    site = model.build_site(config, content)
    texts = {slug: related.text_of(p.entry.title, p.entry.abstract) for slug, p in site.papers.items()}
    near = similar.nearest(texts)
    untagged = Content(tuple(dataclasses.replace(e, tags=()) for e in content.entries), content.profiles)
    without_tags = related.lists(model.build_site(config, untagged), near)

    def shipped(paper: Paper) -> list[str]:
        return [r.slug for r in related.for_paper(site, paper)]

    def text_alone(paper: Paper) -> list[str]:
        return [slug for slug, _ in near.get(paper.slug, ())[: related.LIMIT]]

    def tags_withheld(paper: Paper) -> list[str]:
        return [r.slug for r in without_tags[paper.slug]]

    found = {"related papers": _figures(site, shipped), "text alone": _figures(site, text_alone),
             "tags withheld": _figures(site, tags_withheld)}
    slugs = list(site.papers)
    picks = [_figures(site, _random(slugs, random.Random(seed))) for seed in range(seeds)]
    authors = [p.author for p in picks if p.author is not None]
    found["random"] = Figures(statistics.fmean(p.tag for p in picks), statistics.fmean(p.jaccard for p in picks),
                              statistics.fmean(authors) if authors else None, related.LIMIT)
    return found


def timing(root: Path) -> dict[str, float]:
    """CPU seconds of the texts' neighbours and of every paper's list, on the site at `root`."""
    site = model.build_site(site_config.load(root), load_content(root, Report(), None))
    texts = {slug: related.text_of(p.entry.title, p.entry.abstract) for slug, p in site.papers.items()}
    started = time.process_time()
    near = similar.nearest(texts)
    middle = time.process_time()
    related.lists(site, near)
    return {"papers": len(texts), "neighbours": middle - started, "lists": time.process_time() - middle}


def _random(slugs: list[str], rng: random.Random) -> Ranker:
    return lambda paper: rng.sample([s for s in slugs if s != paper.slug], related.LIMIT)


def _figures(site: Site, ranker: Ranker) -> Figures:
    tag_hits: list[bool] = []
    author_hits: list[bool] = []
    overlaps: list[float] = []
    lengths: list[int] = []
    for paper in site.papers.values():
        chosen = [site.papers[slug] for slug in ranker(paper)]
        lengths.append(len(chosen))
        tags = {t.slug for t in paper.tags}
        authors = {a.slug for a in (*paper.authors, *paper.unlisted_authors)}
        for other in chosen:
            theirs = {t.slug for t in other.tags}
            if tags:
                tag_hits.append(bool(tags & theirs))
                overlaps.append(len(tags & theirs) / len(tags | theirs))
            if authors:
                author_hits.append(bool(authors & {a.slug for a in (*other.authors, *other.unlisted_authors)}))
    return Figures(statistics.fmean(tag_hits), statistics.fmean(overlaps),
                   statistics.fmean(author_hits) if author_hits else None, statistics.fmean(lengths))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=REPO, help="the site (default: the bundled reading list)")
    parser.add_argument("--seeds", type=int, default=50, help="random picks averaged (default 50)")
    parser.add_argument("--timing", action="store_true", help="time the neighbours and the lists instead")
    args = parser.parse_args(argv)
    if args.timing:
        cost = timing(args.root)
        print(f"{cost['papers']:.0f} papers: neighbours {cost['neighbours']:.2f} s, lists {cost['lists']:.2f} s of CPU")
        return
    print(f"{'':16} {'share a tag':>12} {'tag overlap':>12} {'share an author':>16} {'papers listed':>14}")
    for name, f in measure(args.root, args.seeds).items():
        author = "-" if f.author is None else f"{f.author:.0%}"
        print(f"{name:16} {f.tag:>12.0%} {f.jaccard:>12.2f} {author:>16} {f.listed:>14.2f}")


if __name__ == "__main__":
    main()
