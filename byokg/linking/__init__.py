"""Entity linking: fuzzy and dense indexes, embedders, rerankers."""
