"""The site's long lists as a page reads them: each part it shows is a read of its own.

A home page shows ten papers of the site's order and the number of them all; the tags
page and each home page show every tag's name and number of papers. Reading the whole
order (or every tag's papers) made each of 500 home pages depend on all 10,000 papers'
places, so a title edit, which moves a paper among those of its day, rendered all of
them again to write one. Here the order is read as its length and the slices a page
takes (`count`, `order_slice`), and tags and years as summaries (`tag_counts`,
`year_counts`: slug, name, number of papers), each a small step with its own
fingerprint: a page is rendered again when what it showed moved, as Hugo records a
page's dependencies while it renders. Anything else a page asks of a tag or a year
reads that tag or year whole, so a theme sees the same attributes as ever.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload

from ...common.digest import digest
from ..engine.graph import Context, Step

TagRow = tuple[str, str, bool, int]  # slug, name, is it a category, papers
MonthRow = tuple[int, str, int]  # number, name, papers
YearRow = tuple[str, str, int, int, tuple[int, ...], tuple[MonthRow, ...]]  # slug, label, year, papers, a month's,
# and each month's


def steps() -> list[Step]:
    return [
        Step("count", 5, lambda ctx, arg: len(ctx.get("order")), str),
        Step("order_slice", 5, order_slice, digest),
        Step("home_slice", 5, lambda ctx, bounds: tuple(ctx.get("home")[bounds[0]:bounds[1]]), digest),
        Step("tag_counts", 5, tag_counts, digest),
        Step("year_counts", 5, year_counts, digest),
    ]


def order_slice(ctx: Context, bounds: tuple[int, int]) -> tuple[str, ...]:
    start, stop = bounds
    return tuple(ctx.get("order")[start:stop])


def tag_counts(ctx: Context, arg: None) -> tuple[TagRow, ...]:
    return tuple((t.slug, t.name, t.is_category, len(t.papers)) for t in ctx.get("tags"))


def year_counts(ctx: Context, arg: None) -> tuple[YearRow, ...]:
    return tuple((y.slug, y.label, y.year, len(y.papers), y.counts,
                  tuple((m.number, m.name, len(m.papers)) for m in y.months)) for y in ctx.get("years"))


class OrderView(Sequence[str]):
    """The site's order: its length and its slices each read apart, anything else read whole."""

    __slots__ = ("_ctx",)
    WHOLE, SLICE = "order", "order_slice"

    def __init__(self, ctx: Context):
        self._ctx = ctx

    def __len__(self) -> int:
        return int(self._ctx.get("count"))

    def __bool__(self) -> bool:
        return len(self) > 0

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...

    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice) and index.step in (None, 1):
            start, stop = index.start or 0, index.stop
            if start < 0 or stop is None or stop < 0:
                start, stop, _ = index.indices(len(self))
            return self._ctx.get(self.SLICE, (start, max(start, stop)))
        return self._ctx.get(self.WHOLE)[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self._ctx.get(self.WHOLE))


class HomeView(OrderView):
    """The home page's order (`site.yaml`'s `home_order`): every paper, so its length is the order's."""

    __slots__ = ()
    WHOLE, SLICE = "home", "home_slice"


class Counted(Sequence[str]):
    """A tag's or year's papers as a list of tags or years shows them: their number known, the papers read
    only when a page goes through them."""

    __slots__ = ("_count", "_papers")

    def __init__(self, count: int, papers: Callable[[], Sequence[str]]):
        self._count, self._papers = count, papers

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: Any) -> Any:
        return self._papers()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self._papers())


class PartView:
    """A tag, year or month in a list of them: its summary's fields, and the rest read from the part whole."""

    __slots__ = ("_fields", "_whole")

    def __init__(self, fields: dict[str, Any], whole: Callable[[], Any]):
        self._fields, self._whole = fields, whole

    def __getattr__(self, name: str) -> Any:
        fields = self._fields
        if name in fields:
            return fields[name]
        if name == "papers":
            return Counted(fields["count"], lambda: self._whole().papers)
        return getattr(self._whole(), name)

    def __repr__(self) -> str:
        return f"<{self._fields}>"


def tag_views(ctx: Context) -> tuple[PartView, ...]:
    return tuple(PartView({"slug": slug, "name": name, "is_category": category, "count": count},
                          lambda slug=slug: ctx.get("tag", slug))  # type: ignore[misc]
                 for slug, name, category, count in ctx.get("tag_counts"))


def year_views(ctx: Context) -> tuple[PartView, ...]:
    views = []
    for slug, label, year, count, counts, months in ctx.get("year_counts"):
        def whole(slug: str = slug) -> Any:
            return ctx.get("year", slug)

        def month(number: int, whole: Callable[[], Any] = whole) -> Any:
            return next(m for m in whole().months if m.number == number)

        views.append(PartView({"slug": slug, "label": label, "year": year, "count": count, "counts": counts,
                               "months": tuple(PartView({"number": n, "name": name, "count": c},
                                                        lambda n=n, month=month: month(n))  # type: ignore[misc]
                                               for n, name, c in months)},
                              whole))
    return tuple(views)
