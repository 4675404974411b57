"""Models: LLM, embedder and reranker protocols, providers, similarity and retries."""
