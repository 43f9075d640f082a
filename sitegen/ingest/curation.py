"""What a curator says of a paper when adding it by hand (`sitegen new --status --rating --notes`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Curation:
    """The curator's verdict on a new entry: its reading status, rating (1 to 5) and notes."""

    status: str = "to-read"
    rating: int | None = None
    notes: str = ""

    def fields(self) -> dict[str, object]:
        """The front-matter fields it sets."""
        return {"status": self.status} | ({"rating": self.rating} if self.rating is not None else {})
