"""The citation view's graph: the papers the list cites most, the citations among them, clusters, places."""

from __future__ import annotations

from sitegen.model.citation_graph import Citing, citation_graph, short


def data(papers: list[tuple[str, tuple[str, ...]]]) -> Citing:
    return Citing(tuple((slug, f"Title of {slug}", ("topic",), cites) for slug, cites in sorted(papers)),
                  (("topic", "topic"),))


def test_the_most_cited_papers_come_first_and_every_citation_among_them_is_an_edge() -> None:
    graph = citation_graph(data([("a", ("c",)), ("b", ("c", "a")), ("c", ()), ("d", ("c", "b"))]))
    assert [n.slug for n in graph.nodes] == ["c", "b", "a", "d"]  # cited 3, 1, 1 (b citing more first), 0 times
    assert [n.papers for n in graph.nodes] == [3, 1, 1, 0]
    named = {(graph.nodes[i].slug, graph.nodes[j].slug) for i, j, _ in graph.edges}
    assert named == {("a", "c"), ("b", "c"), ("b", "a"), ("d", "c"), ("d", "b")}
    assert graph.authors == 4 and graph.ties == 5
    assert graph == citation_graph(data([("a", ("c",)), ("b", ("c", "a")), ("c", ()), ("d", ("c", "b"))]))


def test_a_large_graph_keeps_the_papers_cited_most() -> None:
    papers = [(f"p{i:03}", (f"p{i - 1:03}",) if i else ()) for i in range(30)] + [("z", ("p010",))]
    graph = citation_graph(data(papers), limit=5)
    assert len(graph.nodes) == 5 and graph.nodes[0].slug == "p010" and graph.authors == 31
    assert all(i < 5 and j < 5 for i, j, _ in graph.edges)


def test_titles_are_cut_at_a_word() -> None:
    assert short("FlashAttention: Fast and Memory-Efficient Exact Attention") == "FlashAttention: Fast and…"
    assert short("Short title") == "Short title"
