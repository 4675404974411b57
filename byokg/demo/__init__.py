"""The built-in demo graph (``memory:demo``), written by this project (see build.py)."""

from pathlib import Path

HERE = Path(__file__).parent
DEMO_GRAPH = HERE / "demo_kg.jsonl"
DEMO_QUESTIONS = HERE / "questions.jsonl"
