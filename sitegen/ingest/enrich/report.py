"""What `sitegen enrich` found, as rows for the terminal's table and as a Markdown report for `--report`."""

from __future__ import annotations

from .match import Scored
from .run import Outcome

CANDIDATES_SHOWN = 3


def rows(outcome: Outcome) -> list[tuple[str, str, str]]:
    """(entry, outcome, detail) for every entry looked up, resolved ones first."""
    table = []
    for target, resolved, changed in outcome.resolved:
        paper = resolved.record.arxiv or resolved.record.doi or resolved.record.id
        detail = f"{paper}: {resolved.how}" + (f"; wrote {', '.join(changed)}" if changed else "; nothing new")
        if target.shown in outcome.kept:
            detail += f"; the importer's names kept: {outcome.kept[target.shown]}"
        table.append((target.shown, "resolved", detail))
    for target, ambiguous in outcome.ambiguous:
        table.append((target.shown, "ambiguous", _candidates(ambiguous.candidates)))
    for target, not_found in outcome.unresolved:
        table.append((target.shown, "unresolved", _candidates(not_found.rejected) or "no candidate found"))
    for shown, why in outcome.skipped:
        table.append((shown, "skipped", why))
    for shown, count in outcome.citations.written:
        refused = len(outcome.citations.refused.get(shown, ()))
        left = f"; {refused} given an id that is not one left out" if refused else ""
        table.append((shown, "cites", f"wrote cites: {count} {'paper' if count == 1 else 'papers'}{left}"))
    return table


def _candidates(scored: tuple[Scored, ...]) -> str:
    shown = [f"{_label(s)} ({'; '.join(s.failures) or s.how})" for s in scored[:CANDIDATES_SHOWN]]
    more = len(scored) - CANDIDATES_SHOWN
    return " | ".join(shown) + (f" | and {more} more" if more > 0 else "")


def _label(scored: Scored) -> str:
    record = scored.record
    paper = record.arxiv or record.doi or f"{record.source}:{record.id}"
    year = record.date.year if record.date else record.year
    return f"{paper} {record.title!r}" + (f" {year}" if year else "")


def summary(outcome: Outcome) -> str:
    profiles = f"; {len(outcome.profiles)} author profile(s) written" if outcome.profiles else ""
    cited = f"; {len(outcome.citations.written)} entries: cites written" if outcome.citations.asked else ""
    return (f"{len(outcome.resolved)} resolved ({len(outcome.written)} entries written), "
            f"{len(outcome.ambiguous)} ambiguous, {len(outcome.unresolved)} unresolved, "
            f"{len(outcome.skipped)} skipped{profiles}{cited}")


def markdown(outcome: Outcome) -> str:
    """The report file: a summary line, then a table of every entry and what became of it."""
    lines = ["# sitegen enrich", "", summary(outcome), "", "| entry | outcome | detail |", "| --- | --- | --- |"]
    for entry, result, detail in rows(outcome):
        lines.append(f"| `{_cell(entry)}` | {result} | {_cell(detail)} |")
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    """Text as one Markdown table cell: no line break, no column separator, no markup taken from titles."""
    return " ".join(text.split()).replace("\\", "\\\\").replace("|", "\\|").replace("`", "\\`")
