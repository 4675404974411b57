"""Input and output of graph data: triple readers, property-graph mappings, loading."""
