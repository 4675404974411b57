"""byokg.plugins: the built-in plugins (retrieval tools, linking, LLM providers, datasets).

Each module is a set of hook implementations registered through the same hooks a third-party
package uses; the plugin manager itself is :mod:`byokg.registry`.
"""
