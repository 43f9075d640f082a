"""How many bytes one stored answer takes in `content/lookups/`, before and after answers are cut down.

    python -m benchmarks.lookup_sizes [--git N]

For each recorded answer of tests/ingest/enrich/fixtures/, and for a Hugging Face title
search of ten items in the recorded shape, prints the answer's size as sent, the file an
older sitegen stored (the whole answer) and the file sitegen stores now, each also as
zlib-compressed (about what git keeps of a file). Seconds to run; no network.

`--git N` commits N such searches (their abstracts' words shuffled, so no two files share
text) to a scratch repository as stored now, then each again refreshed (other upvotes, a
later day), and prints the pack's bytes per answer after each commit and `git gc`: as an older
sitegen stored them (whole), as stored now, and as stored now but gzipped. A minute or so for 100.
"""

from __future__ import annotations

import argparse
import copy
import datetime as dt
import gzip
import json
import random
import subprocess
import tempfile
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

from sitegen.ingest.enrich.answers import Response
from sitegen.ingest.enrich.store import Store

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "ingest" / "enrich" / "fixtures"
ATOM = "{http://www.w3.org/2005/Atom}"
SEARCH = "https://huggingface.co/api/papers/search?q=Large+Multimodal+Models&limit=10"
DAY = dt.date(2026, 5, 19)


def recorded_papers() -> list[tuple[str, str]]:
    """(title, abstract) of the recorded papers with a full-length abstract, in a fixed order."""
    found: dict[str, str] = {}
    for path in sorted(FIXTURES.glob("arxiv/*.xml")):
        for entry in ET.parse(path).getroot().iterfind(f"{ATOM}entry"):
            found.setdefault(" ".join((entry.findtext(f"{ATOM}title") or "").split()),
                             (entry.findtext(f"{ATOM}summary") or "").strip())
    for path in sorted(FIXTURES.glob("s2/batch_*.json")):
        for row in json.loads(path.read_text(encoding="utf-8")):
            if row and "title" in row:  # a batch asked for references only carries ids
                found.setdefault(row["title"], row.get("abstract") or "")
    return [(title, text) for title, text in found.items() if len(text) >= 800]


def hf_search_answer(items: int = 10, seed: int | None = None, votes: int = 0) -> str:
    """A `/papers/search` answer as Hugging Face sends it (compact JSON) of `items` items, each the recorded
    Daily Papers item with another recorded paper's title and abstract in both of its places and the six
    recorded authors of hf/paper_2407.13168.json (five of them with a claimed Hub account). With a `seed`,
    the words of each title, abstract and keyword list are shuffled and every id and avatar drawn anew:
    answers that share no paper, as different searches do."""
    rng = random.Random(seed)
    item = json.loads((FIXTURES / "hf" / "daily_papers_2026-03-06.json").read_text(encoding="utf-8"))[0]
    authors = json.loads((FIXTURES / "hf" / "paper_2407.13168.json").read_text(encoding="utf-8"))["authors"]
    papers = recorded_papers()
    answer = []
    for n in range(items):
        title, abstract = papers[n % len(papers)]
        one = copy.deepcopy(item)
        one["paper"].update(id=f"2603.{n:05d}", title=title, summary=abstract, authors=copy.deepcopy(authors),
                            upvotes=n * 7 % 40 + votes)
        if seed is not None:
            _draw(one, rng)
        one.update(title=one["paper"]["title"], summary=one["paper"]["summary"])
        answer.append(one)
    return json.dumps(answer, ensure_ascii=False, separators=(",", ":"))


def _draw(data: object, rng: random.Random) -> None:
    """Shuffle the words of the paper's own text and draw its ids anew (see hf_search_answer)."""
    if isinstance(data, list):
        for value in data:
            _draw(value, rng)
    elif isinstance(data, dict):
        for key, value in data.items():
            if key in ("title", "summary"):
                data[key] = " ".join(rng.sample(value.split(), len(value.split())))
            elif key == "ai_keywords":
                data[key] = rng.sample(value, len(value))
            elif key in ("_id", "discussionId"):
                data[key] = f"{rng.getrandbits(96):024x}"
            elif key == "avatarUrl":
                data[key] = f"/avatars/{rng.getrandbits(128):032x}.svg"
            else:
                _draw(value, rng)


def whole(response: Response) -> str:
    """The file an older sitegen stored for an answer: all of it."""
    record = {"body": response.body, "retrieved": response.retrieved.isoformat(), "status": response.status,
              "url": response.url}
    return json.dumps(record, sort_keys=True, ensure_ascii=False, indent=1) + "\n"


def sizes(source: str, response: Response) -> tuple[int, int, int, int, int]:
    """Bytes: as sent; stored whole, and compressed; stored now, and compressed."""
    with tempfile.TemporaryDirectory() as scratch:
        now = Store(Path(scratch)).save(source, response).read_bytes()
    before = whole(response).encode()
    return (len(response.body.encode()), len(before), len(zlib.compress(before)), len(now),
            len(zlib.compress(now)))


def answers() -> list[tuple[str, str, Response]]:
    """(name, source, answer) for every recorded answer and the ten-item search."""
    found = []
    for path in sorted(FIXTURES.glob("*/*")):
        if path.suffix in (".json", ".xml"):
            url = f"https://example.org/{path.name}"
            found.append((f"{path.parent.name}/{path.name}", path.parent.name,
                          Response(url, 200, path.read_text(encoding="utf-8"), DAY)))
    found.append(("hf search, 10 items (recorded shape)", "hf", Response(SEARCH, 200, hf_search_answer(), DAY)))
    return found


def packed(count: int, how: str) -> tuple[int, int]:
    """Bytes per answer of a git pack holding `count` stored searches, then also their refreshed versions;
    `how` is "whole" (as an older sitegen stored them), "text" (as now) or "gzip" (now, gzipped)."""
    sizes = []
    with tempfile.TemporaryDirectory() as scratch:
        repo = Path(scratch)
        git = ["git", "-C", scratch, "-c", "user.name=bench", "-c", "user.email=bench@example.org"]
        subprocess.run([*git, "init", "-q"], check=True)
        for refresh, day in enumerate((DAY, DAY + dt.timedelta(days=30))):
            for n in range(count):
                response = Response(f"{SEARCH}&n={n}", 200, hf_search_answer(seed=n, votes=3 * refresh), day)
                path = Store(repo).save("hf", response)
                if how == "whole":
                    path.write_text(whole(response), encoding="utf-8")
                elif how == "gzip":
                    path.write_bytes(gzip.compress(path.read_bytes(), mtime=0))
            subprocess.run([*git, "add", "-A"], check=True)
            subprocess.run([*git, "commit", "-qm", day.isoformat()], check=True)
            subprocess.run([*git, "repack", "-q", "-a", "-d", "-f"], check=True)  # every delta found anew
            sizes.append(sum(p.stat().st_size for p in (repo / ".git" / "objects" / "pack").glob("*.pack")))
    return sizes[0] // count, (sizes[1] - sizes[0]) // count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--git", type=int, metavar="N", help="also measure N stored searches in a git pack")
    args = parser.parse_args()
    print(f"{'answer':44} {'sent':>7} {'before':>7} {'(zlib)':>7} {'after':>7} {'(zlib)':>7} {'after/before':>12}")
    for name, source, response in answers():
        sent, before, before_z, after, after_z = sizes(source, response)
        print(f"{name:44} {sent:7,} {before:7,} {before_z:7,} {after:7,} {after_z:7,} {after / before:12.0%}")
    if args.git:
        for how, label in (("whole", "whole, as before"), ("text", "as now"), ("gzip", "as now, gzipped")):
            first, refresh = packed(args.git, how)
            print(f"git pack of {args.git} searches stored {label}: {first:,} bytes per answer, "
                  f"then {refresh:,} more per refreshed answer")


if __name__ == "__main__":
    main()
