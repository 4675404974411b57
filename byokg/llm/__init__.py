"""LLM providers (bedrock, openai-compatible, replay) and the response cache."""
