"""sitegen: a static site generator for curated reading lists of research papers."""

__version__ = "0.2.0"
