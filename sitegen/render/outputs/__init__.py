"""Non-HTML outputs: citations (BibTeX, RIS, CSL-JSON) and the papers.json data dump."""
