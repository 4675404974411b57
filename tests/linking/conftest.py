"""Fixtures for the linking tests: name indexes over the demo and tiny Freebase graphs, and
tiny random BERT models saved to disk (no hub) for the FlagEmbedding loading code."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def demo_index(demo_store):
    from byokg.linking.fuzzy import NameIndex

    return NameIndex.from_store(demo_store)


@pytest.fixture(scope="session")
def fb_index(freebase_store):
    from byokg.linking.fuzzy import NameIndex

    return NameIndex.from_store(freebase_store)


_WORDS = ["acme", "corp", "corporation", "banana", "bread", "wynton", "marsalis", "new",
          "orleans", "jazz", "trumpet", "city", "river"]


def _tokenizer(folder: Path, write) -> int:
    return write(folder, [*_WORDS, *"abcdefghijklmnopqrstuvwxyz",
                          *[f"##{c}" for c in "abcdefghijklmnopqrstuvwxyz"]])


def _config(vocab_size: int, **extra):
    from transformers import BertConfig

    return BertConfig(vocab_size=vocab_size, hidden_size=32, num_hidden_layers=1,
                      num_attention_heads=2, intermediate_size=37, max_position_embeddings=64,
                      initializer_range=1.0, **extra)


@pytest.fixture(scope="session")
def tiny_bert(tmp_path_factory, write_bert_tokenizer) -> Path:
    """A random 1-layer BERT encoder (hidden size 32) with its tokenizer, saved locally."""
    import torch
    from transformers import BertModel

    torch.manual_seed(0)
    folder = tmp_path_factory.mktemp("tiny-bert")
    n = _tokenizer(folder, write_bert_tokenizer)
    BertModel(_config(n)).save_pretrained(folder)
    return folder


@pytest.fixture(scope="session")
def tiny_reranker(tmp_path_factory, write_bert_tokenizer) -> Path:
    """A random 1-layer BERT cross-encoder (one logit), saved locally."""
    import torch
    from transformers import BertForSequenceClassification

    torch.manual_seed(0)
    folder = tmp_path_factory.mktemp("tiny-reranker")
    n = _tokenizer(folder, write_bert_tokenizer)
    # a smaller init than the encoder: with 1.0 the tanh pooler saturates and every pair
    # scores alike
    config = _config(n, num_labels=1)
    config.initializer_range = 0.3
    BertForSequenceClassification(config).save_pretrained(folder)
    return folder
