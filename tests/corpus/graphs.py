"""Graph algorithms with networkx."""

from __future__ import annotations

from corpus import case

ROADS = '[("a", "b", 7), ("a", "c", 9), ("a", "f", 14), ("b", "c", 10), ("b", "d", 15), ("c", "d", 11), ("c", "f", 2), ("d", "e", 6), ("e", "f", 9)]'

CASES = [
    case("nx_weighted_shortest_path", f"""
import networkx as nx
g = nx.Graph()
g.add_weighted_edges_from({ROADS})
[nx.dijkstra_path(g, "a", "e"), nx.dijkstra_path_length(g, "a", "e")]
""", [["a", "c", "f", "e"], 20]),
    case("nx_minimum_spanning_tree", f"""
import networkx as nx
g = nx.Graph()
g.add_weighted_edges_from({ROADS})
t = nx.minimum_spanning_tree(g)
[sorted(tuple(sorted(e)) for e in t.edges()), int(t.size(weight="weight"))]
""", [[["a", "b"], ["a", "c"], ["c", "f"], ["d", "e"], ["e", "f"]], 33]),
    case("nx_topological_dependencies", """
import networkx as nx
g = nx.DiGraph([("fetch", "build"), ("build", "test"), ("build", "lint"), ("test", "deploy"), ("lint", "deploy")])
[list(nx.topological_sort(g))[0], nx.is_directed_acyclic_graph(g), sorted(nx.ancestors(g, "deploy"))]
""", ["fetch", True, ["build", "fetch", "lint", "test"]]),
    case("nx_find_cycle", """
import networkx as nx
g = nx.DiGraph([(1, 2), (2, 3), (3, 1), (3, 4)])
[sorted(sorted(c) for c in nx.simple_cycles(g)), nx.is_directed_acyclic_graph(g)]
""", [[[1, 2, 3]], False]),
    case("nx_connected_components", """
import networkx as nx
g = nx.Graph([(1, 2), (2, 3), (4, 5), (6, 6)])
sorted(sorted(c) for c in nx.connected_components(g))
""", [[1, 2, 3], [4, 5], [6]]),
    case("nx_betweenness_hub", """
import networkx as nx
g = nx.Graph([("a", "hub"), ("b", "hub"), ("c", "hub"), ("hub", "d"), ("d", "e")])
ranks = nx.betweenness_centrality(g)
sorted(ranks, key=ranks.get, reverse=True)[:2]
""", ["hub", "d"]),
    case("nx_degree_centrality", """
import networkx as nx
g = nx.star_graph(4)
c = nx.degree_centrality(g)
[c[0], c[1], max(dict(g.degree()).values())]
""", [1.0, 0.25, 4]),
    case("nx_bipartite_matching", """
import networkx as nx
from networkx.algorithms import bipartite
g = nx.Graph([("ann", "t1"), ("ann", "t2"), ("bob", "t1"), ("cid", "t3")])
m = bipartite.maximum_matching(g, top_nodes=["ann", "bob", "cid"])
sorted((k, v) for k, v in m.items() if k in ("ann", "bob", "cid"))
""", [["ann", "t2"], ["bob", "t1"], ["cid", "t3"]]),
    case("nx_max_flow", """
import networkx as nx
g = nx.DiGraph()
g.add_edge("s", "a", capacity=3)
g.add_edge("s", "b", capacity=2)
g.add_edge("a", "t", capacity=2)
g.add_edge("b", "t", capacity=3)
g.add_edge("a", "b", capacity=1)
nx.maximum_flow_value(g, "s", "t")
""", 5),
    case("nx_bfs_layers_grid", """
import networkx as nx
g = nx.grid_2d_graph(3, 3)
lengths = nx.single_source_shortest_path_length(g, (0, 0))
[lengths[(2, 2)], sum(1 for v in lengths.values() if v == 2)]
""", [4, 3]),
    case("nx_json_roundtrip", """
import json
import networkx as nx
from networkx.readwrite import json_graph
g = nx.path_graph(3)
data = json.loads(json.dumps(json_graph.node_link_data(g, edges="links")))
h = json_graph.node_link_graph(data, edges="links")
[sorted(h.edges()), nx.is_isomorphic(g, h)]
""", [[[0, 1], [1, 2]], True]),
    case("nx_shortest_path_unreachable", """
import networkx as nx
g = nx.DiGraph([("a", "b")])
try:
    nx.shortest_path(g, "b", "a")
except nx.NetworkXNoPath as e:
    result = str(e)
result
""", "No path between b and a."),
]
