"""Where a paper itself is: the buttons of its page and the identifiers its citations carry.

Everything here is derived from an entry's `arxiv`, `doi` and `links` when a page or a
citation is written, never stored: arXiv's DataCite DOI (10.48550/arXiv.<id>), for one,
follows from the arXiv id, so an entry's `doi` holds only a publisher's DOI. The page, its
Highwire tags, its JSON-LD, BibTeX, RIS, CSL-JSON and papers.json all read the same
answers from here, so they cannot disagree about which PDF or DOI a paper has.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, quote_plus, urlsplit

if TYPE_CHECKING:
    from ..content.loader import Entry

ARXIV = "https://arxiv.org"
ARXIV_DOI_PREFIX = "10.48550/arXiv."  # arXiv's DataCite DOIs, one per paper (not per version)
_VERSION = re.compile(r"v\d+\Z")
_NEW_STYLE = re.compile(r"\d{4}\.\d{4,5}\Z")  # Hugging Face's paper pages know only these ids
# Labels of the buttons by link kind; a kind not listed is shown with its first letter capitalized
LABELS = {
    "pdf": "PDF", "arxiv": "arXiv", "abs": "Abstract", "doi": "DOI", "hf": "Hugging Face", "code": "Code",
    "project": "Project", "html": "HTML", "slides": "Slides", "video": "Video", "poster": "Poster", "blog": "Blog",
    "demo": "Demo", "data": "Data", "dataset": "Dataset", "model": "Model", "openreview": "OpenReview",
    "github": "GitHub", "dblp": "DBLP", "acl": "ACL Anthology", "pwc": "Papers with Code", "talk": "Talk",
    "website": "Website", "supplement": "Supplement", "semantic_scholar": "Semantic Scholar",
}
# The buttons that lead to the paper come first, in this order; other links follow in the entry's order
FIRST = ("pdf", "arxiv", "abs", "doi", "hf", "code", "project")
# A venue's name says whether it is a journal; any other venue is taken for a conference's proceedings
# (the usual case in computing), and a preprint server is no venue at all.
_JOURNAL = re.compile(r"\b(journal|transactions|letters|magazine|review|annals|surveys|bulletin|quarterly|"
                      r"nature|science|plos|frontiers in|ieee access|"
                      r"proceedings of the (ieee|vldb endowment|acm on|national academy|royal society)|"
                      r"communications of the acm|jmlr|tmlr|tpami|tacl|pvldb|pacmpl|cacm)\b", re.IGNORECASE)
_PREPRINT = re.compile(r"^\s*(arxiv|corr|biorxiv|medrxiv|chemrxiv|ssrn|openreview|preprint)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Link:
    """One button of a paper page: what it leads to (`kind`), what it says, where it goes."""

    kind: str
    label: str
    url: str


# Sites and projects a link may be named after, as each writes its own name (capitalizing 'vllm' gives 'Vllm')
SITES = {
    "vllm": "vLLM", "sglang": "SGLang", "tensorrt-llm": "TensorRT-LLM", "llama.cpp": "llama.cpp", "ollama": "Ollama",
    "pytorch": "PyTorch", "tensorflow": "TensorFlow", "jax": "JAX", "triton": "Triton", "cuda": "CUDA",
    "deepspeed": "DeepSpeed", "megatron": "Megatron", "huggingface": "Hugging Face", "github": "GitHub",
    "gitlab": "GitLab", "youtube": "YouTube", "colab": "Colab", "kaggle": "Kaggle", "zenodo": "Zenodo",
    "wandb": "W&B", "twitter": "Twitter", "x": "X", "linkedin": "LinkedIn", "medium": "Medium",
    "substack": "Substack", "bilibili": "Bilibili", "arxiv": "arXiv", "biorxiv": "bioRxiv", "ssrn": "SSRN",
    "acm": "ACM", "ieee": "IEEE", "neurips": "NeurIPS", "icml": "ICML", "iclr": "ICLR", "mlsys": "MLSys",
    "usenix": "USENIX", "osdi": "OSDI", "sosp": "SOSP", "isca": "ISCA", "micro": "MICRO", "asplos": "ASPLOS",
}


def label(kind: str) -> str:
    """A link kind as a button says it: 'pdf' -> 'PDF', 'hf' -> 'Hugging Face', 'vllm' -> 'vLLM'. A kind the
    tables do not know is shown as the curator wrote it ('vLLM' stays 'vLLM'), only a lower-case one capitalized."""
    known = LABELS.get(kind.lower()) or SITES.get(kind.lower())
    if known:
        return known
    words = kind.replace("_", " ").strip()
    if words != words.lower():  # the curator's own spelling
        return words
    words = words.replace("-", " ")
    return words[:1].upper() + words[1:] if words else kind


def arxiv_base(arxiv: str) -> str:
    """The arXiv id without its version ('2507.14417v2' -> '2507.14417'): what DOIs and Hugging Face name."""
    return _VERSION.sub("", arxiv)


def arxiv_abs(arxiv: str) -> str:
    return f"{ARXIV}/abs/{arxiv}"


def doi_url(doi: str) -> str:
    """The doi.org address of a DOI; '#', '?', '%' and the like are percent-encoded (the DOI Handbook's rule)."""
    return "https://doi.org/" + quote(doi, safe="/:;()[],@!$&'*+=")


def cited_doi(e: Entry) -> str | None:
    """The DOI a citation carries: the publisher's, else arXiv's DataCite DOI, else none."""
    if e.doi:
        return e.doi
    return ARXIV_DOI_PREFIX + arxiv_base(e.arxiv) if e.arxiv else None


def pdf_url(e: Entry) -> str | None:
    """The entry's `pdf` link, else arXiv's PDF when the arXiv id is known."""
    return e.link("pdf") or (f"{ARXIV}/pdf/{e.arxiv}" if e.arxiv else None)


def venue_kind(venue: str | None) -> str | None:
    """'journal' or 'conference' for a venue's name, None for no venue (a preprint server is none)."""
    if not venue or not venue.strip() or _PREPRINT.match(venue):
        return None
    return "journal" if _JOURNAL.search(venue) else "conference"


def has_identity(e: Entry) -> bool:
    """Whether anything says which paper this is (an arXiv id, a DOI, a PDF or an abstract page)."""
    return bool(e.arxiv or e.doi or e.link("pdf") or e.link("abs"))


def cited_url(e: Entry) -> str | None:
    """The address a citation gives: the paper's landing page (arXiv's, its abstract page, its DOI's), else its PDF."""
    if e.arxiv:
        return arxiv_abs(e.arxiv)
    if e.link("abs"):
        return e.link("abs")
    return doi_url(e.doi) if e.doi else e.link("pdf")


def _on_arxiv(url: str) -> bool:
    host = urlsplit(url).hostname or ""
    return host == "arxiv.org" or host.endswith(".arxiv.org")


def buttons(e: Entry) -> tuple[Link, ...]:
    """The paper page's buttons: PDF, arXiv, DOI, Hugging Face, Code, Project, then the entry's other links.

    A link already given by a button before it (the same address) is not repeated, and the
    `abs` link of a paper whose arXiv id is known is arXiv's page again, so it is left out.
    """
    found: dict[str, str] = {}
    pdf = pdf_url(e)
    if pdf:
        found["pdf"] = pdf
    if e.arxiv:
        found["arxiv"] = arxiv_abs(e.arxiv)
    abs_link = e.link("abs")
    if abs_link and not (e.arxiv and _on_arxiv(abs_link)):
        found["abs"] = abs_link
    if e.doi:
        found["doi"] = doi_url(e.doi)
    hf = e.link("hf") or (f"https://huggingface.co/papers/{arxiv_base(e.arxiv)}"
                          if e.arxiv and _NEW_STYLE.match(arxiv_base(e.arxiv)) else None)
    if hf:
        found["hf"] = hf
    for kind, url in e.links:
        found.setdefault(kind, url)
    order = [k for k in FIRST if k in found] + [k for k in found if k not in FIRST]
    out: list[Link] = []
    seen: set[str] = set()
    for kind in order:
        url = found[kind]
        if url not in seen:
            seen.add(url)
            text = "arXiv" if kind == "abs" and _on_arxiv(url) else label(kind)
            out.append(Link(kind, text, url))
    return tuple(out)


def searches(title: str) -> tuple[Link, ...]:
    """Title searches for a paper nothing identifies yet: arXiv, Semantic Scholar, Google Scholar."""
    text = " ".join(title.split())
    return (
        Link("search-arxiv", "Search arXiv",
             f"{ARXIV}/search/?query={quote_plus(text)}&searchtype=title"),
        Link("search-semantic-scholar", "Semantic Scholar",
             f"https://www.semanticscholar.org/search?q={quote_plus(text)}"),
        Link("search-google-scholar", "Google Scholar", f"https://scholar.google.com/scholar?q={quote_plus(text)}"),
    )


def schema_org(e: Entry) -> dict[str, Any]:
    """JSON-LD `identifier` (arXiv id, DOI), `sameAs` (arXiv's page, the DOI's) and the journal
    (`isPartOf`) of a ScholarlyArticle."""
    identifiers: list[dict[str, str]] = []
    same_as: list[str] = []
    if e.arxiv:
        identifiers.append({"@type": "PropertyValue", "propertyID": "arXiv", "value": e.arxiv})
        same_as.append(arxiv_abs(e.arxiv))
    doi = cited_doi(e)
    if doi:
        identifiers.append({"@type": "PropertyValue", "propertyID": "DOI", "value": doi})
        same_as.append(doi_url(doi))
    found: dict[str, Any] = {"identifier": identifiers, "sameAs": same_as} if identifiers else {}
    if venue_kind(e.venue) == "journal":
        found["isPartOf"] = {"@type": "Periodical", "name": e.venue}
    return found
