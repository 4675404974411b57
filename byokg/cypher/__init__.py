"""Cypher tool internals: read-only guard, execution, repair."""
