"""Graph stores: memory, kuzu, neo4j, neptune."""
