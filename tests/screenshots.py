"""Screenshots of every kind of page, to look at after a change to the theme: `python -m tests.screenshots`.

Builds the bundled reading list into a temporary folder, with a few papers marked as a curator
would (a reading status and a rating: tests/site_factory.py, CURATED) and seen on more days (SIGHTINGS),
serves it under /reading-list/ as GitHub Pages would, and saves what a 390×844 phone and a 1280×900
desktop show on arrival (light and dark) as tests/artifacts/screens/<page>-<width>-<scheme>.png;
`--full-page` saves whole pages instead.
For each screen it prints how many papers have their title above the fold (see `titles_above_fold`).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from sitegen.pipeline.build import build
from tests.site_factory import copy_site, curate, sight
from tests.support import ARTIFACTS_DIR, launch_chromium, open_page, screenshot, serve_directory
from tests.support.browser import RecordedPage

# One page of each kind the site has (the paper is one with notes, identifiers and a panel of related papers;
# "signals" the charts of a paper seen on three days)
PAGES = {"home": "", "paper": "papers/vtc-dnn-compilation-with-virtual-tensors-for-data-movement/",
         "signals": "papers/tpi-llm-serving-70b-scale-llms-efficiently-on-low-resource/#signals-heading",
         "rising": "rising/",
         "tag": "tags/compilers/", "author": "authors/ahan-gupta/", "network": "network/", "queue": "queue/",
         "authors": "authors/",
         "tags": "tags/",
         "categories": "categories/", "category": "categories/cs-lg/", "timeline": "timeline/",
         "year": "timeline/2026/", "recent": "recent/", "search": "search/?q=attention", "404": "404.html"}
SCREENS = ((390, 844), (1280, 900))
SCHEMES = ("light", "dark")
# Papers whose title box lies wholly inside the first screen: the density a reader gets on arrival
TITLES_ABOVE_FOLD = """() => [...document.querySelectorAll('.item-title, .pick-title')]
    .filter(el => { const box = el.getBoundingClientRect(); return box.top >= 0 && box.bottom <= innerHeight; })
    .length"""


def titles_above_fold(page: RecordedPage) -> int:
    """How many papers (list items and the home page's "start here" picks) show their whole title before any
    scrolling."""
    return int(page.evaluate(TITLES_ABOVE_FOLD))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ARTIFACTS_DIR / "screens", help="folder for the PNG files")
    parser.add_argument("--full-page", action="store_true", help="whole pages, not the first screen")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        root, output = copy_site(Path(tmp) / "site"), Path(tmp) / "public"
        curate(root)
        sight(root)
        build(root, output, "https://example.github.io/reading-list/", search=False)
        with serve_directory(output, "/reading-list/") as base_url, launch_chromium() as browser:
            for name, route in PAGES.items():
                page_file = route.partition("?")[0].partition("#")[0]
                if not (output / (page_file if page_file.endswith(".html") else page_file + "index.html")).is_file():
                    print(f"{name}: no {route}index.html in this build")
                    continue
                for width, height in SCREENS:
                    for scheme in SCHEMES:
                        # reduced motion: a page opened at an anchor is there at once, not scrolling smoothly
                        with open_page(browser, viewport={"width": width, "height": height},
                                       color_scheme=scheme, reduced_motion="reduce") as page:
                            page.goto(base_url.url(route), wait_until="load")
                            if name == "network":  # drawn in the page; its script marks it ready
                                page.wait_for_selector(".network[data-ready]", state="attached")
                            path = screenshot(page, f"{name}-{width}-{scheme}", full_page=args.full_page,
                                              directory=args.out)
                            print(f"{path}: {titles_above_fold(page)} titles above the fold")


if __name__ == "__main__":
    main()
