"""The pipeline: the engine loop, stage contracts, tools and services, context, registry."""
