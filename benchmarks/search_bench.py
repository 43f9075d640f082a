"""The search step measured alone, each way of feeding Pagefind on the same corpus (benchmarks/README.md, Search).

    python -m benchmarks.search_bench SITE --variant pages|glob|records|edit|api|lunr [--shard-size N]

SITE is a site root whose `public/` a `sitegen build --no-search` has written. `pages` is the
indexing step as it was (Pagefind over the whole output), `glob` the same over the paper pages
only, `records` what `sitegen build` does now (records from the model, in shards). Each prints one
JSON line: wall seconds, CPU seconds of the Pagefind runs, the peak memory of one run, and for
`records` the seconds spent making the model and the records. `edit` times the preview's refresh after
a notes edit (`--shard-size 500`, as the preview cuts its index). `lunr` builds one lunr.py index of the
same papers (`pip install lunr`; peak memory is the whole process's). `api` times the pagefind Python
package's own client adding custom records (`--papers` of them): it reads one answer per 0.1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import subprocess
import tempfile
import time
from pathlib import Path

from sitegen.publish import search


def _children() -> tuple[float, int]:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def pages(site: Path, glob: str | None) -> dict[str, object]:
    """Pagefind over the built output, as the indexing step ran before records (optionally `--glob`)."""
    exe = search.binary()
    assert exe is not None, "Pagefind is not installed"
    with tempfile.TemporaryDirectory() as out:
        excludes = [arg for selector in search.EXCLUDE_SELECTORS for arg in ("--exclude-selectors", selector)]
        command = [str(exe), "--site", str(site / "public"), "--output-path", out, *excludes, "--silent"]
        if glob:
            command += ["--glob", glob]
        started = time.perf_counter()
        subprocess.run(command, check=True)
        wall = time.perf_counter() - started
    cpu, peak = _children()
    return {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "peak_mb": round(peak / 1024)}


def records(site: Path, shard_size: int) -> dict[str, object]:
    """The step as `sitegen build` runs it: the model, its records, the shards indexed."""
    from sitegen.pipeline.site_engine import SiteEngine, search_records

    with tempfile.TemporaryDirectory() as work:
        started = time.perf_counter()
        engine = SiteEngine(site, Path(work) / "out")
        engine.engine.get("site")
        modelled = time.perf_counter()
        made = search_records(engine)
        recorded = time.perf_counter()
        result = search.index(Path(work) / "pagefind", made, shard_size=shard_size)
        done = time.perf_counter()
    assert result.ok, result.message
    cpu, _ = _children()
    return {"wall_s": round(done - recorded, 2), "cpu_s": round(cpu, 2), "peak_mb": round(result.peak_kb / 1024),
            "shards": result.shards, "model_s": round(modelled - started, 2),
            "records_s": round(recorded - modelled, 2), "bundle_mb": round(result.size / 1e6, 1), "files": result.files}


def edit(site: Path, shard_size: int) -> dict[str, object]:
    """The preview after a notes edit: the index made, one paper's notes changed, the index refreshed
    (the records made again, the edited shard indexed, the others kept, swapped in)."""
    from sitegen.pipeline.site_engine import SiteEngine, search_records
    from sitegen.publish.search_records import Record

    with tempfile.TemporaryDirectory() as work:
        engine = SiteEngine(site, Path(work) / "out")
        made = search_records(engine)
        (Path(work) / "site").mkdir()
        first = search.refresh(Path(work) / "site", made, shard_size)
        started = time.perf_counter()
        again = search_records(engine)
        middle = len(again) // 2
        again[middle] = Record(again[middle].path, again[middle].html.replace("</article>", "<p>edited</p></article>"))
        recorded = time.perf_counter()
        second = search.refresh(Path(work) / "site", again, shard_size)
        done = time.perf_counter()
    assert first.ok and second.ok and second.indexed == 1, (first, second)
    return {"wall_s": round(done - started, 2), "records_s": round(recorded - started, 2),
            "refresh_s": round(done - recorded, 2), "shards": second.shards, "first_s": round(first.seconds, 2)}


def lunr_index(site: Path) -> dict[str, object]:
    """Another maintained engine on the same papers: lunr.py (`pip install lunr`), whose one serialized index
    lunr.js loads whole in the browser."""
    import gzip

    from lunr import lunr  # type: ignore[import-not-found]

    from sitegen.pipeline.site_engine import SiteEngine

    with tempfile.TemporaryDirectory() as work:
        model = SiteEngine(site, Path(work) / "out").engine.get("site").site
    docs = [{"id": p.route, "title": p.entry.title, "authors": " ".join(a.name for a in p.authors),
             "body": f"{p.entry.notes_text} {p.entry.abstract}"} for p in (model.papers[s] for s in model.order)]
    before = resource.getrusage(resource.RUSAGE_SELF)
    started = time.perf_counter()
    index = lunr(ref="id", fields=[{"field_name": "title", "boost": 10}, {"field_name": "authors", "boost": 5}, "body"],
                 documents=docs)
    data = json.dumps(index.serialize(), separators=(",", ":")).encode()
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return {"wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
            "peak_mb": round(after.ru_maxrss / 1024), "index_mb": round(len(data) / 1e6, 1),
            "index_gzip_mb": round(len(gzip.compress(data)) / 1e6, 1)}


def api(site: Path, papers: int) -> dict[str, object]:
    """The pagefind package's client adding `papers` custom records (no HTML), as its documentation shows."""
    from pagefind.index import PagefindIndex  # type: ignore[import-not-found]

    from sitegen.pipeline.site_engine import SiteEngine

    with tempfile.TemporaryDirectory() as work:
        model = SiteEngine(site, Path(work) / "out").engine.get("site").site
        chosen = [model.papers[slug] for slug in sorted(model.order)[:papers]]

        async def run() -> None:
            async with PagefindIndex(config={"output_path": str(Path(work) / "pagefind")}) as index:
                await asyncio.gather(*(index.add_custom_record(
                    url=f"/{p.route}", content=f"{p.entry.title} {p.entry.notes_text} {p.entry.abstract}",
                    language="en", meta={"title": p.entry.title},
                    filters={"author": [a.name for a in p.authors], "tag": [t.name for t in p.tags]}) for p in chosen))

        started = time.perf_counter()
        asyncio.run(run())
        wall = time.perf_counter() - started
    cpu, peak = _children()
    return {"papers": papers, "wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "peak_mb": round(peak / 1024)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("site", type=Path)
    parser.add_argument("--variant", choices=("pages", "glob", "records", "edit", "api", "lunr"), required=True)
    parser.add_argument("--shard-size", type=int, default=search.SHARD_SIZE)
    parser.add_argument("--papers", type=int, default=200)
    args = parser.parse_args()
    site = args.site.absolute()
    if args.variant == "pages":
        figures = pages(site, None)
    elif args.variant == "glob":
        figures = pages(site, "papers/*/index.html")
    elif args.variant == "records":
        figures = records(site, args.shard_size)
    elif args.variant == "edit":
        figures = edit(site, args.shard_size)
    elif args.variant == "lunr":
        figures = lunr_index(site)
    else:
        figures = api(site, args.papers)
    print(json.dumps({"variant": args.variant, "shard_size": args.shard_size, **figures}), flush=True)


if __name__ == "__main__":
    main()
