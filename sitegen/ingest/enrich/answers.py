"""What a lookup gives back: an answer (`Response`), or a failure the user can act on (`EnrichError`).

Apart from the client (http.py) so that the store of answers (store.py), which the client uses, need not import it.
"""

from __future__ import annotations

import datetime as dt
import json
import urllib.parse
from dataclasses import dataclass

from sitegen.common.errors import Diagnostic, Location


class EnrichError(Exception):
    """A lookup that failed in a way the user can act on: a code, a message and a hint."""

    code = "E1001"
    hint = ""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message = message
        if hint is not None:
            self.hint = hint

    def diagnostic(self, location: Location) -> Diagnostic:
        """This failure as the house diagnostic, at the entry it was looked up for."""
        return Diagnostic(location, self.code, self.message, self.hint)


class Unreachable(EnrichError):
    """A source that could not be reached at all: refused, unresolvable, or still failing after every retry."""

    code = "E1000"
    hint = "check the network connection, or run again later; answers already stored are kept"

    def __init__(self, host: str, reason: str):
        super().__init__(f"could not reach {host}: {reason}")
        self.host = host
        self.reason = reason


class Throttled(Unreachable):
    """A source that kept answering 429 (too many requests) through every wait: it is there, but will not answer."""

    hint = "the service is throttling requests: run again later (answers already stored are kept), or with a " \
           "larger --delay"


class SourceError(EnrichError):
    """A source that answered, but not with something usable (an unexpected status or a malformed body)."""

    code = "E1001"
    hint = "answers are kept under content/lookups/: delete this one, or refresh the lookup, to ask again"


@dataclass(frozen=True)
class Response:
    """One answer: where it came from, its status, its text, and the day it was retrieved."""

    url: str
    status: int
    body: str
    retrieved: dt.date
    stored: bool = False  # read from the site's store, not asked for

    def json(self) -> object:
        """The body as JSON; SourceError when it is not (a proxy's HTML page, a cut-off answer)."""
        try:
            return json.loads(self.body)
        except ValueError as exc:
            raise SourceError(f"{host_of(self.url)} answered with something that is not JSON: {exc}") from None


def host_of(url: str) -> str:
    """The host (and port) a URL names: the unit pacing and error messages speak of."""
    return urllib.parse.urlsplit(url).netloc or url
