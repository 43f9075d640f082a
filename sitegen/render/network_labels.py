"""Where the network drawing's names go: beside their dot where there is room, else nowhere.

A name drawn over another name or over someone else's dot cannot be read, and a drawing
where half the dots are named at random reads no better. So the names are placed at build
time, the authors with most papers first, each in the first of four places around its dot
(right, left, below, above) that overlaps no name already placed and no other dot; an
author whose full name fits nowhere is tried as "A. Family", then left unnamed (their dot
still carries their name as a tooltip, and the panel and the list beside the drawing name
everyone). Text is measured by an estimate: the theme sets the drawing's font, and the
estimate is on the wide side of it, so a box placed here holds its rendered text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

WIDTH = 0.6  # a character's width as a share of the font size: generous for a sans-serif
ASCENT, DESCENT = 0.8, 0.25  # of the font size, above and below the baseline
GAP = 3.0  # between a dot and its name
CELL = 64.0  # the grid cell of the index of boxes, in the drawing's units


class Box(NamedTuple):
    """A rectangle in the drawing's units."""

    left: float
    top: float
    right: float
    bottom: float

    def overlaps(self, other: Box) -> bool:
        return (self.left < other.right and other.left < self.right
                and self.top < other.bottom and other.top < self.bottom)


class Label(NamedTuple):
    """A name placed: its text, where its baseline starts (x is the anchor's), how it is anchored, its box."""

    text: str
    x: float
    y: float
    anchor: str  # start, end or middle
    box: Box


class Boxes:
    """Boxes indexed by the grid cells they cover, so a test for overlap looks at the neighbourhood only."""

    def __init__(self) -> None:
        self._cells: dict[tuple[int, int], list[tuple[Box, int]]] = {}

    def _covered(self, box: Box) -> Iterator[tuple[int, int]]:
        for i in range(int(box.left // CELL), int(box.right // CELL) + 1):
            for j in range(int(box.top // CELL), int(box.bottom // CELL) + 1):
                yield i, j

    def add(self, box: Box, owner: int = -1) -> None:
        """Index a box; `owner` is the dot it belongs to (its own name may overlap it)."""
        for cell in self._covered(box):
            self._cells.setdefault(cell, []).append((box, owner))

    def free(self, box: Box, owner: int) -> bool:
        """Whether the box overlaps nothing indexed but what belongs to `owner`."""
        return not any(whose != owner and other.overlaps(box)
                       for cell in self._covered(box) for other, whose in self._cells.get(cell, ()))


def text_box(text: str, x: float, y: float, size: float, anchor: str) -> Box:
    """The box of `text` at font `size` whose baseline's anchor point is (x, y)."""
    width = len(text) * WIDTH * size
    left = x if anchor == "start" else x - width if anchor == "end" else x - width / 2
    return Box(left, y - ASCENT * size, left + width, y + DESCENT * size)


def dot_box(x: float, y: float, r: float) -> Box:
    return Box(x - r, y - r, x + r, y + r)


def short(name: str) -> str:
    """A name with its given names cut to initials: 'Ankit Gupta' is 'A. Gupta'."""
    parts = name.split()
    return " ".join([*(p[0] + "." for p in parts[:-1]), *parts[-1:]]) if len(parts) > 1 else name


def places(x: float, y: float, r: float, size: float) -> tuple[tuple[float, float, str], ...]:
    """The places tried for a dot's name, best first: right, left, below, above."""
    middle = y + (ASCENT - DESCENT) * size / 2
    return ((x + r + GAP, middle, "start"), (x - r - GAP, middle, "end"),
            (x, y + r + GAP + ASCENT * size, "middle"), (x, y - r - GAP - DESCENT * size, "middle"))


def name_dots(dots: Sequence[tuple[float, float, float]], names: Sequence[str], size: float,
              taken: Sequence[Box] = (), shorter: Callable[[str], str] | None = None) -> list[Label | None]:
    """Each dot's label, or None where it fits nowhere; dots are named in the order given (most papers first).

    `taken` holds what names must not cover beside the dots (the clusters' names); `shorter` gives the shorter
    text tried where the name does not fit (a person's initial and family name by default).
    """
    shorter = shorter or short
    index = Boxes()
    for box in taken:
        index.add(box)
    for n, (x, y, r) in enumerate(dots):
        index.add(dot_box(x, y, r), n)
    labels: list[Label | None] = []
    for n, ((x, y, r), name) in enumerate(zip(dots, names, strict=True)):
        found = _fit(index, n, (name, shorter(name)), places(x, y, r, size), size)
        if found is not None:
            index.add(found.box, n)
        labels.append(found)
    return labels


def _fit(index: Boxes, owner: int, texts: Sequence[str], spots: Sequence[tuple[float, float, str]],
         size: float) -> Label | None:
    """The first text, in the first spot, whose box is free."""
    for text in dict.fromkeys(texts):
        for x, y, anchor in spots:
            box = text_box(text, x, y, size, anchor)
            if index.free(box, owner):
                return Label(text, x, y, anchor, box)
    return None
