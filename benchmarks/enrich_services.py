"""A synthetic world of papers served as Hugging Face, arXiv and Semantic Scholar answer, for the enrich benchmark.

Every answer is a recorded answer of tests/ingest/enrich/fixtures/ with another paper's
fields put in (ids, titles, authors, abstracts, dates), so its size and shape are the
services' own: a Hugging Face search answer is ten items of the recorded Daily Papers item.
Bound to 127.0.0.1 on a free port; each request is logged (source, path) in order.
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import random
import threading
import urllib.parse
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from xml.sax.saxutils import escape

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "ingest" / "enrich" / "fixtures"
WORDS = ("sparse", "attention", "diffusion", "scaling", "token", "retrieval", "agents", "vision", "language",
         "reasoning", "robust", "efficient", "graph", "neural", "kernel", "memory", "policy", "reward", "latent",
         "contrastive", "federated", "quantized", "multimodal", "benchmark", "alignment", "speech", "protein",
         "causal", "transformer", "mixture", "experts", "video", "planning", "compiler", "hardware", "inference")
NAMES = ("Wei Zhang", "Ada Lovelace", "Marco Garosi", "Elisa Ricci", "Yuki Tanaka", "Priya Gupta", "Lukas Meyer",
         "Sofia Rossi", "Omar Haddad", "Chen Li", "Maria Silva", "Jonas Berg", "Aisha Khan", "Ivan Petrov")


@dataclass(frozen=True)
class Paper:
    arxiv: str
    title: str
    authors: tuple[str, ...]
    abstract: str
    date: dt.date
    listed: dt.date  # the day Hugging Face put it on Daily Papers
    on_hf: bool
    on_arxiv: bool
    daily: bool  # the curator imported it from a Daily Papers listing (else from an author's profile)


def world(count: int, seed: int = 1) -> list[Paper]:
    """`count` papers over two years: 85% imported from Daily Papers listings (all known to Hugging Face),
    15% from author profiles (60% of them on Hugging Face); 96% on arXiv, the rest on Semantic Scholar alone."""
    rng = random.Random(seed)
    papers = []
    start = dt.date(2024, 1, 1)
    for n in range(count):
        daily = rng.random() < 0.85
        on_arxiv = rng.random() < 0.96
        title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 10))).capitalize() + f" {n}"
        date = start + dt.timedelta(days=rng.randrange(730))
        papers.append(Paper(f"{24 + (date.year - 2024)}{date.month:02d}.{n:05d}", title,
                            tuple(rng.sample(NAMES, rng.randint(2, 7))),
                            " ".join(rng.choice(WORDS) for _ in range(rng.randint(120, 220))) + ".",
                            date, date + dt.timedelta(days=rng.randint(0, 3)),
                            on_hf=daily or (on_arxiv and rng.random() < 0.6), on_arxiv=on_arxiv, daily=daily))
    return papers


class Services:
    """The three services over one world, on 127.0.0.1; `log` holds (source, path) of each request in order."""

    def __init__(self, papers: list[Paper]):
        self.papers = papers
        self.by_title = {_key(p.title): p for p in papers}
        self.by_id = {p.arxiv: p for p in papers}
        self.log: list[tuple[str, str]] = []
        self._item = json.loads((FIXTURES / "hf" / "daily_papers_2026-03-06.json").read_text(encoding="utf-8"))[0]
        feed = (FIXTURES / "arxiv" / "id_2602.23229_circle.xml").read_text(encoding="utf-8")
        self._feed_head = feed[:feed.index("<entry>")]
        self._s2 = json.loads((FIXTURES / "s2" / "batch_arxiv.json").read_text(encoding="utf-8"))[0]
        self._rng = random.Random(7)
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    # -- answers -------------------------------------------------------------------------
    def answer(self, method: str, path: str, query: dict[str, str], body: bytes) -> tuple[int, str, str]:
        if path.startswith("/hf/"):
            self.log.append(("hf", path))
            return self._hf(path.removeprefix("/hf/api"), query)
        if path.startswith("/arxiv/"):
            self.log.append(("arxiv", path))
            return self._arxiv(query)
        self.log.append(("s2", path))
        return self._semantic(path.removeprefix("/s2/graph/v1"), query, body)

    def _hf(self, path: str, query: dict[str, str]) -> tuple[int, str, str]:
        if path == "/daily_papers":
            month = query.get("month", "")
            listed = [p for p in self.papers if p.on_hf and p.listed.strftime("%Y-%m") == month]
            page = int(query.get("p", "0"))
            return 200, "application/json", json.dumps([self._hf_item(p) for p in listed[page * 100:page * 100 + 100]])
        if path == "/papers/search":
            found = self.by_title.get(_key(query.get("q", "")))
            others = self._rng.sample(self.papers, min(9, len(self.papers)))  # a search always finds something
            items = ([found] if found is not None and found.on_hf else []) + [p for p in others if p.on_hf]
            return 200, "application/json", json.dumps([self._hf_item(p) for p in items[:10]])
        paper = self.by_id.get(path.removeprefix("/papers/"))
        if paper is None or not paper.on_hf:
            return 404, "application/json", '{"error":"Paper not found"}'
        return 200, "application/json", json.dumps(self._hf_item(paper)["paper"])

    def _hf_item(self, paper: Paper) -> dict[str, object]:
        item = copy.deepcopy(self._item)
        inner = item["paper"]
        inner["id"], inner["title"], inner["summary"] = paper.arxiv, paper.title, paper.abstract
        inner["publishedAt"] = f"{paper.date.isoformat()}T17:08:18.000Z"
        inner["authors"] = [{"_id": f"{i:024x}", "name": name, "hidden": False} for i, name in enumerate(paper.authors)]
        item["title"], item["summary"] = paper.title, paper.abstract
        item["publishedAt"] = f"{paper.listed.isoformat()}T09:00:00.000Z"
        return item

    def _arxiv(self, query: dict[str, str]) -> tuple[int, str, str]:
        if query.get("id_list"):
            found = [self.by_id.get(i) for i in query["id_list"].split(",")]
        else:
            phrases = [part.strip().removeprefix("ti:").strip('"') for part in query["search_query"].split(" OR ")]
            found = [self.by_title.get(_key(phrase)) for phrase in phrases]
        papers = [p for p in found if p is not None and p.on_arxiv][:int(query.get("max_results", "10"))]
        return 200, "application/atom+xml", self._feed_head + "".join(map(_entry, papers)) + "</feed>\n"

    def _semantic(self, path: str, query: dict[str, str], body: bytes) -> tuple[int, str, str]:
        if path == "/paper/search/match":
            paper = self.by_title.get(_key(query.get("query", "")))
            if paper is None:
                return 404, "application/json", '{"error":"Title match not found"}'
            return 200, "application/json", json.dumps({"data": [{**self._s2_row(paper), "matchScore": 180.5}]})
        ids = json.loads(body or b"{}").get("ids", [])
        rows = [self._s2_row(p) if (p := self.by_id.get(i.removeprefix("ARXIV:"))) else None for i in ids]
        return 200, "application/json", json.dumps(rows)

    def _s2_row(self, paper: Paper) -> dict[str, object]:
        row = copy.deepcopy(self._s2)
        row.update(title=paper.title, abstract=paper.abstract, year=paper.date.year,
                   publicationDate=paper.date.isoformat(),
                   authors=[{"authorId": str(1000 + i), "name": n} for i, n in enumerate(paper.authors)])
        row["externalIds"] = {"ArXiv": paper.arxiv, "CorpusId": 1} if paper.on_arxiv else {"CorpusId": 1}
        return row


def _key(title: str) -> str:
    return " ".join("".join(c if c.isalnum() else " " for c in title.lower()).split())


def _entry(paper: Paper) -> str:
    authors = "".join(f"<author><name>{escape(name)}</name></author>" for name in paper.authors)
    return (f"<entry><id>http://arxiv.org/abs/{paper.arxiv}v1</id><title>{escape(paper.title)}</title>"
            f"<updated>{paper.date.isoformat()}T17:08:18Z</updated>"
            f'<link href="https://arxiv.org/abs/{paper.arxiv}v1" rel="alternate" type="text/html"/>'
            f'<link href="https://arxiv.org/pdf/{paper.arxiv}v1" rel="related" type="application/pdf" title="pdf"/>'
            f"<summary>{escape(paper.abstract)}</summary>"
            f'<category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>'
            f"<published>{paper.date.isoformat()}T17:08:18Z</published>"
            f'<arxiv:primary_category term="cs.LG"/>{authors}</entry>')


def _handler(services: Services) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _reply(self, method: str) -> None:
            parts = urllib.parse.urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            status, kind, text = services.answer(method, parts.path, dict(urllib.parse.parse_qsl(parts.query)), body)
            data = text.encode()
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            self._reply("GET")

        def do_POST(self) -> None:
            self._reply("POST")

        def log_message(self, format: str, *args: object) -> None:
            pass

    return Handler
