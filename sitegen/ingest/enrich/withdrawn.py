"""Whether a source says a paper was withdrawn, and whether a text is only the withdrawal notice.

arXiv withdraws a paper with a new version whose comment says so ("This paper has been
withdrawn by the author due to …"); older withdrawals replaced the abstract with the same
notice. A notice is read at the start of a clause only, so a comment that merely mentions
another paper's withdrawal ("v2: supersedes the withdrawn arXiv:1901.00001") is not one.
Pure functions: the entry keeps `withdrawn: true`, and its last real abstract.
"""

from __future__ import annotations

import re

_SUBJECT = r"(?:(?:this|the|our)\s+)?(?:paper|article|manuscript|submission|preprint|version|work|note|report)"
_NOTICE = re.compile(
    rf"{_SUBJECT}\s+(?:(?:has|have)\s+been|as\s+been|is|was|were)\s+withdrawn\b"  # This paper has been withdrawn
    rf"|{_SUBJECT}\s+withdrawn\b"  # Paper withdrawn
    r"|withdrawn(?:\s*$|\s*[(!]|\s+(?:by|due|because|as|for|at|on|upon|after)\b)"  # Withdrawn; withdrawn by the authors
    r"|(?:the\s+)?authors?\s+(?:(?:have|has)\s+)?(?:withdraw|withdrew|withdrawn)\s+(?:this|the)\b",  # …withdraw this
    re.IGNORECASE,
)
# Clauses end at a semicolon, a line break, or a stop, colon or exclamation mark before a space:
# `arXiv:1901.00001` and `2.79 million` stay whole.
_CLAUSE_END = re.compile(r"[;\n]|[.:!](?=\s|$)")


def _clauses(text: str) -> list[str]:
    return [clause.strip() for clause in _CLAUSE_END.split(text) if clause.strip()]


def says_withdrawn(comment: str) -> bool:
    """Whether a comment (arXiv's `arxiv:comment`) announces this paper's withdrawal in one of its clauses."""
    return any(_NOTICE.match(clause) for clause in _clauses(comment))


def is_notice(abstract: str) -> bool:
    """Whether an abstract is a withdrawal notice in place of the abstract: it opens with one."""
    clauses = _clauses(abstract)
    return bool(clauses) and _NOTICE.match(clauses[0]) is not None
