"""Generate a deterministic synthetic reading list of N papers shaped like the real ones.

Titles of 6-16 words with colons, ampersands and non-ASCII letters; 1-25 authors
drawn Zipf-like from a pool of about 0.8*N names; 1-5 of 60 tags; dates 2017-2026;
900-2,000-character abstracts with $...$ math, '<' and '&'; Markdown notes with
lists, links and code on some entries; each paper seen on Hugging Face Daily Papers
in one to three of three captures, most with upvotes that grow from one to the next
(about 4 in 10 papers seen twice or more). The same N and seed give the same bytes.

With --links, each paper also has an arXiv id and cites 20-40 papers as `enrich` writes
them (about a third on the list, by arXiv id, the rest DOIs elsewhere), and one in ten
notes mentions an earlier paper by `[[slug]]`: the same list otherwise, byte for byte in
every other field, so a build with and without them measures what the links cost.

    python -m benchmarks.generate 10000 /tmp/corpus-10k
    python -m benchmarks.generate 10000 /tmp/corpus-10k-links --links
"""

from __future__ import annotations

import argparse
import bisect
import datetime as dt
import itertools
import random
import shutil
from pathlib import Path

from sitegen.content import frontmatter
from sitegen.content.slugs import slugify, unique_slug

REPO = Path(__file__).resolve().parent.parent
WORDS = ("scalable efficient sparse attention parallel memory kernel compiler pipeline tensor expert routing "  # noqa: SIM905
         "quantized latency throughput serving training inference adaptive hierarchical distributed speculative "
         "decoding cache graph accelerator hardware fusion scheduling gradient low-rank mixture long-context "
         "benchmark dataflow systolic heterogeneous asynchronous offloading compression retrieval transformer "
         "diffusion protein equivariant operator stochastic robust federated streaming vectorized").split()
UNICODE = ("Schrödinger", "Fréchet", "Gödel", "Łukasiewicz", "Poincaré", "Erdős", "Dvořák", "Ångström", "Müller")
GIVEN = ("Ada Alan Grace Edsger Barbara Donald Leslie Frances John Radia Tim Margaret Ken Dennis Niklaus Shafi "  # noqa: SIM905
         "Yann Fei-Fei Geoffrey Yoshua Łukasz Zoë José Søren Chloé Jürgen Ming Wei Hiroshi Priya Amara Ife").split()
FAMILY = ("Lovelace Turing Hopper Dijkstra Liskov Knuth Lamport Allen Backus Perlman Berners-Lee Hamilton "  # noqa: SIM905
          "Thompson Ritchie Wirth Goldwasser LeCun Li Hinton Bengio Kaiser Nguyen Alvarez Kierkegaard Dubois "
          "Schmidhuber Zhang Chen Tanaka Patel Okafor Adeyemi Müller García Rossi Novák Kowalski Ivanova").split()
TAGS = tuple(f"topic-{w}" for w in WORDS[:60])
CAPTURES = (dt.date(2026, 4, 17), dt.date(2026, 5, 19), dt.date(2026, 6, 20))  # the days the dumps were captured


def _names(count: int, rng: random.Random) -> list[str]:
    combos = [f"{g} {f}" for g, f in itertools.product(GIVEN, FAMILY)]
    names = []
    for i in range(count):
        base = combos[i % len(combos)]
        names.append(base if i < len(combos) else f"{base.split()[0]} {chr(65 + i % 26)}. {base.split()[1]}-{i}")
    rng.shuffle(names)
    return names


def _zipf_picker(count: int, rng: random.Random) -> list[float]:
    weights = [1.0 / (rank + 1) ** 0.6 for rank in range(count)]
    total, acc = sum(weights), []
    running = 0.0
    for w in weights:
        running += w / total
        acc.append(running)
    return acc


def _title(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(6, 16))]
    words[0] = words[0].capitalize()
    if rng.random() < 0.6:
        words[rng.randint(0, min(3, len(words) - 2))] += ":"
    if rng.random() < 0.3:
        words.insert(rng.randint(1, len(words) - 1), "&")
    if rng.random() < 0.2:
        words.insert(rng.randint(1, len(words) - 1), rng.choice(UNICODE))
    return " ".join(words)


def _abstract(rng: random.Random) -> str:
    target = rng.randint(900, 2000)
    parts: list[str] = []
    while sum(len(p) + 1 for p in parts) < target:
        sentence = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 20))).capitalize()
        roll = rng.random()
        if roll < 0.15:
            sentence += f" reaching ${rng.randint(2, 9)}\\times$ speedup"
        elif roll < 0.25:
            sentence += f" with $O(n^{rng.randint(2, 3)})$ cost & latency < {rng.randint(5, 50)} ms"
        parts.append(sentence + ".")
    return " ".join(parts)[:target].rsplit(" ", 1)[0] + "."


def _notes(rng: random.Random) -> str:
    if rng.random() > 0.3:
        return ""
    return (f"Why it matters: **{rng.choice(WORDS)}** beats the baseline.\n\n"
            f"- compare with [the baseline](https://example.org/{rng.randint(1, 999)})\n"
            f"- check `{rng.choice(WORDS)}_{rng.randint(1, 9)}()` on our cluster\n\n"
            f"```python\nspeedup = {rng.randint(2, 9)} * baseline\n```\n")


def _sightings(title: str, date: object, line: int, rng: random.Random) -> list[dict[str, object]]:
    """The paper's source records: seen in a run of one to three captures, upvotes (when shown) growing."""
    seen = rng.choices((1, 2, 3), weights=(6, 3, 1))[0]
    first = rng.randint(0, len(CAPTURES) - seen)
    upvotes = int(rng.paretovariate(1.2)) - 1 if rng.random() < 0.7 else None
    records: list[dict[str, object]] = []
    for day in CAPTURES[first:first + seen]:
        record: dict[str, object] = {"file": f"hf-daily-{day}.txt", "format": "hf-daily-papers", "captured": day,
                                     "line": line, "title": title, "date": date}
        if upvotes is not None:
            record["upvotes"] = upvotes
            upvotes += rng.choice((0, 0, 1, 2, 3, 5, 8, 13, 21))
        records.append(record)
    return records


def _arxiv(i: int, date: dt.date) -> str:
    """A paper's arXiv id: its month's, numbered by its place in the list (unique, whatever the dates)."""
    return f"{date:%y%m}.{i:05d}"


def _links(ids: list[str], slugs: list[str], notes: str, meta: dict[str, object],
           rng: random.Random) -> str:
    """Cites (a third on the list) into `meta`; the notes, with a mention of an earlier paper one time in ten."""
    cited = [rng.choice(ids) if ids and rng.random() < 0.33 else f"10.5555/bench.{rng.randint(1, 10**6)}"
             for _ in range(rng.randint(20, 40))]
    meta["cites"] = list(dict.fromkeys(cited))
    if slugs and rng.random() < 0.1:
        notes = f"Builds on [[{rng.choice(slugs)}]].\n\n{notes}"
    return notes


def generate(count: int, destination: Path, seed: int = 1, links: bool = False) -> Path:
    """Write a sitegen site with `count` papers into `destination` (replacing it); with `links`, arXiv ids,
    citations and mentions too."""
    rng = random.Random(seed)
    linked = random.Random(seed + 2)  # its own stream: every other field is as without links
    ids: list[str] = []
    slugs: list[str] = []
    sighted = random.Random(seed + 1)  # a stream of its own: the other fields are what they were before sightings
    shutil.rmtree(destination, ignore_errors=True)
    papers = destination / "content" / "papers"
    papers.mkdir(parents=True)
    (destination / "site.yaml").write_text(
        "title: Synthetic reading list\ndescription: A generated corpus for benchmarks.\n"
        "base_url: https://example.org/reading-list/\npage_size: 20\n", encoding="utf-8")
    shutil.copytree(REPO / "themes", destination / "themes")
    names = _names(max(1, int(count * 0.8)), rng)
    cumulative = _zipf_picker(len(names), rng)
    taken: set[str] = set()
    start = dt.date(2017, 1, 1).toordinal()
    span = dt.date(2026, 6, 30).toordinal() - start
    for i in range(count):
        title = _title(rng)
        authors = list(dict.fromkeys(names[bisect.bisect(cumulative, rng.random()) % len(names)]
                                     for _ in range(rng.randint(1, 25))))
        meta = {
            "title": title,
            "authors": authors,
            "date": dt.date.fromordinal(start + rng.randint(0, span)),
            "tags": rng.sample(TAGS, rng.randint(1, 5)),
            "added": dt.date(2026, 1 + i % 6, 1 + i % 28),
            "abstract": _abstract(rng),
        }
        sources = _sightings(title, meta["date"], 1 + i % 400, sighted)
        upvotes = [r["upvotes"] for r in sources if "upvotes" in r]
        if upvotes:
            meta["upvotes"] = upvotes[-1]
        meta["sources"] = sources
        slug = unique_slug(slugify(title), taken, f"{seed}-{i}")
        taken.add(slug)
        notes = _notes(rng)
        if links:
            arxiv = _arxiv(i, meta["date"])  # type: ignore[arg-type]
            notes = _links(ids, slugs, notes, meta, linked)
            meta = {**meta, "arxiv": arxiv}
            ids.append(arxiv)
            slugs.append(slug)
        (papers / f"{slug}.md").write_text(frontmatter.render(meta, notes), encoding="utf-8")
    return destination


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", type=int)
    parser.add_argument("destination", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--links", action="store_true", help="arXiv ids, citations and mentions too")
    args = parser.parse_args()
    generate(args.count, args.destination, args.seed, args.links)


if __name__ == "__main__":
    main()
