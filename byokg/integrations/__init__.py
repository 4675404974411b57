"""Adapters for other frameworks, each in its own extra: ``byokg.integrations.langchain``
(``pip install 'byokg[langchain]'``) and ``byokg.integrations.llamaindex``
(``pip install 'byokg[llamaindex]'``). Importing this package imports neither framework."""
