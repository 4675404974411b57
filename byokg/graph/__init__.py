"""The graph layer: the GraphStore protocol, the profile, paths, CSR views, verbalising and
schema rendering, and opening graphs by URI."""
