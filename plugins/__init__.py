"""Built-in retrieval tools, registered through the same hooks as third-party plugins."""
