"""arXiv subject classes: expand the bare codes aggregator pages print ('DC', 'BM')."""

from __future__ import annotations

from functools import lru_cache

# Archive -> subject codes, in the order a bare code is resolved (cs first: most
# aggregator pages are about computing, and 'SC' or 'NA' exist in several archives).
ARCHIVES: dict[str, tuple[str, ...]] = {
    "cs": ("AI", "AR", "CC", "CE", "CG", "CL", "CR", "CV", "CY", "DB", "DC", "DL", "DM", "DS",
           "ET", "FL", "GL", "GR", "GT", "HC", "IR", "IT", "LG", "LO", "MA", "MM", "MS", "NA",
           "NE", "NI", "OH", "OS", "PF", "PL", "RO", "SC", "SD", "SE", "SI", "SY"),
    "stat": ("AP", "CO", "ME", "ML", "OT", "TH"),
    "eess": ("AS", "IV", "SP", "SY"),
    "q-bio": ("BM", "CB", "GN", "MN", "NC", "OT", "PE", "QM", "SC", "TO"),
    "math": ("AC", "AG", "AP", "AT", "CA", "CO", "CT", "CV", "DG", "DS", "FA", "GM", "GN", "GR",
             "GT", "HO", "IT", "KT", "LO", "MG", "MP", "NA", "NT", "OA", "OC", "PR", "QA", "RA",
             "RT", "SG", "SP", "ST"),
    "q-fin": ("CP", "EC", "GN", "MF", "PM", "PR", "RM", "ST", "TR"),
    "econ": ("EM", "GN", "TH"),
    "physics": ("acc-ph", "ao-ph", "app-ph", "atm-clus", "atom-ph", "bio-ph", "chem-ph",
                "class-ph", "comp-ph", "data-an", "ed-ph", "flu-dyn", "gen-ph", "geo-ph",
                "hist-ph", "ins-det", "med-ph", "optics", "plasm-ph", "pop-ph", "soc-ph",
                "space-ph"),
}
STANDALONE = ("quant-ph", "hep-th", "hep-ph", "hep-ex", "hep-lat", "gr-qc", "nucl-th",
              "nucl-ex", "math-ph", "nlin", "cond-mat", "astro-ph")

NAMES: dict[str, str] = {
    "cs.AI": "Artificial Intelligence", "cs.AR": "Hardware Architecture",
    "cs.CL": "Computation and Language", "cs.CV": "Computer Vision and Pattern Recognition",
    "cs.DC": "Distributed, Parallel, and Cluster Computing", "cs.LG": "Machine Learning",
    "cs.PL": "Programming Languages", "cs.PF": "Performance", "cs.SE": "Software Engineering",
    "cs.NE": "Neural and Evolutionary Computing", "cs.MS": "Mathematical Software",
    "cs.DS": "Data Structures and Algorithms", "cs.RO": "Robotics", "cs.CR": "Cryptography and Security",
    "cs.NA": "Numerical Analysis", "cs.OS": "Operating Systems", "cs.NI": "Networking and Internet Architecture",
    "cs.IR": "Information Retrieval", "cs.HC": "Human-Computer Interaction", "cs.SC": "Symbolic Computation",
    "q-bio.BM": "Biomolecules", "stat.ML": "Machine Learning (Statistics)", "quant-ph": "Quantum Physics",
    "eess.SP": "Signal Processing", "eess.IV": "Image and Video Processing", "math.NA": "Numerical Analysis",
    "physics.comp-ph": "Computational Physics", "physics.chem-ph": "Chemical Physics",
}


def expand(code: str) -> str | None:
    """Full arXiv class for a bare or full code: 'DC' -> 'cs.DC', 'BM' -> 'q-bio.BM'."""
    if code in STANDALONE:
        return code
    if "." in code:
        archive, _, subject = code.partition(".")
        return code if subject in ARCHIVES.get(archive, ()) else None
    for archive, subjects in ARCHIVES.items():
        if code in subjects:
            return f"{archive}.{code}"
    return None


def is_category(name: str) -> bool:
    """Whether a name is an arXiv category, written in any case ('cs.LG', 'cs.lg', 'quant-ph'), rather than a topic."""
    spelled = canonical(name)
    return expand(spelled) == spelled


def topics(tags: tuple[str, ...], category: str | None) -> tuple[tuple[str, ...], str | None, tuple[str, ...]]:
    """An entry's tags without arXiv categories, which are shown as categories only: (topics, category, dropped).

    A category tag becomes the entry's category when it has none; one naming its category
    says nothing more; one naming another category is `dropped` (an entry has one category).
    """
    if not any(map(is_category, tags)):
        return tags, category, ()
    kept = tuple(t for t in tags if not is_category(t))
    named = [t for t in tags if is_category(t)]
    category = category or named[0]
    return kept, category, tuple(t for t in named if canonical(t) != canonical(category))


@lru_cache(maxsize=4096)
def canonical(code: str) -> str:
    """arXiv's spelling of a category written in any case: 'cs.lg' -> 'cs.LG', 'physics.Comp-PH' -> 'physics.comp-ph'.

    arXiv's classes ignore case, and arXiv writes an archive in lowercase and a subject class
    as two capitals (cs.LG, math.AG, astro-ph.CO) or, when longer, in lowercase (physics.comp-ph,
    cond-mat.str-el): the rule holds for every class, known here or not, so one spelling is
    chosen from the code alone, whatever other files write.
    """
    archive, dot, subject = code.partition(".")
    subject = subject.upper() if len(subject) == 2 and subject.isalpha() else subject.lower()
    return archive.lower() + dot + subject


def display_name(code: str) -> str:
    """Human name of an arXiv class when known, else the code itself."""
    return NAMES.get(code, code)
